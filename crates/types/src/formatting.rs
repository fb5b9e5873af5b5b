//! The API byte encodings of avalanchego (`utils/formatting/encoding.go`): `hex` is `0x` + lower-case
//! hex of the bytes and their 4-byte checksum; `hexnc` is plain `0x` hex with no checksum.

use crate::hashing::checksum;

/// Why an API hex string was rejected; messages are avalanchego's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// The string does not start with `0x`.
    #[error("missing 0x prefix to hex encoding")]
    MissingPrefix,
    /// Not valid hexadecimal.
    #[error("invalid hex encoding")]
    InvalidHex,
    /// Fewer than four bytes, so there is no checksum.
    #[error("input string is smaller than the checksum size")]
    MissingChecksum,
    /// The checksum does not match the payload.
    #[error("invalid input checksum")]
    BadChecksum,
}

/// Encodes `data` in the API `hex` encoding: `0x` + hex(data ‖ checksum).
pub fn encode_hex_checksum(data: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * (data.len() + 4));
    out.push_str("0x");
    push_hex(&mut out, data);
    push_hex(&mut out, &checksum(data));
    out
}

/// Decodes the API `hex` encoding, requiring the `0x` prefix and verifying the checksum.
pub fn decode_hex_checksum(s: &str) -> Result<Vec<u8>, HexError> {
    let raw = decode_hex_plain(s)?;
    if raw.len() < 4 {
        return Err(HexError::MissingChecksum);
    }
    let (data, sum) = raw.split_at(raw.len() - 4);
    if checksum(data) != sum {
        return Err(HexError::BadChecksum);
    }
    Ok(data.to_vec())
}

/// Encodes `data` as `0x` + lower-case hex, no checksum (signatures, memos, payloads in JSON).
pub fn encode_hex_plain(data: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * data.len());
    out.push_str("0x");
    push_hex(&mut out, data);
    out
}

/// Decodes `0x` + hex with no checksum.
pub fn decode_hex_plain(s: &str) -> Result<Vec<u8>, HexError> {
    let digits = s.strip_prefix("0x").ok_or(HexError::MissingPrefix)?;
    hex::decode(digits).map_err(|_| HexError::InvalidHex)
}

fn push_hex(out: &mut String, data: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in data {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 0xf) as usize] as char);
    }
}
