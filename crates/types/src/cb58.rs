//! cb58: base58 (Bitcoin alphabet) of the bytes followed by a 4-byte SHA-256 checksum
//! (avalanchego `utils/cb58/cb58.go`).
//!
//! Encoding of inputs up to [`MAX_FAST_LEN`] bytes (every id, short id and key) runs on the stack
//! and writes straight into the caller's string: the number is held in 32-bit limbs and divided by
//! 58⁵ per step, five digits at a time, instead of the byte-by-byte quadratic loop of a generic
//! base58 encoder. Longer inputs fall back to `bs58`. Decoding allocates at most one buffer the
//! size of the input and never panics.

use crate::hashing::checksum;

/// Length of the checksum cb58 appends.
pub const CHECKSUM_LEN: usize = 4;

/// The longest input (payload plus checksum) the allocation-free base58 encoder handles; longer
/// inputs are encoded by `bs58`.
pub const MAX_FAST_LEN: usize = 128;

/// The Bitcoin base58 alphabet.
const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/// 58⁵, the largest power of 58 below 2³²: one division step yields five digits.
const RADIX5: u64 = 58 * 58 * 58 * 58 * 58;
/// Limbs for [`MAX_FAST_LEN`] bytes.
const MAX_LIMBS: usize = MAX_FAST_LEN / 4;
/// Digits for [`MAX_FAST_LEN`] bytes: `ceil(128 · log₅₈ 256) = 175`, a multiple of five.
const MAX_DIGITS: usize = 175;

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
    // 36 bytes → at most 50 characters; 1.37 characters per byte in general.
    let mut out = String::with_capacity((data.len() + CHECKSUM_LEN) * 7 / 5 + 1);
    encode_into(data, &mut out);
    out
}

/// Appends the cb58 encoding of `data` to `out`, without allocating for inputs of up to
/// [`MAX_FAST_LEN`]` - 4` bytes (beyond what `out` needs to grow).
pub fn encode_into(data: &[u8], out: &mut String) {
    let sum = checksum(data);
    let total = data.len() + CHECKSUM_LEN;
    let mut buf = [0u8; MAX_FAST_LEN];
    match buf.get_mut(..total) {
        Some(dst) => {
            let (body, tail) = dst.split_at_mut(data.len());
            body.copy_from_slice(data);
            tail.copy_from_slice(&sum);
            encode_base58_into(dst, out);
        }
        None => {
            let mut long = Vec::with_capacity(total);
            long.extend_from_slice(data);
            long.extend_from_slice(&sum);
            encode_base58_into(&long, out);
        }
    }
}

/// Appends the plain base58 (Bitcoin alphabet, no checksum) of `input` to `out`: one `1` per
/// leading zero byte, then the digits of the remaining big-endian number. Identical to `bs58`.
pub fn encode_base58_into(input: &[u8], out: &mut String) {
    if let Ok(id) = <&[u8; ID_INPUT_LEN]>::try_from(input) {
        return encode_base58_36(id, out);
    }
    let zeros = input.iter().take_while(|b| **b == 0).count();
    let rest = input.get(zeros..).unwrap_or_default();
    let mut digits = [0u8; MAX_DIGITS];
    match base58_digits(rest, &mut digits) {
        Some(first) => {
            let significant = digits.get_mut(first..).unwrap_or_default();
            for d in significant.iter_mut() {
                *d = ALPHABET.get(usize::from(*d)).copied().unwrap_or(b'1');
            }
            out.reserve(zeros + significant.len());
            for _ in 0..zeros {
                out.push('1');
            }
            // Alphabet bytes are ASCII, so this never fails.
            if let Ok(text) = std::str::from_utf8(significant) {
                out.push_str(text);
            }
        }
        None => out.push_str(&bs58::encode(input).into_string()),
    }
}

/// Length of a checksummed 32-byte id, the input of nearly every cb58 string.
const ID_INPUT_LEN: usize = 32 + CHECKSUM_LEN;
/// 16-bit limbs in [`ID_INPUT_LEN`] bytes.
const ID_HALF_WORDS: usize = ID_INPUT_LEN / 2;
/// Base-58⁵ limbs of a number below 2²⁸⁸: `ceil(288 / log₂ 58⁵) = 10`.
const ID_RADIX_LIMBS: usize = 10;
/// `ID_TABLE[i]` is `2^(16·(17−i))` in base 58⁵, most significant limb first: the weight of
/// the `i`-th big-endian 16-bit word of a 36-byte input.
const ID_TABLE: [[u64; ID_RADIX_LIMBS]; ID_HALF_WORDS] = id_table();

