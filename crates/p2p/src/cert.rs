//! What is read from a staking certificate, as `staking.ParseCertificate` reads it: its subject
//! public key info, whatever the X.509 version (avalanchego's local-network stakers have v1
//! certificates, which a full X.509 parser such as webpki refuses).

use rustls::pki_types::SubjectPublicKeyInfoDer;

/// The DER `SubjectPublicKeyInfo` (the whole SEQUENCE) of a DER certificate, or `None` when the
/// bytes are not a certificate's outline: `Certificate { TBSCertificate { [0] version?, serial,
/// signature, issuer, validity, subject, subjectPublicKeyInfo, ... }, ... }`.
pub fn subject_public_key_info(cert_der: &[u8]) -> Option<SubjectPublicKeyInfoDer<'_>> {
    let (cert, _) = element(cert_der, 0x30)?;
    let (tbs, _) = element(content(cert)?, 0x30)?;
    let mut rest = content(tbs)?;
    if rest.first() == Some(&0xa0) {
        rest = element(rest, 0xa0)?.1;
    }
    for tag in [0x02, 0x30, 0x30, 0x30, 0x30] {
        rest = element(rest, tag)?.1;
    }
    let (spki, _) = element(rest, 0x30)?;
    Some(SubjectPublicKeyInfoDer::from(spki))
}

/// The first element of `input` if its tag is `tag`: (its whole encoding, what follows).
fn element(input: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    if *input.first()? != tag {
        return None;
    }
    let (header, len): (usize, usize) = match *input.get(1)? {
        n if n < 0x80 => (2, usize::from(n)),
        0x81 => (3, usize::from(*input.get(2)?)),
        0x82 => (
            4,
            usize::from(*input.get(2)?) << 8 | usize::from(*input.get(3)?),
        ),
        _ => return None,
    };
    let end = header.checked_add(len)?;
    (end <= input.len()).then(|| input.split_at(end))
}

/// The content octets of one complete element.
fn content(element: &[u8]) -> Option<&[u8]> {
    let header = match *element.get(1)? {
        n if n < 0x80 => 2,
        0x81 => 3,
        _ => 4,
    };
    element.get(header..)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncated_or_altered_outlines_are_refused_without_panic() {
        let cert = crate::self_signed::NewStakingCert::generate(1_700_000_000)
            .map(|c| c.cert_der)
            .unwrap_or_default();
        assert!(subject_public_key_info(&cert).is_some());
        for cut in 0..cert.len() {
            assert!(subject_public_key_info(&cert[..cut]).is_none(), "{cut}");
        }
        for at in 0..cert.len() {
            let mut bad = cert.clone();
            bad[at] ^= 0xff;
            let _ = subject_public_key_info(&bad);
        }
    }
}
