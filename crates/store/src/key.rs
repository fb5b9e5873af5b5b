//! Order-preserving key encodings.
//!
//! A [`KeyCodec`] writes a value so that comparing the bytes (as RocksDB does) gives the same order
//! as comparing the values, and so that no encoding is a proper prefix of another of the same type
//! (prefix-free). Prefix-freedom is what makes a tuple's encoding simply its parts concatenated:
//! the first differing part decides the byte order, exactly as it decides the tuple order.
//!
//! - unsigned integers: fixed-width big-endian (as avalanchego's `database.PackUInt64`);
//! - signed integers: big-endian with the sign bit flipped, so negatives sort first;
//! - ids and byte arrays: their raw bytes (fixed width);
//! - variable byte strings and strings: each `0x00` escaped as `0x00 0xFF`, then a `0x00 0x01`
//!   terminator, which keeps both order and prefix-freedom;
//! - [`Desc`]: any key component with its bytes complemented, for descending parts of a key.

use snowline_types::{Id, NodeId, ShortId};

use crate::error::DecodeError;

/// A type usable as (part of) a table key; see the module docs for the rules an impl must keep.
pub trait KeyCodec: Sized {
    /// Appends the order-preserving, prefix-free encoding of `self` to `out`.
    fn encode_key(&self, out: &mut Vec<u8>);

    /// Reads one value from the front of `input` and advances it past what was read.
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError>;
}

/// Encodes a whole key.
pub fn encode_key<K: KeyCodec>(key: &K) -> Vec<u8> {
    let mut out = Vec::with_capacity(48);
    key.encode_key(&mut out);
    out
}

/// Decodes a whole key; bytes left over are an error.
pub fn decode_key<K: KeyCodec>(mut bytes: &[u8]) -> Result<K, DecodeError> {
    let key = K::decode_key(&mut bytes)?;
    if bytes.is_empty() {
        Ok(key)
    } else {
        Err(DecodeError::TrailingBytes(bytes.len()))
    }
}

/// Marks `P` as a leading part of the key type `Self`: the encoding of a `P` is a byte prefix of
/// the encoding of every key that starts with it. Used by prefix scans.
pub trait KeyPrefix<P: KeyCodec>: KeyCodec {}

impl<K: KeyCodec> KeyPrefix<K> for K {}

/// Splits `n` bytes off the front of `input`.
#[inline]
pub(crate) fn take<'a>(input: &mut &'a [u8], n: usize) -> Result<&'a [u8], DecodeError> {
    match input.split_at_checked(n) {
        Some((head, tail)) => {
            *input = tail;
            Ok(head)
        }
        None => Err(DecodeError::UnexpectedEnd {
            needed: n,
            remaining: input.len(),
        }),
    }
}

#[inline]
fn take_array<const N: usize>(input: &mut &[u8]) -> Result<[u8; N], DecodeError> {
    let head = take(input, N)?;
    <[u8; N]>::try_from(head).map_err(|_| DecodeError::UnexpectedEnd {
        needed: N,
        remaining: head.len(),
    })
}

macro_rules! unsigned_key {
    ($($t:ty),*) => {$(
        impl KeyCodec for $t {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_be_bytes());
            }
            #[inline]
            fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
                take_array(input).map(<$t>::from_be_bytes)
            }
        }
    )*};
}
unsigned_key!(u8, u16, u32, u64, u128);

macro_rules! signed_key {
    ($($t:ty => $u:ty),*) => {$(
        impl KeyCodec for $t {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                let flipped = (*self as $u) ^ (1 << (<$u>::BITS - 1));
                out.extend_from_slice(&flipped.to_be_bytes());
            }
            #[inline]
            fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
                let raw = <$u>::from_be_bytes(take_array(input)?);
                Ok((raw ^ (1 << (<$u>::BITS - 1))) as $t)
            }
        }
    )*};
}
signed_key!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128);

impl KeyCodec for bool {
    #[inline]
    fn encode_key(&self, out: &mut Vec<u8>) {
        out.push(u8::from(*self));
    }
    #[inline]
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        match take_array::<1>(input)? {
            [0] => Ok(false),
            [1] => Ok(true),
            [b] => Err(DecodeError::InvalidBool(b)),
        }
    }
}

impl<const N: usize> KeyCodec for [u8; N] {
    #[inline]
    fn encode_key(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    #[inline]
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        take_array(input)
    }
}

macro_rules! id_key {
    ($($t:ty => $wrap:expr),*) => {$(
        impl KeyCodec for $t {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(self.as_ref());
            }
            #[inline]
            fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
                take_array(input).map($wrap)
            }
        }
    )*};
}
id_key!(Id => Id, ShortId => ShortId);

impl KeyCodec for NodeId {
    #[inline]
    fn encode_key(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.as_ref());
    }
    #[inline]
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        take_array(input).map(|b| NodeId(ShortId(b)))
    }
}

/// The empty key: a table with a single entry (a cursor, a singleton setting).
impl KeyCodec for () {
    #[inline]
    fn encode_key(&self, _out: &mut Vec<u8>) {}
    #[inline]
    fn decode_key(_input: &mut &[u8]) -> Result<Self, DecodeError> {
        Ok(())
    }
}