/// Builds [`ID_TABLE`] at compile time by repeated multiplication by 2¹⁶.
const fn id_table() -> [[u64; ID_RADIX_LIMBS]; ID_HALF_WORDS] {
    let mut table = [[0u64; ID_RADIX_LIMBS]; ID_HALF_WORDS];
    let mut cur = [0u64; ID_RADIX_LIMBS];
    cur[ID_RADIX_LIMBS - 1] = 1;
    let mut i = ID_HALF_WORDS;
    while i > 0 {
        i -= 1;
        table[i] = cur;
        let mut carry = 0u64;
        let mut j = ID_RADIX_LIMBS;
        while j > 0 {
            j -= 1;
            let v = cur[j] * 65_536 + carry;
            cur[j] = v % RADIX5;
            carry = v / RADIX5;
        }
    }
    table
}

/// Base58 of exactly 36 bytes without a division chain: each 16-bit word times its weight in
/// base 58⁵ is summed per limb (independent multiply-adds; every sum stays below
/// 18 · 2¹⁶ · 58⁵ < 2⁵⁰), then one carry pass normalizes the limbs and each limb gives five digits.
fn encode_base58_36(input: &[u8; ID_INPUT_LEN], out: &mut String) {
    let mut acc = [0u64; ID_RADIX_LIMBS];
    for (word, weight) in input.chunks_exact(2).zip(ID_TABLE.iter()) {
        let w = word.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b));
        for (a, t) in acc.iter_mut().zip(weight) {
            *a += w * t;
        }
    }
    let mut carry = 0u64;
    for a in acc.iter_mut().rev() {
        let v = *a + carry;
        *a = v % RADIX5;
        carry = v / RADIX5;
    }
    // The input is below 2²⁸⁸ < 58⁵⁰, so nothing is carried out of the top limb.
    let mut digits = [0u8; 5 * ID_RADIX_LIMBS];
    for (chunk, &limb) in digits.chunks_exact_mut(5).zip(&acc) {
        let mut v = limb;
        for d in chunk.iter_mut().rev() {
            *d = ALPHABET.get((v % 58) as usize).copied().unwrap_or(b'1');
            v /= 58;
        }
    }
    let zeros = input.iter().take_while(|b| **b == 0).count();
    let significant = digits.iter().take_while(|d| **d == b'1').count();
    let text = digits.get(significant..).unwrap_or_default();
    out.reserve(zeros + text.len());
    for _ in 0..zeros {
        out.push('1');
    }
    // Alphabet bytes are ASCII, so this never fails.
    if let Ok(text) = std::str::from_utf8(text) {
        out.push_str(text);
    }
}

