//! Opaque, authenticated page tokens (`pageToken` / `nextPageToken`).
//!
//! A token is URL-safe base64 without padding of
//! `version (1) ‖ flags (1) ‖ [expiry, u64 BE, if flag 0x01] ‖ position ‖ tag (16)`, where
//! `tag` is HMAC-SHA256(secret, everything before it ‖ digest) cut to 16 bytes. The query's
//! [`Digest`] is not carried but authenticated, so a token replayed with other filters or order
//! fails exactly as a forged one does. Byte-level description: `docs/query.md`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::digest::KeyInit;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::digest::Digest;
use crate::error::TokenError;
use crate::secret::TokenSecret;

/// The token format this code writes and reads.
pub const TOKEN_VERSION: u8 = 1;
/// The longest token accepted, in characters; longer ones are rejected before decoding.
pub const MAX_TOKEN_LEN: usize = 1024;
/// Bytes of the truncated HMAC-SHA256 tag.
pub const TAG_LEN: usize = 16;
/// Flag bit: an expiry (u64 BE unix seconds) follows the flags.
const FLAG_EXPIRES: u8 = 0x01;
/// Bytes before the optional expiry: version and flags.
const HEADER_LEN: usize = 2;
/// The longest position whose token (with an expiry) still fits in [`MAX_TOKEN_LEN`]:
/// 1024 base64 characters carry 768 bytes.
pub const MAX_POSITION_LEN: usize = MAX_TOKEN_LEN / 4 * 3 - HEADER_LEN - 8 - TAG_LEN;

type HmacSha256 = Hmac<Sha256>;

/// Issues and checks sealed page tokens: the position travels in the token, authenticated with
/// HMAC under one server secret, so the server keeps nothing.
#[derive(Debug, Clone)]
pub struct SealedPageTokens {
    secret: TokenSecret,
}

impl SealedPageTokens {
    /// Tokens signed with `secret`.
    pub fn new(secret: TokenSecret) -> Self {
        Self { secret }
    }

    /// The token resuming a query whose identity is `digest` after `position` (the last key
    /// served), valid until `expires_at` (unix seconds) when given. `position` should be at most
    /// [`MAX_POSITION_LEN`] bytes; a longer one gives a token that [`SealedPageTokens::decode`] refuses.
    pub fn encode(&self, digest: &Digest, position: &[u8], expires_at: Option<u64>) -> String {
        let mut raw = Vec::with_capacity(HEADER_LEN + 8 + position.len() + TAG_LEN);
        raw.push(TOKEN_VERSION);
        match expires_at {
            Some(at) => {
                raw.push(FLAG_EXPIRES);
                raw.extend_from_slice(&at.to_be_bytes());
            }
            None => raw.push(0),
        }
        raw.extend_from_slice(position);
        let tag = self.mac(&raw, digest).finalize().into_bytes();
        raw.extend_from_slice(tag.get(..TAG_LEN).unwrap_or_default());
        URL_SAFE_NO_PAD.encode(raw)
    }

