//! A new staking certificate and key, as avalanchego makes one when given none
//! (`staking.NewCertAndKeyBytes`): a random ECDSA P-256 key and a self-signed X.509 v3
//! certificate with serial 0, empty issuer and subject, valid from 1999-12-31 for 100 years from
//! now, with the critical key-usage (digital signature) and basic-constraints extensions; the
//! certificate as PEM `CERTIFICATE`, the key as PKCS#8 PEM `PRIVATE KEY`.

use base64::Engine as _;
use p256::ecdsa::signature::hazmat::PrehashSigner;
use p256::ecdsa::{Signature, SigningKey};
use snowline_types::hashing::sha256;

use crate::error::P2pError;

/// A generated certificate and key, both DER.
#[derive(Clone)]
pub struct NewStakingCert {
    /// The certificate.
    pub cert_der: Vec<u8>,
    /// The key, PKCS#8.
    pub key_pkcs8_der: Vec<u8>,
}

impl std::fmt::Debug for NewStakingCert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewStakingCert").finish_non_exhaustive()
    }
}

impl NewStakingCert {
    /// A certificate for a random key, issued at unix time `now`.
    pub fn generate(now: u64) -> Result<Self, P2pError> {
        for _ in 0..16 {
            let secret = random32()?;
            if let Ok(key) = SigningKey::from_bytes((&secret).into()) {
                return Self::for_key(&key, now);
            }
        }
        Err(P2pError::Identity(
            "no valid P-256 scalar from the random source",
        ))
    }

    /// The certificate of `key`, issued at unix time `now` (RFC 6979 signature: the same inputs
    /// give the same bytes).
    pub fn for_key(key: &SigningKey, now: u64) -> Result<Self, P2pError> {
        let point = key.verifying_key().to_encoded_point(false);
        let mut spk = vec![0u8];
        spk.extend_from_slice(point.as_bytes());
        let spki = seq(&[&seq(&[&EC_PUBLIC_KEY, &PRIME256V1]), &der(0x03, &spk)]);
        let alg = seq(&[&ECDSA_SHA256]);
        let validity = seq(&[&der(0x17, NOT_BEFORE), &time(hundred_years_after(now))]);
        let empty_name = seq(&[]);
        let extensions = der(0xa3, &seq(&[&KEY_USAGE, &BASIC_CONSTRAINTS]));
        let tbs = seq(&[
            &der(0xa0, &der(0x02, &[2])),
            &der(0x02, &[0]),
            &alg,
            &empty_name,
            &validity,
            &empty_name,
            &spki,
            &extensions,
        ]);
        let sig: Signature = key
            .sign_prehash(&sha256(&tbs))
            .map_err(|_| P2pError::Identity("P-256 signing failed"))?;
        let mut sig_bits = vec![0u8];
        sig_bits.extend_from_slice(sig.to_der().as_bytes());
        Ok(Self {
            cert_der: seq(&[&tbs, &alg, &der(0x03, &sig_bits)]),
            key_pkcs8_der: pkcs8(key),
        })
    }

    /// The certificate as PEM (`staker.crt`).
    pub fn cert_pem(&self) -> String {
        pem("CERTIFICATE", &self.cert_der)
    }

    /// The key as PEM (`staker.key`).
    pub fn key_pem(&self) -> String {
        pem("PRIVATE KEY", &self.key_pkcs8_der)
    }
}

/// The PKCS#8 DER of the P-256 key with scalar `secret`.
pub(crate) fn p256_pkcs8_der(secret: &[u8; 32]) -> Result<Vec<u8>, P2pError> {
    let key = SigningKey::from_bytes(secret.into())
        .map_err(|_| P2pError::Identity("invalid P-256 staking key"))?;
    Ok(pkcs8(&key))
}

/// 32 bytes from the operating system's random source.
pub(crate) fn random32() -> Result<[u8; 32], P2pError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|_| P2pError::Identity("the random source failed"))?;
    Ok(b)
}