/// Writes the base58 digit values (0–57) of the big-endian number `bytes` (no leading zero
/// byte) at the end of `digits` and returns where the most significant non-zero digit starts,
/// or `None` if `bytes` is longer than [`MAX_FAST_LEN`].
fn base58_digits(bytes: &[u8], digits: &mut [u8; MAX_DIGITS]) -> Option<usize> {
    if bytes.len() > MAX_FAST_LEN {
        return None;
    }
    // Big-endian 32-bit limbs, filled from the end; the first limb takes the `len % 4` leading
    // bytes.
    let mut limbs = [0u32; MAX_LIMBS];
    let limbs = limbs.get_mut(..bytes.len().div_ceil(4))?;
    for (limb, chunk) in limbs.iter_mut().rev().zip(bytes.rchunks(4)) {
        *limb = chunk.iter().fold(0, |acc, &b| (acc << 8) | u32::from(b));
    }
    let mut start = 0; // first non-zero limb
    let mut written = 0; // digits produced, at the end of `digits`
    for chunk in digits.rchunks_exact_mut(5) {
        while limbs.get(start) == Some(&0) {
            start += 1;
        }
        let Some(live) = limbs.get_mut(start..).filter(|l| !l.is_empty()) else {
            break;
        };
        let mut rem = 0u64;
        for limb in live {
            let cur = (rem << 32) | u64::from(*limb);
            // cur < RADIX5 · 2³², so the quotient fits in 32 bits.
            *limb = (cur / RADIX5) as u32;
            rem = cur % RADIX5;
        }
        for d in chunk.iter_mut().rev() {
            *d = (rem % 58) as u8;
            rem /= 58;
        }
        written += 5;
    }
    if limbs.iter().any(|&l| l != 0) {
        // Unreachable: MAX_DIGITS holds any MAX_FAST_LEN-byte number.
        return None;
    }
    let begin = MAX_DIGITS - written;
    let leading = digits
        .get(begin..)
        .unwrap_or_default()
        .iter()
        .take_while(|d| **d == 0)
        .count();
    Some(begin + leading)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn fast(input: &[u8]) -> String {
        let mut s = String::new();
        encode_base58_into(input, &mut s);
        s
    }

    #[test]
    fn base58_edge_cases_match_bs58() {
        let max = [0xffu8; MAX_FAST_LEN];
        let long = [0xabu8; MAX_FAST_LEN + 7];
        let cases: [&[u8]; 9] = [
            &[],
            &[0],
            &[0, 0, 0],
            &[57],
            &[58],
            &[0, 0, 1, 0],
            &[0xff; 36],
            &max,
            &long,
        ];
        for c in cases {
            assert_eq!(fast(c), bs58::encode(c).into_string(), "input {c:?}");
        }
    }

    #[test]
    fn base58_appends() {
        let mut s = String::from("x");
        encode_base58_into(&[0, 58], &mut s);
        assert_eq!(s, "x121");
    }

    #[test]
    fn cb58_vectors_through_the_fast_encoder() {
        // vector: avalanchego utils/cb58/cb58_test.go TestEncodeDecode
        let one_to_32: Vec<u8> = (1..=32).collect();
        let cases: [(&[u8], &str); 4] = [
            (&[], "45PJLL"),
            (&[0], "1c7hwa"),
            (&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255], "1NVSVezva3bAtJesnUj"),
            (
                &one_to_32,
                "SkB92YpWm4Q2ijQHH34cqbKkCZWszsiQgHVjtNeFF2HdvDQU",
            ),
        ];
        for (bytes, text) in cases {
            assert_eq!(encode(bytes), text);
            let mut appended = String::from("id:");
            encode_into(bytes, &mut appended);
            assert_eq!(appended, format!("id:{text}"));
        }
        // vector: avalanchego ids/id_test.go TestIDString (the empty id).
        assert_eq!(encode(&[0u8; 32]), "11111111111111111111111111111111LpoYY");
    }

    #[test]
    fn base58_of_36_bytes_matches_bs58_at_the_edges() {
        let mut cases = vec![[0u8; 36], [0xff; 36]];
        for k in 0..36 {
            let mut one_bit = [0u8; 36];
            one_bit[k] = 1;
            cases.push(one_bit);
            let mut tail = [0xffu8; 36];
            tail[..k].fill(0);
            cases.push(tail);
        }
        for c in cases {
            assert_eq!(fast(&c), bs58::encode(c).into_string(), "input {c:?}");
        }
    }

    proptest! {
        #[test]
        fn base58_of_36_bytes_matches_bs58(zeros in 0usize..36, bytes in any::<[u8; 36]>()) {
            let mut input = bytes;
            input[..zeros].fill(0);
            prop_assert_eq!(fast(&input), bs58::encode(input).into_string());
        }

        #[test]
        fn base58_matches_bs58(zeros in 0usize..4, body in proptest::collection::vec(any::<u8>(), 0..160)) {
            let mut input = vec![0u8; zeros];
            input.extend_from_slice(&body);
            prop_assert_eq!(fast(&input), bs58::encode(&input).into_string());
        }

        #[test]
        fn cb58_matches_bs58_with_checksum(body in proptest::collection::vec(any::<u8>(), 0..140)) {
            let mut raw = body.clone();
            raw.extend_from_slice(&checksum(&body));
            prop_assert_eq!(encode(&body), bs58::encode(&raw).into_string());
        }
    }
}