/// Appends `bytes` escaped (`00` -> `00 FF`) and terminated (`00 01`).
pub(crate) fn encode_escaped(bytes: &[u8], out: &mut Vec<u8>) {
    out.reserve(bytes.len() + 2);
    for &b in bytes {
        out.push(b);
        if b == 0 {
            out.push(0xFF);
        }
    }
    out.extend_from_slice(&[0x00, 0x01]);
}

/// Reads an escaped, terminated byte string from the front of `input`.
pub(crate) fn decode_escaped(input: &mut &[u8]) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    let mut rest = *input;
    loop {
        let zero = rest
            .iter()
            .position(|&b| b == 0)
            .ok_or(DecodeError::BadEscape)?;
        let (chunk, tail) = rest.split_at(zero);
        out.extend_from_slice(chunk);
        match tail {
            [0x00, 0xFF, more @ ..] => {
                out.push(0);
                rest = more;
            }
            [0x00, 0x01, more @ ..] => {
                *input = more;
                return Ok(out);
            }
            _ => return Err(DecodeError::BadEscape),
        }
    }
}

/// Variable-length byte strings, escaped so they stay ordered and prefix-free.
impl KeyCodec for Vec<u8> {
    fn encode_key(&self, out: &mut Vec<u8>) {
        encode_escaped(self, out);
    }
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        decode_escaped(input)
    }
}

/// Strings order by their UTF-8 bytes (which is code-point order), escaped like byte strings.
impl KeyCodec for String {
    fn encode_key(&self, out: &mut Vec<u8>) {
        encode_escaped(self.as_bytes(), out);
    }
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        String::from_utf8(decode_escaped(input)?).map_err(|_| DecodeError::InvalidUtf8)
    }
}

/// A key component in descending order: its encoding with every byte complemented. Because the
/// inner encoding is prefix-free, complementing exactly reverses the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Desc<T>(pub T);

impl<T: Ord> PartialOrd for Desc<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Ord> Ord for Desc<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.cmp(&self.0)
    }
}

impl<T: KeyCodec> KeyCodec for Desc<T> {
    fn encode_key(&self, out: &mut Vec<u8>) {
        let start = out.len();
        self.0.encode_key(out);
        if let Some(tail) = out.get_mut(start..) {
            for b in tail {
                *b = !*b;
            }
        }
    }
    fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
        // The inner length is only known by decoding, so decode a complemented copy and advance
        // the input by what was consumed.
        let plain: Vec<u8> = input.iter().map(|b| !b).collect();
        let mut cursor = plain.as_slice();
        let value = T::decode_key(&mut cursor)?;
        let used = plain.len() - cursor.len();
        take(input, used)?;
        Ok(Desc(value))
    }
}

macro_rules! tuple_key {
    ($($name:ident),+) => {
        #[allow(non_snake_case)]
        impl<$($name: KeyCodec),+> KeyCodec for ($($name,)+) {
            #[inline]
            fn encode_key(&self, out: &mut Vec<u8>) {
                let ($($name,)+) = self;
                $($name.encode_key(out);)+
            }
            #[inline]
            fn decode_key(input: &mut &[u8]) -> Result<Self, DecodeError> {
                Ok(($($name::decode_key(input)?,)+))
            }
        }
    };
}
tuple_key!(A);
tuple_key!(A, B);
tuple_key!(A, B, C);
tuple_key!(A, B, C, D);
tuple_key!(A, B, C, D, E);
tuple_key!(A, B, C, D, E, F);

macro_rules! tuple_prefix {
    ($all:tt => $($p:tt)+) => {$( tuple_prefix!(@one $all $p); )+};
    (@one [$($all:ident),+] [$($p:ident),+]) => {
        impl<$($all: KeyCodec),+> KeyPrefix<($($p,)+)> for ($($all,)+) {}
    };
}
tuple_prefix!([A, B] => [A]);
tuple_prefix!([A, B, C] => [A] [A, B]);
tuple_prefix!([A, B, C, D] => [A] [A, B] [A, B, C]);
tuple_prefix!([A, B, C, D, E] => [A] [A, B] [A, B, C] [A, B, C, D]);
tuple_prefix!([A, B, C, D, E, F] => [A] [A, B] [A, B, C] [A, B, C, D] [A, B, C, D, E]);

/// The leading component alone (not wrapped in a 1-tuple) is also a prefix.
macro_rules! bare_prefix {
    ($([$($all:ident),+])+) => {$(
        impl<$($all: KeyCodec),+> KeyPrefix<A> for ($($all,)+) {}
    )+};
}
bare_prefix!([A, B] [A, B, C] [A, B, C, D] [A, B, C, D, E] [A, B, C, D, E, F]);

/// The smallest byte string greater than every string starting with `prefix`, or `None` when no
/// such string exists (empty or all `0xFF`).
pub(crate) fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut out = prefix.to_vec();
    while let Some(last) = out.pop() {
        if last != 0xFF {
            out.push(last + 1);
            return Some(out);
        }
    }
    None
}
