//! The avalanchego linear codec (`codec/linearcodec`, `codec/reflectcodec`, `utils/wrappers/packing.go`):
//! a `u16` version, then big-endian fixed-width integers, `u32`-counted slices, `u16`-length strings
//! and `u32` type ids in front of interface values.
//!
//! Decoding is bounded: every count is checked against the bytes that remain before anything is
//! allocated, so hostile input costs at most its own length in memory, and never panics.

mod reader;
mod typed_enum;
mod writer;

pub use reader::Reader;
pub(crate) use typed_enum::typed_enum;
pub use writer::Writer;

/// The only codec version the X- and P-Chain know.
pub const CODEC_VERSION: u16 = 0;

/// The default maximum size of a marshalled object: 256 KiB (avalanchego `codec.defaultMaxSize`).
pub const DEFAULT_MAX_SIZE: usize = 256 * 1024;

/// Why bytes could not be decoded (or a value could not be encoded).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodecError {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: needed {needed} bytes at offset {offset}")]
    UnexpectedEof {
        /// Bytes the next value needed.
        needed: usize,
        /// Where it started.
        offset: usize,
    },
    /// Bytes were left after the top-level value.
    #[error("trailing buffer space: {0} bytes left over")]
    TrailingBytes(usize),
    /// A codec version other than the one this format knows.
    #[error("unknown codec version {0}")]
    UnknownVersion(u16),
    /// A type id not registered for this position.
    #[error("unknown type id {type_id} for {context}")]
    UnknownTypeId {
        /// The id read.
        type_id: u32,
        /// What was being decoded.
        context: &'static str,
    },
    /// A bool byte other than 0 or 1.
    #[error("invalid bool byte {0}")]
    InvalidBool(u8),
    /// A string that is not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A count larger than the remaining input could possibly hold.
    #[error("count {count} of {what} exceeds what the remaining {remaining} bytes can hold")]
    CountTooLarge {
        /// The count read.
        count: u64,
        /// What was counted.
        what: &'static str,
        /// Bytes remaining in the input.
        remaining: usize,
    },
    /// The whole input is larger than allowed.
    #[error("input of {len} bytes exceeds the maximum size {max}")]
    TooLarge {
        /// Its size.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A value too long for its length prefix when encoding.
    #[error("{what} is too long to encode: {len}")]
    TooLong {
        /// What was too long.
        what: &'static str,
        /// Its length.
        len: usize,
    },
}

/// A value with a linear-codec encoding (without the leading codec version).
pub trait Decode: Sized {
    /// Reads one value from `r`.
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError>;
}

/// A value that writes its linear-codec encoding (without the leading codec version).
pub trait Encode {
    /// Appends the encoding of `self` to `w`.
    fn encode(&self, w: &mut Writer);
}

/// The buffer [`marshal`] and [`encode_to_vec`] start with: a typical tx in one allocation
/// rather than a chain of doublings from 8 bytes.
const INITIAL_CAPACITY: usize = 256;

/// Decodes a top-level object: codec version 0, the value, and nothing after it; at most `max` bytes.
pub fn unmarshal_with_max<T: Decode>(bytes: &[u8], max: usize) -> Result<T, CodecError> {
    if bytes.len() > max {
        return Err(CodecError::TooLarge {
            len: bytes.len(),
            max,
        });
    }
    let mut r = Reader::new(bytes);
    let version = r.u16()?;
    if version != CODEC_VERSION {
        return Err(CodecError::UnknownVersion(version));
    }
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// The id of an object whose version-less encoding is `body`: `sha256(u16 version 0 ‖ body)`,
/// without copying. This is how a tx nested in a block (stored without its version) gets its id.
pub fn versioned_id(body: &[u8]) -> crate::Id {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(CODEC_VERSION.to_be_bytes());
    h.update(body);
    crate::Id(h.finalize().into())
}

/// [`unmarshal_with_max`] with the default 256 KiB limit.
pub fn unmarshal<T: Decode>(bytes: &[u8]) -> Result<T, CodecError> {
    unmarshal_with_max(bytes, DEFAULT_MAX_SIZE)
}

/// Encodes a value without the codec version: the bytes of a value nested in a bigger object.
pub fn encode_to_vec<T: Encode + ?Sized>(value: &T) -> Vec<u8> {
    let mut w = Writer::with_capacity(INITIAL_CAPACITY);
    value.encode(&mut w);
    w.into_bytes()
}

/// Encodes a top-level object: codec version 0 then the value.
pub fn marshal<T: Encode + ?Sized>(value: &T) -> Vec<u8> {
    let mut w = Writer::with_capacity(INITIAL_CAPACITY);
    w.u16(CODEC_VERSION);
    value.encode(&mut w);
    w.into_bytes()
}

macro_rules! int_codec {
    ($($t:ty => $read:ident),*) => {$(
        impl Decode for $t {
            #[inline]
            fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
                r.$read()
            }
        }
        impl Encode for $t {
            #[inline]
            fn encode(&self, w: &mut Writer) {
                w.$read(*self)
            }
        }
    )*};
}
int_codec!(u8 => u8, u16 => u16, u32 => u32, u64 => u64, bool => bool);

impl<const N: usize> Decode for [u8; N] {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        r.array()
    }
}
impl<const N: usize> Encode for [u8; N] {
    #[inline]
    fn encode(&self, w: &mut Writer) {
        w.raw(self)
    }
}

impl Decode for crate::Id {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        r.array().map(crate::Id)
    }
}
impl Encode for crate::Id {
    #[inline]
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.0)
    }
}
impl Decode for crate::ShortId {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        r.array().map(crate::ShortId)
    }
}
impl Encode for crate::ShortId {
    #[inline]
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.0)
    }
}
impl Decode for crate::NodeId {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        r.array().map(|b| crate::NodeId(crate::ShortId(b)))
    }
}
impl Encode for crate::NodeId {
    #[inline]
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.0.0)
    }
}

/// Slices are a `u32` count then the elements; `MIN_SIZE` bounds the count by the input left.
impl<T: Decode + MinSize> Decode for Vec<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let n = r.count(T::MIN_SIZE, std::any::type_name::<T>())?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(T::decode(r)?);
        }
        Ok(out)
    }
}
impl<T: Encode> Encode for Vec<T> {
    fn encode(&self, w: &mut Writer) {
        w.len_u32(self.len());
        for item in self {
            item.encode(w);
        }
    }
}

/// The fewest bytes a value of this type encodes to; bounds slice counts before allocation.
pub trait MinSize {
    /// Minimum encoded size in bytes (at least 1 for anything but zero-sized values).
    const MIN_SIZE: usize;
}

macro_rules! min_size {
    ($($t:ty = $n:expr),*) => {$( impl MinSize for $t { const MIN_SIZE: usize = $n; } )*};
}
min_size!(
    u8 = 1,
    u16 = 2,
    u32 = 4,
    u64 = 8,
    bool = 1,
    crate::Id = 32,
    crate::ShortId = 20,
    crate::NodeId = 20
);
impl<const N: usize> MinSize for [u8; N] {
    const MIN_SIZE: usize = N;
}

#[cfg(test)]
mod tests;
