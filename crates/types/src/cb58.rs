//! cb58: base58 (Bitcoin alphabet) of the bytes followed by a 4-byte SHA-256 checksum
//! (avalanchego `utils/cb58/cb58.go`).

use crate::hashing::checksum;

/// Why a cb58 string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cb58Error {
    /// A character outside the base58 alphabet.
    #[error("invalid base58 string")]
    InvalidBase58,
    /// Fewer than four bytes after base58 decoding.
    #[error("input string is smaller than the checksum size")]
    MissingChecksum,
    /// The checksum does not match the payload.
    #[error("invalid input checksum")]
    BadChecksum,
}

/// Encodes `data` as cb58.
pub fn encode(data: &[u8]) -> String {
    let mut buf = Vec::with_capacity(data.len() + 4);
    buf.extend_from_slice(data);
    buf.extend_from_slice(&checksum(data));
    bs58::encode(buf).into_string()
}

/// Decodes a cb58 string, verifying its checksum.
pub fn decode(s: &str) -> Result<Vec<u8>, Cb58Error> {
    let raw = bs58::decode(s)
        .into_vec()
        .map_err(|_| Cb58Error::InvalidBase58)?;
    if raw.len() < 4 {
        return Err(Cb58Error::MissingChecksum);
    }
    let (data, sum) = raw.split_at(raw.len() - 4);
    if checksum(data) != sum {
        return Err(Cb58Error::BadChecksum);
    }
    Ok(data.to_vec())
}
