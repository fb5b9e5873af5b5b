//! The server secret that authenticates page tokens.

use std::fmt;

use crate::error::QueryError;

/// The 32-byte HMAC key of [`crate::SealedPageTokens`]. Generate one per deployment and share it among
/// the processes that serve the same API, so a token issued by one is accepted by the others.
/// `Debug` never prints it.
#[derive(Clone)]
pub struct TokenSecret([u8; TokenSecret::LEN]);

impl TokenSecret {
    /// Bytes in a secret.
    pub const LEN: usize = 32;

    /// A fresh secret from the operating system's random source (the crate's only I/O).
    pub fn generate() -> Result<TokenSecret, QueryError> {
        let mut bytes = [0u8; Self::LEN];
        getrandom::fill(&mut bytes).map_err(|e| QueryError::Random(e.to_string()))?;
        Ok(TokenSecret(bytes))
    }

    /// A secret from its raw bytes (tests, or a key read from a secret store).
    pub const fn from_bytes(bytes: [u8; Self::LEN]) -> TokenSecret {
        TokenSecret(bytes)
    }

    /// Parses 64 hex digits (either case), as a flag or environment variable gives it.
    pub fn from_hex(hex: &str) -> Result<TokenSecret, QueryError> {
        let bad = |detail: String| QueryError::SecretHex {
            len: hex.chars().count(),
            detail,
        };
        if hex.len() != 2 * Self::LEN {
            return Err(bad(String::new()));
        }
        let mut bytes = [0u8; Self::LEN];
        for (slot, pair) in bytes.iter_mut().zip(hex.as_bytes().chunks_exact(2)) {
            let digit = |c: u8| {
                char::from(c)
                    .to_digit(16)
                    .ok_or_else(|| bad(format!(" (not a hex digit: {:?})", char::from(c))))
            };
            let (hi, lo) = match pair {
                [hi, lo] => (digit(*hi)?, digit(*lo)?),
                _ => return Err(bad(String::new())),
            };
            // Both digits are below 16, so the byte fits.
            *slot = u8::try_from(hi * 16 + lo).unwrap_or_default();
        }
        Ok(TokenSecret(bytes))
    }

    /// The secret as 64 lower-case hex digits, to store it.
    pub fn to_hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(2 * Self::LEN);
        for b in self.0 {
            for nibble in [b >> 4, b & 0x0f] {
                out.push(char::from(DIGITS[usize::from(nibble)]));
            }
        }
        out
    }

    /// The key bytes, for the MAC.
    pub(crate) fn as_bytes(&self) -> &[u8; Self::LEN] {
        &self.0
    }
}

impl fmt::Debug for TokenSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenSecret(<redacted>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_in_either_case() {
        let secret = TokenSecret::from_bytes(std::array::from_fn(|i| (i * 37 + 5) as u8));
        let hex = secret.to_hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(TokenSecret::from_hex(&hex).unwrap().0, secret.0);
        assert_eq!(
            TokenSecret::from_hex(&hex.to_uppercase()).unwrap().0,
            secret.0
        );
    }

    #[test]
    fn bad_hex_is_rejected_with_its_length() {
        let err = TokenSecret::from_hex("abc").unwrap_err();
        assert!(err.to_string().contains("got 3 characters"), "{err}");
        let err = TokenSecret::from_hex(&"g".repeat(64)).unwrap_err();
        assert!(err.to_string().contains("not a hex digit: 'g'"), "{err}");
        // 64 bytes but not 64 characters: a multi-byte character.
        assert!(TokenSecret::from_hex(&format!("é{}", "0".repeat(62))).is_err());
    }

    #[test]
    fn generated_secrets_differ_and_debug_hides_them() {
        let a = TokenSecret::generate().unwrap();
        let b = TokenSecret::generate().unwrap();
        assert_ne!(a.0, b.0);
        let shown = format!("{a:?}");
        assert!(!shown.contains(&a.to_hex()), "{shown}");
        assert!(!shown.contains(&format!("{}", a.0[0])) || !shown.contains(&format!("{}", a.0[1])));
    }
}
