//! A new staking certificate and key, as avalanchego makes one when given none
//! (`staking.NewCertAndKeyBytes`): a random ECDSA P-256 key and a self-signed X.509 v3
//! certificate with serial 0, empty issuer and subject, valid from 1999-12-31 for 100 years from
//! now, with the critical key-usage (digital signature) and basic-constraints extensions; the
//! certificate as PEM `CERTIFICATE`, the key as PKCS#8 PEM `PRIVATE KEY`.

use base64::Engine as _;
use p256::ecdsa::SigningKey;
use snowline_types::staking_cert::{
    BASIC_CONSTRAINTS, CertTime, KEY_USAGE, p256_pkcs8_der as pkcs8, self_signed_p256,
};

use crate::error::P2pError;

/// `time.Date(2000, time.January, 0, ...)`, which Go normalises to 1999-12-31.
const NOT_BEFORE: CertTime = CertTime::date(1999, 12, 31);

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
        let not_after = CertTime::from_unix(now).add_years(100);
        let cert_der = self_signed_p256(
            key,
            NOT_BEFORE,
            not_after,
            &[&KEY_USAGE, &BASIC_CONSTRAINTS],
        )
        .map_err(|_| P2pError::Identity("P-256 signing failed"))?;
        Ok(Self {
            cert_der,
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