/// RFC 5958 `OneAsymmetricKey` wrapping an RFC 5915 `ECPrivateKey` with its public key (what
/// Go's `x509.MarshalPKCS8PrivateKey` writes, and ring loads).
fn pkcs8(key: &SigningKey) -> Vec<u8> {
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

/// `ecdsa-with-SHA256` (1.2.840.10045.4.3.2), no parameters.
const ECDSA_SHA256: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
/// `id-ecPublicKey` (1.2.840.10045.2.1).
const EC_PUBLIC_KEY: [u8; 9] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
/// `prime256v1` (1.2.840.10045.3.1.7).
const PRIME256V1: [u8; 10] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
/// `time.Date(2000, time.January, 0, ...)`, which Go normalises to 1999-12-31, as UTCTime.
const NOT_BEFORE: &[u8] = b"991231000000Z";
/// keyUsage (2.5.29.15), critical, digitalSignature only: Go's encoding of
/// `x509.KeyUsageDigitalSignature`.
const KEY_USAGE: [u8; 16] = [
    0x30, 0x0e, 0x06, 0x03, 0x55, 0x1d, 0x0f, 0x01, 0x01, 0xff, 0x04, 0x04, 0x03, 0x02, 0x07, 0x80,
];
/// basicConstraints (2.5.29.19), critical, not a CA: Go's encoding of `BasicConstraintsValid`.
const BASIC_CONSTRAINTS: [u8; 14] = [
    0x30, 0x0c, 0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x02, 0x30, 0x00,
];

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

/// The calendar date and time of unix time `t`: (year, month, day, hour, minute, second).
fn civil(t: u64) -> (i64, u32, u32, u32, u32, u32) {
    let days = (t / 86_400) as i64;
    let secs = (t % 86_400) as u32;
    // Days to civil date (proleptic Gregorian), era-based.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, secs / 3_600, secs / 60 % 60, secs % 60)
}

/// Go's `t.AddDate(100, 0, 0)`: the same month, day and time a hundred years on (29 February
/// of a year that is not leap becomes 1 March).
fn hundred_years_after(now: u64) -> (i64, u32, u32, u32, u32, u32) {
    let (y, m, d, h, mi, s) = civil(now);
    let y = y + 100;
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    if m == 2 && d == 29 && !leap {
        (y, 3, 1, h, mi, s)
    } else {
        (y, m, d, h, mi, s)
    }
}

/// An X.509 time: UTCTime for 1950 to 2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5).
fn time((y, m, d, h, mi, s): (i64, u32, u32, u32, u32, u32)) -> Vec<u8> {
    if (1950..2050).contains(&y) {
        let text = format!("{:02}{m:02}{d:02}{h:02}{mi:02}{s:02}Z", y % 100);
        der(0x17, text.as_bytes())
    } else {
        let text = format!("{y:04}{m:02}{d:02}{h:02}{mi:02}{s:02}Z");
        der(0x18, text.as_bytes())
    }
}

/// `-----BEGIN {label}-----`, the base64 in lines of 64, `-----END {label}-----`.
fn pem(label: &str, der: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in b64.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        // 2024-02-29T12:34:56Z, a leap day.
        assert_eq!(civil(1_709_210_096), (2024, 2, 29, 12, 34, 56));
        assert_eq!(
            hundred_years_after(1_709_210_096),
            (2124, 2, 29, 12, 34, 56)
        );
        // 2000-02-29 + 100 years: 2100 is not leap.
        assert_eq!(hundred_years_after(951_782_400), (2100, 3, 1, 0, 0, 0));
        assert_eq!(time((1999, 12, 31, 0, 0, 0)), der(0x17, NOT_BEFORE));
        assert_eq!(
            time((2126, 11, 27, 17, 0, 5)),
            der(0x18, b"21261127170005Z")
        );
    }
}
