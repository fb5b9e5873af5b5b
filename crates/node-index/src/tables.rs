//! The two tables of the index. Keys start with the path's code so every path is one contiguous,
//! ordered key range.

use snowline_store::value::{EncodesAs, ValueCodec};
use snowline_store::{DecodeError, table};
use snowline_types::Id;
use snowline_types::container::IndexPath;

table! {
    /// The tables of the index, for composing a binary's [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `(path code, index u64 BE) -> (id, timestamp ns, bytes)`: the containers in acceptance order.
    pub Containers: "node_index_containers" (Append), (u8, u64) => StoredContainer;

    /// `(path code, id) -> index`: where a container sits in its path.
    pub ContainerIds: "node_index_ids" (PointLookup), (u8, Id) => u64;
}

/// The stable one-byte code of a path in keys (never renumber: it is on disk).
pub const fn path_code(path: IndexPath) -> u8 {
    match path {
        IndexPath::XTx => 0,
        IndexPath::XBlock => 1,
        IndexPath::XVtx => 2,
        IndexPath::PBlock => 3,
        IndexPath::CBlock => 4,
    }
}

/// The path of a key code, if it is one.
pub fn path_from_code(code: u8) -> Option<IndexPath> {
    IndexPath::ALL.into_iter().find(|p| path_code(*p) == code)
}

/// A container as stored: id (32 B) ‖ timestamp (i64 BE, ns since the epoch) ‖ bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredContainer {
    /// The container id.
    pub id: Id,
    /// Acceptance time, ns since the Unix epoch.
    pub timestamp_ns: i64,
    /// The container bytes.
    pub bytes: Vec<u8>,
}

/// [`StoredContainer`] borrowed: what the writer stores straight from a fetched record, without
/// copying its bytes into an owned value first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredContainerRef<'a> {
    /// The container id.
    pub id: Id,
    /// Acceptance time, ns since the Unix epoch.
    pub timestamp_ns: i64,
    /// The container bytes.
    pub bytes: &'a [u8],
}

const HEAD: usize = 32 + 8;

impl EncodesAs<StoredContainer> for StoredContainerRef<'_> {
    fn encode_as(&self, out: &mut Vec<u8>) {
        out.reserve(HEAD + self.bytes.len());
        out.extend_from_slice(&self.id.0);
        out.extend_from_slice(&self.timestamp_ns.to_be_bytes());
        out.extend_from_slice(self.bytes);
    }
}

impl ValueCodec for StoredContainer {
    fn encode_value(&self, out: &mut Vec<u8>) {
        StoredContainerRef {
            id: self.id,
            timestamp_ns: self.timestamp_ns,
            bytes: &self.bytes,
        }
        .encode_as(out);
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (Some(id), Some(ts), Some(rest)) =
            (bytes.get(..32), bytes.get(32..HEAD), bytes.get(HEAD..))
        else {
            return Err(DecodeError::UnexpectedEnd {
                needed: HEAD,
                remaining: bytes.len(),
            });
        };
        let id = Id::from_slice(id).map_err(|e| DecodeError::Other(e.to_string()))?;
        let ts = <[u8; 8]>::try_from(ts).map_err(|e| DecodeError::Other(e.to_string()))?;
        Ok(Self {
            id,
            timestamp_ns: i64::from_be_bytes(ts),
            bytes: rest.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_store::encode_value;

    #[test]
    fn stored_container_layout() {
        let c = StoredContainer {
            id: Id([7; 32]),
            timestamp_ns: -2,
            bytes: vec![1, 2, 3],
        };
        let enc = encode_value(&c);
        assert_eq!(enc.len(), 43);
        assert_eq!(
            &enc[32..40],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]
        );
        let mut borrowed = Vec::new();
        StoredContainerRef {
            id: c.id,
            timestamp_ns: c.timestamp_ns,
            bytes: &c.bytes,
        }
        .encode_as(&mut borrowed);
        assert_eq!(borrowed, enc);
        assert_eq!(StoredContainer::decode_value(&enc), Ok(c));
        assert!(StoredContainer::decode_value(&enc[..39]).is_err());
    }

    #[test]
    fn path_codes_round_trip_and_are_distinct() {
        for p in IndexPath::ALL {
            assert_eq!(path_from_code(path_code(p)), Some(p));
        }
        assert_eq!(path_from_code(5), None);
    }
}
