//! The signatures a delivery carries, both HMAC-SHA256 keyed with the organisation's shared
//! secret (its UTF-8 bytes): `x-signature`, over the body alone, as Glacier sends it; and
//! `x-snowline-signature`, `v1=` and the hex HMAC of `TIMESTAMP.BODY`, with the timestamp in
//! `x-snowline-timestamp`, so a receiver can refuse a replayed delivery. `docs/webhooks.md`.

use hmac::{Hmac, Mac};
use sha2::Sha256;

fn mac(secret: &str, parts: &[&[u8]]) -> String {
    match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
        Ok(mut m) => {
            for p in parts {
                m.update(p);
            }
            hex::encode(m.finalize().into_bytes())
        }
        // HMAC takes a key of any length.
        Err(_) => String::new(),
    }
}

/// `x-signature`: the hex HMAC-SHA256 of the body.
pub fn body_signature(secret: &str, body: &[u8]) -> String {
    mac(secret, &[body])
}

/// `x-snowline-signature`: `v1=` and the hex HMAC-SHA256 of `TIMESTAMP.BODY`.
pub fn timestamped_signature(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let t = timestamp.to_string();
    format!("v1={}", mac(secret, &[t.as_bytes(), b".", body]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // RFC 4231 section 4.3, test case 2.
        assert_eq!(
            body_signature("Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // The timestamped form signs `TIMESTAMP.BODY`: the same MAC as over that text.
        assert_eq!(
            timestamped_signature("Jefe", 17, b"{}"),
            format!("v1={}", body_signature("Jefe", b"17.{}"))
        );
    }
}
