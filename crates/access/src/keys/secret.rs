//! Secrets and their derived, non-secret forms: the stored hash and the key id.

use sha2::{Digest, Sha256};

use crate::error::AccessError;

/// Every secret starts with this, so leaked keys are easy to recognise (secret scanners).
pub const SECRET_PREFIX: &str = "snl_";
/// Random bytes in a secret.
pub const SECRET_BYTES: usize = 32;
/// Length of a key id: the first 8 bytes of the hash, in lowercase hex.
pub const KEY_ID_HEX_LEN: usize = 16;

/// A fresh secret: its random bytes and the string shown to the user once.
pub(crate) fn generate() -> Result<([u8; SECRET_BYTES], String), AccessError> {
    let mut raw = [0u8; SECRET_BYTES];
    getrandom::fill(&mut raw).map_err(|e| AccessError::Random(e.to_string()))?;
    let shown = format!("{SECRET_PREFIX}{}", bs58::encode(raw).into_string());
    Ok((raw, shown))
}

/// The random bytes of a presented secret, or `None` when it is not `snl_` + base58 of 32 bytes.
pub fn parse_secret(presented: &str) -> Option<[u8; SECRET_BYTES]> {
    let body = presented.strip_prefix(SECRET_PREFIX)?;
    // A 32-byte value is at most 44 base58 characters; refuse longer input before decoding.
    if body.is_empty() || body.len() > 44 {
        return None;
    }
    let bytes = bs58::decode(body).into_vec().ok()?;
    <[u8; SECRET_BYTES]>::try_from(bytes.as_slice()).ok()
}

/// SHA-256 of the secret's random bytes: what is stored (as the table key).
pub(crate) fn hash(raw: &[u8; SECRET_BYTES]) -> [u8; 32] {
    Sha256::digest(raw).into()
}

/// The key id of a hash: its first 8 bytes in lowercase hex (stable, not secret).
pub fn key_id_of(hash: &[u8; 32]) -> String {
    hex::encode(&hash[..8])
}

/// Splits a hash into the table key: `(id bytes, rest)`.
pub(crate) fn split(hash: &[u8; 32]) -> ([u8; 8], [u8; 24]) {
    let mut id = [0u8; 8];
    let mut rest = [0u8; 24];
    id.copy_from_slice(&hash[..8]);
    rest.copy_from_slice(&hash[8..]);
    (id, rest)
}

/// The id bytes of a key id string.
pub(crate) fn parse_key_id(key_id: &str) -> Result<[u8; 8], AccessError> {
    let invalid = || AccessError::InvalidKeyId(key_id.to_owned());
    if key_id.len() != KEY_ID_HEX_LEN || key_id.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(invalid());
    }
    let mut out = [0u8; 8];
    hex::decode_to_slice(key_id, &mut out).map_err(|_| invalid())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn generated_secrets_parse_back_to_their_bytes() {
        let (raw, shown) = generate().unwrap();
        assert!(shown.starts_with(SECRET_PREFIX));
        assert_eq!(parse_secret(&shown), Some(raw));
        let (other, _) = generate().unwrap();
        assert_ne!(raw, other, "two secrets must differ");
    }

    #[test]
    fn malformed_secrets_are_rejected() {
        let (_, shown) = generate().unwrap();
        let body = &shown[SECRET_PREFIX.len()..];
        assert_eq!(parse_secret(body), None, "missing prefix");
        assert_eq!(parse_secret("snl_"), None);
        assert_eq!(parse_secret("snl_0OIl"), None, "not base58");
        assert_eq!(parse_secret("snl_2g"), None, "too short");
        assert_eq!(parse_secret(&format!("{shown}{body}")), None, "too long");
    }

    proptest! {
        #[test]
        fn key_ids_round_trip(hash in any::<[u8; 32]>()) {
            let id = key_id_of(&hash);
            prop_assert_eq!(id.len(), KEY_ID_HEX_LEN);
            prop_assert_eq!(parse_key_id(&id).unwrap(), split(&hash).0);
        }
    }

    #[test]
    fn bad_key_ids_are_rejected() {
        for bad in [
            "",
            "abc",
            "0123456789ABCDEF",
            "0123456789abcdeg",
            "0123456789abcdef0",
        ] {
            assert!(
                matches!(parse_key_id(bad), Err(AccessError::InvalidKeyId(_))),
                "{bad}"
            );
        }
    }
}
