//! Self-signed staking certificates in avalanchego's shape (`staking.NewCertAndKeyBytes`): an
//! ECDSA P-256 key, serial 0, empty issuer and subject, signed with ecdsa-with-SHA256. The one
//! DER builder both the devnet's deterministic nodes and a new node's generated identity use;
//! RFC 6979 signatures make the same inputs give the same bytes.

use p256::ecdsa::signature::hazmat::PrehashSigner;
use p256::ecdsa::{Signature, SigningKey};

use crate::hashing::sha256;
use crate::time::civil_from_days;

/// `ecdsa-with-SHA256` (1.2.840.10045.4.3.2), no parameters.
const ECDSA_SHA256: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
/// `id-ecPublicKey` (1.2.840.10045.2.1).
const EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// `prime256v1` (1.2.840.10045.3.1.7).
const PRIME256V1: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];

/// keyUsage (2.5.29.15), critical, digitalSignature only: Go's encoding of
/// `x509.KeyUsageDigitalSignature`.
pub const KEY_USAGE: [u8; 16] = [
    0x30, 0x0e, 0x06, 0x03, 0x55, 0x1d, 0x0f, 0x01, 0x01, 0xff, 0x04, 0x04, 0x03, 0x02, 0x07, 0x80,
];
/// basicConstraints (2.5.29.19), critical, not a CA: Go's encoding of `BasicConstraintsValid`.
pub const BASIC_CONSTRAINTS: [u8; 14] = [
    0x30, 0x0c, 0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x02, 0x30, 0x00,
];

/// The P-256 signature over the certificate failed (it cannot for a valid key; kept as an error
/// rather than a panic).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("P-256 signing failed")]
pub struct SigningFailed;

/// A calendar instant in UTC, as an X.509 validity bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CertTime {
    /// Year (proleptic Gregorian).
    pub year: i64,
    /// Month, 1-12.
    pub month: u32,
    /// Day of the month, 1-31.
    pub day: u32,
    /// Hour, minute and second.
    pub hms: (u32, u32, u32),
}

impl CertTime {
    /// Midnight UTC of a date.
    pub const fn date(year: i64, month: u32, day: u32) -> Self {
        Self {
            year,
            month,
            day,
            hms: (0, 0, 0),
        }
    }

    /// The instant of unix time `t`.
    pub fn from_unix(t: u64) -> Self {
        let (year, month, day) = civil_from_days((t / 86_400) as i64);
        let secs = (t % 86_400) as u32;
        Self {
            year,
            month,
            day,
            hms: (secs / 3_600, secs / 60 % 60, secs % 60),
        }
    }

    /// Go's `t.AddDate(years, 0, 0)`: the same month, day and time `years` on (29 February of a
    /// year that is not leap becomes 1 March).
    pub fn add_years(self, years: i64) -> Self {
        let year = self.year + years;
        if self.month == 2 && self.day == 29 && !crate::time::is_leap(year) {
            Self {
                year,
                month: 3,
                day: 1,
                hms: self.hms,
            }
        } else {
            Self { year, ..self }
        }
    }

    /// The DER time: UTCTime for 1950 to 2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5).
    pub fn der(self) -> Vec<u8> {
        let Self {
            year: y,
            month: m,
            day: d,
            hms: (h, mi, s),
        } = self;
        if (1950..2050).contains(&y) {
            let text = format!("{:02}{m:02}{d:02}{h:02}{mi:02}{s:02}Z", y % 100);
            der(0x17, text.as_bytes())
        } else {
            let text = format!("{y:04}{m:02}{d:02}{h:02}{mi:02}{s:02}Z");
            der(0x18, text.as_bytes())
        }
    }
}

