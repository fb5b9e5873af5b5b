//! The API byte encodings of avalanchego (`utils/formatting/encoding.go`): `hex` is `0x` + lower-case
//! hex of the bytes and their 4-byte checksum; `hexnc` is plain `0x` hex with no checksum.
//!
//! Decoding follows avalanchego exactly, including two quirks: the empty string decodes to no
//! bytes (avalanchego's `Decode` returns `nil, nil` for it), and upper-case digits are accepted.
//! Errors report the first bad byte before an odd length, as Go's `encoding/hex` does.

use std::fmt;

use crate::hashing::checksum;

/// Length of the checksum the `hex` encoding appends.
pub const CHECKSUM_LEN: usize = 4;

/// Why an API hex string was rejected; messages are avalanchego's (and Go `encoding/hex`'s).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexError {
    /// The string does not start with `0x`.
    #[error("missing 0x prefix to hex encoding")]
    MissingPrefix,
    /// A byte that is not a hexadecimal digit.
    #[error("encoding/hex: invalid byte: {}", GoRune(*.0))]
    InvalidByte(u8),
    /// An odd number of hex digits.
    #[error("encoding/hex: odd length hex string")]
    OddLength,
    /// Fewer than four bytes, so there is no checksum.
    #[error("input string is smaller than the checksum size")]
    MissingChecksum,
    /// The checksum does not match the payload.
    #[error("invalid input checksum")]
    BadChecksum,
}

/// Encodes `data` in the API `hex` encoding: `0x` + hex(data ‖ checksum).
pub fn encode_hex_checksum(data: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * (data.len() + CHECKSUM_LEN));
    out.push_str("0x");
    push_hex(&mut out, data);
    push_hex(&mut out, &checksum(data));
    out
}

/// Decodes the API `hex` encoding, requiring the `0x` prefix and verifying the checksum.
/// The empty string decodes to no bytes, as in avalanchego.
pub fn decode_hex_checksum(s: &str) -> Result<Vec<u8>, HexError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let mut raw = decode_hex_plain(s)?;
    let Some(body_len) = raw.len().checked_sub(CHECKSUM_LEN) else {
        return Err(HexError::MissingChecksum);
    };
    let (data, sum) = raw.split_at(body_len);
    if checksum(data) != sum {
        return Err(HexError::BadChecksum);
    }
    raw.truncate(body_len);
    Ok(raw)
}

/// Encodes `data` as `0x` + lower-case hex, no checksum (signatures, memos, payloads in JSON).
pub fn encode_hex_plain(data: &[u8]) -> String {
    let mut out = String::with_capacity(2 + 2 * data.len());
    out.push_str("0x");
    push_hex(&mut out, data);
    out
}

/// Decodes `0x` + hex with no checksum (`hexnc`). The empty string decodes to no bytes.
pub fn decode_hex_plain(s: &str) -> Result<Vec<u8>, HexError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let digits = s.strip_prefix("0x").ok_or(HexError::MissingPrefix)?;
    decode_digits(digits.as_bytes())
}

/// Lower-case hex of `data` with no prefix (avalanchego `ids.ID.Hex`).
pub fn encode_hex_bare(data: &[u8]) -> String {
    let mut out = String::with_capacity(2 * data.len());
    push_hex(&mut out, data);
    out
}

fn push_hex(out: &mut String, data: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in data {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
}

fn nibble(c: u8) -> Result<u8, HexError> {
    match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(HexError::InvalidByte(c)),
    }
}

/// Go `encoding/hex.Decode`: pairs first, then a lone trailing digit is checked before the length.
fn decode_digits(digits: &[u8]) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::with_capacity(digits.len() / 2);
    let mut pairs = digits.chunks_exact(2);
    for pair in &mut pairs {
        if let [hi, lo] = *pair {
            out.push((nibble(hi)? << 4) | nibble(lo)?);
        }
    }
    if let [last] = *pairs.remainder() {
        nibble(last)?;
        return Err(HexError::OddLength);
    }
    Ok(out)
}

/// Formats a byte the way Go's `%#U` formats `rune(b)`: `U+0067 'g'`, or just `U+0000` when the
/// character is not printable.
struct GoRune(u8);

impl fmt::Display for GoRune {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        write!(f, "U+{b:04X}")?;
        let printable = (0x20..=0x7e).contains(&b) || (b >= 0xa1 && b != 0xad);
        if printable {
            write!(f, " '{}'", char::from(b))?;
        }
        Ok(())
    }
}
