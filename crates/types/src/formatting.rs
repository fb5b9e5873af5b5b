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
    prefixed_hex(&[data, &checksum(data)])
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
    prefixed_hex(&[data])
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

/// [`encode_hex_checksum`] appended to `out`: for writers of large JSON answers, which then
/// need no intermediate string per value.
pub fn push_hex_checksum(out: &mut Vec<u8>, data: &[u8]) {
    push_prefixed_hex(out, &[data, &checksum(data)]);
}

/// [`encode_hex_plain`] appended to `out`.
pub fn push_hex_plain(out: &mut Vec<u8>, data: &[u8]) {
    push_prefixed_hex(out, &[data]);
}

/// `0x` + the lower-case hex of `parts` one after the other. SIMD (`faster-hex`): containers
/// of the index API are megabytes of hex, and a page holds up to 1,024 of them.
fn prefixed_hex(parts: &[&[u8]]) -> String {
    let mut buf = Vec::new();
    push_prefixed_hex(&mut buf, parts);
    // Hex digits are ASCII, so this always succeeds; the fallback keeps the function total.
    String::from_utf8(buf).unwrap_or_else(|_| slow_prefixed_hex(parts))
}

/// [`prefixed_hex`] appended to `out`.
fn push_prefixed_hex(out: &mut Vec<u8>, parts: &[&[u8]]) {
    let start = out.len();
    let len = 2 + 2 * parts.iter().map(|p| p.len()).sum::<usize>();
    out.resize(start + len, 0);
    let mut at = start + 2;
    out[start..at].copy_from_slice(b"0x");
    for part in parts {
        let end = at + 2 * part.len();
        // Fails only for a destination of the wrong size, which `len` rules out.
        if faster_hex::hex_encode(part, &mut out[at..end]).is_err() {
            out.truncate(start);
            out.extend_from_slice(slow_prefixed_hex(parts).as_bytes());
            return;
        }
        at = end;
    }
}

fn slow_prefixed_hex(parts: &[&[u8]]) -> String {
    let mut out = String::from("0x");
    for part in parts {
        push_hex(&mut out, part);
    }
    out
}

fn push_hex(out: &mut String, data: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    for &b in data {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
}

/// Each byte's value as a hex digit, or `INVALID`.
const HEX_VALUE: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};
/// Marks a byte that is not a hex digit in [`HEX_VALUE`].
const INVALID: u8 = 0xff;

fn nibble(c: u8) -> Result<u8, HexError> {
    match HEX_VALUE[usize::from(c)] {
        INVALID => Err(HexError::InvalidByte(c)),
        v => Ok(v),
    }
}

/// Go `encoding/hex.Decode`: pairs first, then a lone trailing digit is checked before the length.
/// Valid input (all of an import or a follow) takes the SIMD decoder of `faster-hex`; input it
/// rejects is decoded again by the table below, which finds the error Go would report.
fn decode_digits(digits: &[u8]) -> Result<Vec<u8>, HexError> {
    let mut out = vec![0u8; digits.len() / 2];
    if digits.len() % 2 == 0 && faster_hex::hex_decode(digits, &mut out).is_ok() {
        return Ok(out);
    }
    let mut pairs = digits.chunks_exact(2);
    for (byte, pair) in out.iter_mut().zip(&mut pairs) {
        if let [hi, lo] = *pair {
            let (h, l) = (HEX_VALUE[usize::from(hi)], HEX_VALUE[usize::from(lo)]);
            if (h | l) & 0xf0 != 0 {
                // The first bad digit, in order, as Go reports it.
                nibble(hi)?;
                nibble(lo)?;
            }
            *byte = (h << 4) | l;
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The digit-by-digit decoder the table replaced: Go's order of checks, one nibble at a time.
    fn reference(digits: &[u8]) -> Result<Vec<u8>, HexError> {
        let slow = |c: u8| match c {
            b'0'..=b'9' => Ok(c - b'0'),
            b'a'..=b'f' => Ok(c - b'a' + 10),
            b'A'..=b'F' => Ok(c - b'A' + 10),
            _ => Err(HexError::InvalidByte(c)),
        };
        let mut out = Vec::new();
        let mut pairs = digits.chunks_exact(2);
        for pair in &mut pairs {
            out.push((slow(pair[0])? << 4) | slow(pair[1])?);
        }
        if let [last] = *pairs.remainder() {
            slow(last)?;
            return Err(HexError::OddLength);
        }
        Ok(out)
    }

    proptest! {
        /// Same bytes and the same error (first bad digit in order, then odd length) as the
        /// reference, on strings mostly of hex digits with some other bytes.
        #[test]
        fn the_table_decoder_matches_the_reference(
            digits in proptest::collection::vec(
                prop_oneof![8 => proptest::sample::select(b"0123456789abcdefABCDEF".to_vec()),
                            1 => any::<u8>()],
                0..64,
            )
        ) {
            prop_assert_eq!(decode_digits(&digits), reference(&digits));
        }

        /// The SIMD path (long, valid, mixed-case input) and the table fallback for one bad
        /// byte anywhere in it agree with the reference.
        #[test]
        fn the_simd_decoder_matches_the_reference(
            digits in proptest::collection::vec(
                proptest::sample::select(b"0123456789abcdefABCDEF".to_vec()), 0..600),
            bad in proptest::option::of((any::<prop::sample::Index>(), any::<u8>())),
        ) {
            let mut digits = digits;
            if let Some((at, byte)) = bad.filter(|_| !digits.is_empty()) {
                let i = at.index(digits.len());
                digits[i] = byte;
            }
            prop_assert_eq!(decode_digits(&digits), reference(&digits));
        }

        /// The SIMD encoder writes what the byte-wise one does, for one part and for two.
        #[test]
        fn the_simd_encoder_matches_the_byte_wise_one(
            a in proptest::collection::vec(any::<u8>(), 0..300),
            b in proptest::collection::vec(any::<u8>(), 0..8),
        ) {
            prop_assert_eq!(prefixed_hex(&[&a]), slow_prefixed_hex(&[&a]));
            prop_assert_eq!(prefixed_hex(&[&a, &b]), slow_prefixed_hex(&[&a, &b]));
        }
    }
}