/// The DER certificate of `key`, valid from `not_before` to `not_after`, with `extensions`
/// (each a DER `Extension`; none: no extensions field at all, X.509 v3 either way).
pub fn self_signed_p256(
    key: &SigningKey,
    not_before: CertTime,
    not_after: CertTime,
    extensions: &[&[u8]],
) -> Result<Vec<u8>, SigningFailed> {
    let point = key.verifying_key().to_encoded_point(false);
    let mut spk = vec![0u8];
    spk.extend_from_slice(point.as_bytes());
    let spki = seq(&[&seq(&[&EC_PUBLIC_KEY, &PRIME256V1]), &der(0x03, &spk)]);
    let alg = seq(&[&ECDSA_SHA256]);
    let validity = seq(&[&not_before.der(), &not_after.der()]);
    let empty_name = seq(&[]);
    let version = der(0xa0, &der(0x02, &[2]));
    let serial = der(0x02, &[0]);
    let mut fields: Vec<&[u8]> = vec![
        &version,
        &serial,
        &alg,
        &empty_name,
        &validity,
        &empty_name,
        &spki,
    ];
    let extensions_field = der(0xa3, &seq(extensions));
    if !extensions.is_empty() {
        fields.push(&extensions_field);
    }
    let tbs = seq(&fields);
    let sig: Signature = key.sign_prehash(&sha256(&tbs)).map_err(|_| SigningFailed)?;
    let mut sig_bits = vec![0u8];
    sig_bits.extend_from_slice(sig.to_der().as_bytes());
    Ok(seq(&[&tbs, &alg, &der(0x03, &sig_bits)]))
}

/// RFC 5958 `OneAsymmetricKey` wrapping an RFC 5915 `ECPrivateKey` with its public key (what
/// Go's `x509.MarshalPKCS8PrivateKey` writes, and ring loads).
pub fn p256_pkcs8_der(key: &SigningKey) -> Vec<u8> {
    let secret: [u8; 32] = key.to_bytes().into();
    let point = key.verifying_key().to_encoded_point(false);
    let mut bits = vec![0u8];
    bits.extend_from_slice(point.as_bytes());
    let ec_private_key = seq(&[
        &der(0x02, &[1]),
        &der(0x04, &secret),
        &der(0xa1, &der(0x03, &bits)),
    ]);
    seq(&[
        &der(0x02, &[0]),
        &seq(&[&EC_PUBLIC_KEY, &PRIME256V1]),
        &der(0x04, &ec_private_key),
    ])
}

/// A DER TLV with a definite length (short form, or one or two length bytes: certificates here
/// stay under 64 KiB).
fn der(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 4);
    out.push(tag);
    let len = body.len();
    if len < 0x80 {
        out.push(len as u8);
    } else if len < 0x100 {
        out.extend_from_slice(&[0x81, len as u8]);
    } else {
        out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]);
    }
    out.extend_from_slice(body);
    out
}

fn seq(parts: &[&[u8]]) -> Vec<u8> {
    der(0x30, &parts.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_as_go_writes_them() {
        assert_eq!(CertTime::from_unix(0), CertTime::date(1970, 1, 1));
        // 2024-02-29T12:34:56Z, a leap day, and a hundred years on (2124 is leap).
        let leap = CertTime::from_unix(1_709_210_096);
        assert_eq!(
            leap,
            CertTime {
                hms: (12, 34, 56),
                ..CertTime::date(2024, 2, 29)
            }
        );
        assert_eq!(leap.add_years(100).day, 29);
        // 2000-02-29 + 100 years: 2100 is not leap, Go normalises to 1 March.
        assert_eq!(
            CertTime::from_unix(951_782_400).add_years(100),
            CertTime::date(2100, 3, 1)
        );
        assert_eq!(
            CertTime::date(1999, 12, 31).der(),
            der(0x17, b"991231000000Z")
        );
        assert_eq!(
            CertTime {
                hms: (17, 0, 5),
                ..CertTime::date(2126, 11, 27)
            }
            .der(),
            der(0x18, b"21261127170005Z")
        );
    }

    #[test]
    fn long_lengths_use_the_long_form() {
        assert_eq!(&der(0x04, &[0; 0x80])[..3], &[0x04, 0x81, 0x80]);
        assert_eq!(&der(0x04, &[0; 0x100])[..4], &[0x04, 0x82, 0x01, 0x00]);
    }
}
