//! Value encodings. Values need no ordering, only a compact, exact round trip; users plug their own
//! by implementing [`ValueCodec`]. Provided: raw bytes, fixed-width big-endian integers, ids, and
//! [`Linear`] for anything with an avalanchego linear-codec encoding (chain data stored as the
//! chain's own bytes).

use snowline_types::codec::{self, Decode, Encode};
use snowline_types::{Id, NodeId, ShortId};

use crate::error::DecodeError;

/// A type storable as a table value.
pub trait ValueCodec: Sized {
    /// Appends the encoding of `self` to `out`.
    fn encode_value(&self, out: &mut Vec<u8>);

    /// Decodes a value from exactly `bytes`.
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError>;
}

/// A borrowed form of the stored value `V` that encodes exactly as `V` does, so a batch can store
/// it ([`WriteBatch::put_as`](crate::WriteBatch::put_as)) without first copying its parts into an
/// owned `V`. Every value type is its own such form.
pub trait EncodesAs<V: ValueCodec> {
    /// Appends the encoding `V` would write.
    fn encode_as(&self, out: &mut Vec<u8>);
}

impl<V: ValueCodec> EncodesAs<V> for V {
    fn encode_as(&self, out: &mut Vec<u8>) {
        self.encode_value(out);
    }
}

/// Encodes a value into a fresh buffer.
pub fn encode_value<V: ValueCodec>(value: &V) -> Vec<u8> {
    let mut out = Vec::new();
    value.encode_value(&mut out);
    out
}

/// Raw bytes, stored as they are.
impl ValueCodec for Vec<u8> {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        Ok(bytes.to_vec())
    }
}

/// UTF-8 text, stored as its bytes.
impl ValueCodec for String {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.as_bytes());
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        String::from_utf8(bytes.to_vec()).map_err(|_| DecodeError::InvalidUtf8)
    }
}

/// An empty value: tables used as sets (secondary indexes whose key says everything).
impl ValueCodec for () {
    fn encode_value(&self, _out: &mut Vec<u8>) {}
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        if bytes.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes(bytes.len()))
        }
    }
}

fn exact<const N: usize>(bytes: &[u8]) -> Result<[u8; N], DecodeError> {
    match <[u8; N]>::try_from(bytes) {
        Ok(a) => Ok(a),
        Err(_) if bytes.len() < N => Err(DecodeError::UnexpectedEnd {
            needed: N,
            remaining: bytes.len(),
        }),
        Err(_) => Err(DecodeError::TrailingBytes(bytes.len() - N)),
    }
}

macro_rules! int_value {
    ($($t:ty),*) => {$(
        /// Fixed-width big-endian, as avalanchego's `database.PackUInt64` / `PackUInt32`.
        impl ValueCodec for $t {
            #[inline]
            fn encode_value(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_be_bytes());
            }
            #[inline]
            fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
                exact(bytes).map(<$t>::from_be_bytes)
            }
        }
    )*};
}
int_value!(u8, u16, u32, u64, u128, i64);

impl<const N: usize> ValueCodec for [u8; N] {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(self);
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        exact(bytes)
    }
}

impl ValueCodec for Id {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        exact(bytes).map(Id)
    }
}

impl ValueCodec for ShortId {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        exact(bytes).map(ShortId)
    }
}

impl ValueCodec for NodeId {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0.0);
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        exact(bytes).map(|b| NodeId(ShortId(b)))
    }
}

/// A value stored in the avalanchego linear codec: codec version `0x0000` then the value
/// (`codec.Manager.Marshal(0, v)`), so stored chain objects are the chain's own bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Linear<T>(pub T);

impl<T: Encode + Decode> ValueCodec for Linear<T> {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&codec::marshal(&self.0));
    }
    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        // Values were written by us, so the 256 KiB wire limit does not apply; decoding stays
        // bounded by the length of `bytes`.
        Ok(Linear(codec::unmarshal_with_max(bytes, usize::MAX)?))
    }
}