    /// The position a token carries, if it was issued by this secret for the query `digest` and
    /// has not expired at `now_unix`. Costs O(token length); the tag comparison is constant-time.
    pub fn decode(
        &self,
        token: &str,
        digest: &Digest,
        now_unix: u64,
    ) -> Result<Vec<u8>, TokenError> {
        if token.len() > MAX_TOKEN_LEN {
            return Err(TokenError::Malformed("too long"));
        }
        let raw = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| TokenError::Malformed("not URL-safe base64 without padding"))?;
        if raw.len() < HEADER_LEN + TAG_LEN {
            return Err(TokenError::Malformed("too short"));
        }
        let (body, tag) = raw.split_at(raw.len() - TAG_LEN);
        let (version, rest) = body
            .split_first()
            .ok_or(TokenError::Malformed("too short"))?;
        if *version != TOKEN_VERSION {
            return Err(TokenError::UnknownVersion(*version));
        }
        self.mac(body, digest)
            .verify_truncated_left(tag)
            .map_err(|_| TokenError::Invalid)?;
        // Authentic from here on: only this code wrote these bytes.
        let (flags, rest) = rest.split_first().ok_or(TokenError::Invalid)?;
        let position = match *flags {
            0 => rest,
            FLAG_EXPIRES => {
                let (at, rest) = rest.split_first_chunk::<8>().ok_or(TokenError::Invalid)?;
                let expired_at = u64::from_be_bytes(*at);
                if now_unix >= expired_at {
                    return Err(TokenError::Expired { expired_at });
                }
                rest
            }
            _ => return Err(TokenError::Invalid),
        };
        Ok(position.to_vec())
    }

    /// The MAC state over `body ‖ digest`.
    fn mac(&self, body: &[u8], digest: &Digest) -> HmacSha256 {
        // HMAC zero-pads keys shorter than its 64-byte block, so this is HMAC keyed by the secret.
        let mut key = [0u8; 64];
        key[..TokenSecret::LEN].copy_from_slice(self.secret.as_bytes());
        let mut mac = <HmacSha256 as KeyInit>::new(&key.into());
        mac.update(body);
        mac.update(&digest.0);
        mac
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digest::FilterDigest;
    use proptest::prelude::*;

    fn tokens(seed: u8) -> SealedPageTokens {
        SealedPageTokens::new(TokenSecret::from_bytes([seed; 32]))
    }

    fn digest(filter: &str) -> Digest {
        FilterDigest::new("test.list")
            .field("filter", filter)
            .finish()
    }

    #[test]
    fn round_trip_with_and_without_expiry() {
        let t = tokens(7);
        let d = digest("a");
        let tok = t.encode(&d, b"position", None);
        assert_eq!(t.decode(&tok, &d, u64::MAX).unwrap(), b"position");
        let tok = t.encode(&d, b"", Some(100));
        assert_eq!(t.decode(&tok, &d, 99).unwrap(), b"");
    }

    #[test]
    fn tokens_are_url_safe_and_unpadded() {
        let t = tokens(1);
        for len in 0..64 {
            let tok = t.encode(&digest("a"), &vec![0xff; len], Some(u64::MAX));
            assert!(
                tok.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{tok}"
            );
        }
    }

    #[test]
    fn expiry_is_enforced_at_the_instant() {
        let t = tokens(7);
        let d = digest("a");
        let tok = t.encode(&d, b"p", Some(1_000));
        assert!(t.decode(&tok, &d, 999).is_ok());
        assert_eq!(
            t.decode(&tok, &d, 1_000),
            Err(TokenError::Expired { expired_at: 1_000 })
        );
        assert!(matches!(
            t.decode(&tok, &d, 5_000),
            Err(TokenError::Expired { .. })
        ));
    }

    #[test]
    fn other_filters_and_other_secrets_give_the_same_error() {
        let d = digest("a");
        let tok = tokens(7).encode(&d, b"p", None);
        assert_eq!(
            tokens(7).decode(&tok, &digest("b"), 0),
            Err(TokenError::Invalid)
        );
        assert_eq!(tokens(8).decode(&tok, &d, 0), Err(TokenError::Invalid));
        assert_eq!(
            TokenError::Invalid.to_string(),
            "pageToken is not valid for this query"
        );
    }

    #[test]
    fn every_bit_flip_and_every_truncation_is_rejected() {
        let t = tokens(3);
        let d = digest("a");
        for expiry in [None, Some(u64::MAX)] {
            let tok = t.encode(&d, b"\x00\x00\x00\x00\x00\x00\x00\x2a some id", expiry);
            let bytes = tok.as_bytes();
            for i in 0..bytes.len() {
                for bit in 0..8 {
                    let mut flipped = bytes.to_vec();
                    flipped[i] ^= 1 << bit;
                    if let Ok(s) = String::from_utf8(flipped) {
                        assert!(t.decode(&s, &d, 0).is_err(), "flip {i}:{bit} accepted: {s}");
                    }
                }
            }
            for cut in 0..tok.len() {
                assert!(
                    t.decode(&tok[..cut], &d, 0).is_err(),
                    "prefix {cut} accepted"
                );
                assert!(
                    t.decode(&tok[cut + 1..], &d, 0).is_err(),
                    "suffix {cut} accepted"
                );
            }
        }
    }

    #[test]
    fn malformed_and_unknown_versions_are_named() {
        let t = tokens(3);
        let d = digest("a");
        assert_eq!(t.decode("", &d, 0), Err(TokenError::Malformed("too short")));
        assert_eq!(
            t.decode("abc+/", &d, 0),
            Err(TokenError::Malformed("not URL-safe base64 without padding"))
        );
        assert_eq!(
            t.decode(&"A".repeat(MAX_TOKEN_LEN + 1), &d, 0),
            Err(TokenError::Malformed("too long"))
        );
        let mut raw = URL_SAFE_NO_PAD.decode(t.encode(&d, b"p", None)).unwrap();
        raw[0] = 2;
        assert_eq!(
            t.decode(&URL_SAFE_NO_PAD.encode(&raw), &d, 0),
            Err(TokenError::UnknownVersion(2))
        );
        // Padding is not accepted, even where it would be correct.
        let tok = t.encode(&d, b"pp", None);
        let padded = format!("{tok}{}", "=".repeat((4 - tok.len() % 4) % 4));
        if padded != tok {
            assert!(t.decode(&padded, &d, 0).is_err());
        }
    }

    #[test]
    fn the_longest_position_fits_and_a_longer_one_is_refused() {
        let t = tokens(3);
        let d = digest("a");
        let max = vec![9u8; MAX_POSITION_LEN];
        let tok = t.encode(&d, &max, Some(u64::MAX));
        assert!(tok.len() <= MAX_TOKEN_LEN);
        assert_eq!(t.decode(&tok, &d, 0).unwrap(), max);
        let over = t.encode(&d, &vec![9u8; MAX_POSITION_LEN + 1], Some(u64::MAX));
        assert_eq!(
            t.decode(&over, &d, 0),
            Err(TokenError::Malformed("too long"))
        );
    }

    proptest! {
        #[test]
        fn round_trip_any(
            seed in any::<u8>(),
            filter in ".{0,20}",
            position in proptest::collection::vec(any::<u8>(), 0..200),
            expiry in proptest::option::of(1u64..),
        ) {
            let t = tokens(seed);
            let d = digest(&filter);
            let tok = t.encode(&d, &position, expiry);
            prop_assert!(tok.len() <= MAX_TOKEN_LEN);
            prop_assert_eq!(t.decode(&tok, &d, expiry.map_or(0, |e| e - 1)).unwrap(), position);
        }

        #[test]
        fn other_digest_or_secret_rejected(
            seed in any::<u8>(),
            other_seed in any::<u8>(),
            a in ".{0,8}",
            b in ".{0,8}",
            position in proptest::collection::vec(any::<u8>(), 0..40),
        ) {
            let tok = tokens(seed).encode(&digest(&a), &position, None);
            if a != b {
                prop_assert_eq!(tokens(seed).decode(&tok, &digest(&b), 0), Err(TokenError::Invalid));
            }
            if seed != other_seed {
                prop_assert_eq!(tokens(other_seed).decode(&tok, &digest(&a), 0), Err(TokenError::Invalid));
            }
        }

        #[test]
        fn arbitrary_strings_never_panic_and_are_rejected(s in ".{0,300}") {
            // A random string is a valid token with probability 2^-128.
            prop_assert!(tokens(1).decode(&s, &digest("a"), 0).is_err());
        }

        #[test]
        fn any_byte_change_in_the_decoded_token_is_rejected(
            position in proptest::collection::vec(any::<u8>(), 0..40),
            index in any::<prop::sample::Index>(),
            xor in 1u8..,
        ) {
            let t = tokens(5);
            let d = digest("a");
            let mut raw = URL_SAFE_NO_PAD.decode(t.encode(&d, &position, Some(1 << 40))).unwrap();
            let i = index.index(raw.len());
            raw[i] ^= xor;
            prop_assert!(t.decode(&URL_SAFE_NO_PAD.encode(&raw), &d, 0).is_err());
        }
    }
}
