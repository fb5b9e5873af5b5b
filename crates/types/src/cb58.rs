//! cb58: base58 (Bitcoin alphabet) of the bytes followed by a 4-byte SHA-256 checksum
//! (avalanchego `utils/cb58/cb58.go`).
//!
//! Decoding allocates at most one buffer the size of the input and never panics.

use crate::hashing::checksum;

/// Length of the checksum cb58 appends.
pub const CHECKSUM_LEN: usize = 4;

/// Why a cb58 string was rejected; messages are avalanchego's (`utils/cb58/cb58.go`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cb58Error {
    /// Empty, or a character outside the base58 alphabet (avalanchego `ErrBase58Decoding`; the
    /// base58 library it uses rejects the empty string).
    #[error("base58 decoding error")]
    InvalidBase58,
    /// Fewer than four bytes after base58 decoding (avalanchego `ErrMissingChecksum`).
    #[error("input string is smaller than the checksum size")]
    MissingChecksum,
    /// The checksum does not match the payload (avalanchego `ErrBadChecksum`).
    #[error("invalid input checksum")]
    BadChecksum,
}

/// Encodes `data` as cb58.
pub fn encode(data: &[u8]) -> String {
    let mut buf = Vec::with_capacity(data.len() + CHECKSUM_LEN);
    buf.extend_from_slice(data);
    buf.extend_from_slice(&checksum(data));
    bs58::encode(buf).into_string()
}

/// Decodes a cb58 string, verifying its checksum.
pub fn decode(s: &str) -> Result<Vec<u8>, Cb58Error> {
    if s.is_empty() {
        return Err(Cb58Error::InvalidBase58);
    }
    let mut raw = bs58::decode(s)
        .into_vec()
        .map_err(|_| Cb58Error::InvalidBase58)?;
    let Some(body_len) = raw.len().checked_sub(CHECKSUM_LEN) else {
        return Err(Cb58Error::MissingChecksum);
    };
    let (data, sum) = raw.split_at(body_len);
    if checksum(data) != sum {
        return Err(Cb58Error::BadChecksum);
    }
    raw.truncate(body_len);
    Ok(raw)
}
