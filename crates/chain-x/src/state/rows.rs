//! [`StoredBytes`]: where the bytes of an accepted tx or block are, as the tx and block tables
//! keep them. A tx or block that an indexed container holds is a range of that container, not a
//! second (or, for a tx inside a block, third) copy: the container index already stores every
//! byte once, and writing them again would double what an import writes, flushes and compacts.

use snowline_node_index::{Containers, path_code};
use snowline_store::value::ValueCodec;
use snowline_store::{DecodeError, ReadView};
use snowline_types::container::IndexPath;

use crate::error::XStateError;

/// The avm codec version, put before a tx's bytes when they come from inside a block (a block
/// encodes its txs without it; `avm.getTx` serves the signed bytes with it).
const CODEC_VERSION: [u8; 2] = [0, 0];

/// Where some accepted bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredBytes {
    /// Kept here: what no container holds (genesis txs, the linear chain's genesis block).
    Inline(Vec<u8>),
    /// `len` bytes at `offset` of container `index` of `path`; with `versioned` the codec version
    /// goes before them.
    InContainer {
        /// The index path of the container.
        path: IndexPath,
        /// Its index in that path.
        index: u64,
        /// Where the bytes start in the container.
        offset: u32,
        /// How many bytes.
        len: u32,
        /// Whether the codec version goes before them (a tx inside a block).
        versioned: bool,
    },
}

impl StoredBytes {
    /// `len` bytes at `offset` of a container: `None` when a position does not fit in `u32`
    /// (a container is at most a few MiB, so only a corrupt input gets there).
    pub fn in_container(
        path: IndexPath,
        index: u64,
        offset: usize,
        len: usize,
        versioned: bool,
    ) -> Option<Self> {
        Some(StoredBytes::InContainer {
            path,
            index,
            offset: u32::try_from(offset).ok()?,
            len: u32::try_from(len).ok()?,
            versioned,
        })
    }

    /// The bytes, read from the container they are in when they are not inline.
    pub fn resolve(self, view: &impl ReadView) -> Result<Vec<u8>, XStateError> {
        let (path, index, offset, len, versioned) = match self {
            StoredBytes::Inline(bytes) => return Ok(bytes),
            StoredBytes::InContainer {
                path,
                index,
                offset,
                len,
                versioned,
            } => (path, index, offset as usize, len as usize, versioned),
        };
        let container = view
            .get::<Containers>(&(path_code(path), index))?
            .ok_or_else(|| XStateError::Corrupt(format!("{path} container {index} is missing")))?;
        let bytes = offset
            .checked_add(len)
            .and_then(|end| container.bytes.get(offset..end))
            .ok_or_else(|| {
                XStateError::Corrupt(format!(
                    "{path} container {index} has no bytes {offset}..+{len}"
                ))
            })?;
        let mut out = Vec::with_capacity(len + 2);
        if versioned {
            out.extend_from_slice(&CODEC_VERSION);
        }
        out.extend_from_slice(bytes);
        Ok(out)
    }
}

/// Tag byte of [`StoredBytes::Inline`]; the bytes follow.
const INLINE: u8 = 0;
/// Tag byte of [`StoredBytes::InContainer`] without / with the version prefix; then the path
/// code (1), the index (8), the offset (4) and the length (4), big-endian.
const IN_CONTAINER: u8 = 1;
const IN_CONTAINER_VERSIONED: u8 = 2;

impl ValueCodec for StoredBytes {
    fn encode_value(&self, out: &mut Vec<u8>) {
        match self {
            StoredBytes::Inline(bytes) => {
                out.reserve(1 + bytes.len());
                out.push(INLINE);
                out.extend_from_slice(bytes);
            }
            StoredBytes::InContainer {
                path,
                index,
                offset,
                len,
                versioned,
            } => {
                out.push(if *versioned {
                    IN_CONTAINER_VERSIONED
                } else {
                    IN_CONTAINER
                });
                out.push(path_code(*path));
                out.extend_from_slice(&index.to_be_bytes());
                out.extend_from_slice(&offset.to_be_bytes());
                out.extend_from_slice(&len.to_be_bytes());
            }
        }
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let Some((&tag, rest)) = bytes.split_first() else {
            return Err(DecodeError::UnexpectedEnd {
                needed: 1,
                remaining: 0,
            });
        };
        let versioned = match tag {
            INLINE => return Ok(StoredBytes::Inline(rest.to_vec())),
            IN_CONTAINER => false,
            IN_CONTAINER_VERSIONED => true,
            other => {
                return Err(DecodeError::Other(format!(
                    "unknown stored-bytes tag {other}"
                )));
            }
        };
        let fixed: &[u8; 17] = rest.try_into().map_err(|_| {
            DecodeError::Other(format!(
                "a container reference is 17 bytes, not {}",
                rest.len()
            ))
        })?;
        let [
            code,
            i0,
            i1,
            i2,
            i3,
            i4,
            i5,
            i6,
            i7,
            o0,
            o1,
            o2,
            o3,
            l0,
            l1,
            l2,
            l3,
        ] = *fixed;
        let path = snowline_node_index::path_from_code(code)
            .ok_or_else(|| DecodeError::Other(format!("unknown index path code {code}")))?;
        Ok(StoredBytes::InContainer {
            path,
            index: u64::from_be_bytes([i0, i1, i2, i3, i4, i5, i6, i7]),
            offset: u32::from_be_bytes([o0, o1, o2, o3]),
            len: u32::from_be_bytes([l0, l1, l2, l3]),
            versioned,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn path() -> impl Strategy<Value = IndexPath> {
        proptest::sample::select(IndexPath::ALL.to_vec())
    }

    fn stored() -> impl Strategy<Value = StoredBytes> {
        prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..64).prop_map(StoredBytes::Inline),
            (
                path(),
                any::<u64>(),
                any::<u32>(),
                any::<u32>(),
                any::<bool>()
            )
                .prop_map(|(path, index, offset, len, versioned)| {
                    StoredBytes::InContainer {
                        path,
                        index,
                        offset,
                        len,
                        versioned,
                    }
                }),
        ]
    }

    proptest! {
        #[test]
        fn encoding_round_trips(s in stored()) {
            let mut out = Vec::new();
            s.encode_value(&mut out);
            prop_assert_eq!(StoredBytes::decode_value(&out).unwrap(), s);
        }

        /// Any bytes either fail to decode or are the one encoding of what they decode to.
        #[test]
        fn decoding_is_canonical(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
            if let Ok(s) = StoredBytes::decode_value(&bytes) {
                let mut out = Vec::new();
                s.encode_value(&mut out);
                prop_assert_eq!(out, bytes);
            }
        }
    }

    #[test]
    fn layout_is_tag_path_index_offset_len() {
        let s = StoredBytes::InContainer {
            path: IndexPath::XBlock,
            index: 0x0102,
            offset: 7,
            len: 9,
            versioned: true,
        };
        let mut out = Vec::new();
        s.encode_value(&mut out);
        let mut want = vec![IN_CONTAINER_VERSIONED, path_code(IndexPath::XBlock)];
        want.extend_from_slice(&0x0102u64.to_be_bytes());
        want.extend_from_slice(&7u32.to_be_bytes());
        want.extend_from_slice(&9u32.to_be_bytes());
        assert_eq!(out, want);
        assert!(StoredBytes::decode_value(&out[..out.len() - 1]).is_err());
        assert!(StoredBytes::decode_value(&[9]).is_err());
        assert_eq!(
            StoredBytes::decode_value(&[INLINE, 5, 6]).unwrap(),
            StoredBytes::Inline(vec![5, 6])
        );
    }
}
