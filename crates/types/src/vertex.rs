//! The Avalanche DAG vertex of the pre-Cortina X-Chain (`snow/engine/avalanche/vertex`):
//! what `/ext/index/X/vtx` stores.
//!
//! Two codec versions share one struct (`stateless_vertex.go`, `codec.go`):
//! - version 0, a vertex: `u16 0 | chainID[32] | u64 height | u32 epoch | u32 n | parentID[32]×n
//!   | u32 m | (u32 len | tx bytes)×m`;
//! - version 1, the **stop vertex** that ended the DAG at Cortina: `u16 1 | chainID[32] | u64 height
//!   | u32 n | parentID[32]×n` (it keeps its parents but has no epoch and no txs).
//!
//! A vertex id is `sha256(bytes)` (`parser.go`). Parsing only decodes (at most 1 MiB, nothing
//! trailing); [`Vertex::verify`] applies the rules of `innerStatelessVertex.Verify`.

use crate::Id;
use crate::codec::{CodecError, Reader, Writer};
use crate::hashing::sha256;

/// Codec version of an ordinary vertex (`CodecVersion`).
pub const VERTEX_VERSION: u16 = 0;
/// Codec version of the stop vertex (`CodecVersionWithStopVtx`).
pub const STOP_VERTEX_VERSION: u16 = 1;
/// Largest vertex the parser accepts: 1 MiB (`maxSize = units.MiB`).
pub const MAX_VERTEX_SIZE: usize = 1024 * 1024;
/// Most parents a valid vertex has (`maxNumParents`).
pub const MAX_PARENTS: usize = 128;
/// Most txs a valid vertex holds (`maxTxsPerVtx`).
pub const MAX_TXS: usize = 128;

/// Why a decoded vertex is invalid; messages are avalanchego's (`stateless_vertex.go`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VertexError {
    /// `errBadVersion`.
    #[error("invalid version")]
    BadVersion,
    /// `errBadEpoch`: the epoch must be 0.
    #[error("invalid epoch")]
    BadEpoch,
    /// `errTooManyParentIDs`.
    #[error("vertex contains more than 128 parentIDs")]
    TooManyParentIds,
    /// `errNoOperations`: an ordinary vertex needs at least one tx.
    #[error("vertex contains no operations")]
    NoOperations,
    /// `errTooManyTxs`: more than 128 txs, or any tx in a stop vertex.
    #[error("vertex contains more than 128 transactions")]
    TooManyTxs,
    /// `errInvalidParents`.
    #[error("vertex contains non-sorted or duplicated parentIDs")]
    InvalidParents,
    /// `errInvalidTxs`: txs must be strictly ascending by their sha256.
    #[error("vertex contains non-sorted or duplicated transactions")]
    InvalidTxs,
}

/// A vertex's fields (`innerStatelessVertex`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Vertex {
    /// `true` for the version-1 stop vertex (no epoch, no txs on the wire).
    pub stop: bool,
    /// The chain (the X-Chain's id).
    pub chain_id: Id,
    /// One more than the highest parent's height (0 with no parents).
    pub height: u64,
    /// Always 0 when valid; not serialized in a stop vertex.
    pub epoch: u32,
    /// Parent vertex ids, strictly ascending when valid.
    pub parent_ids: Vec<Id>,
    /// Signed tx bytes (with their codec version), strictly ascending by sha256 when valid;
    /// not serialized in a stop vertex.
    pub txs: Vec<Vec<u8>>,
}

/// A vertex with its bytes and id.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ParsedVertex {
    /// The fields.
    pub vertex: Vertex,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// `sha256(bytes)`.
    pub id: Id,
}

impl Vertex {
    /// The codec version this vertex is written with: 1 for a stop vertex, else 0.
    pub fn version(&self) -> u16 {
        if self.stop {
            STOP_VERTEX_VERSION
        } else {
            VERTEX_VERSION
        }
    }

    /// Decodes vertex bytes (`vertex.Parse`): at most 1 MiB, version 0 or 1, nothing trailing.
    /// Does not run [`Vertex::verify`], as avalanchego's parser does not.
    pub fn parse(bytes: &[u8]) -> Result<ParsedVertex, CodecError> {
        if bytes.len() > MAX_VERTEX_SIZE {
            return Err(CodecError::TooLarge {
                len: bytes.len(),
                max: MAX_VERTEX_SIZE,
            });
        }
        let mut r = Reader::new(bytes);
        let stop = match r.u16()? {
            VERTEX_VERSION => false,
            STOP_VERTEX_VERSION => true,
            v => return Err(CodecError::UnknownVersion(v)),
        };
        let chain_id = Id(r.array()?);
        let height = r.u64()?;
        let epoch = if stop { 0 } else { r.u32()? };
        let n = r.count(Id::LEN, "parent id")?;
        let mut parent_ids = Vec::with_capacity(n);
        for _ in 0..n {
            parent_ids.push(Id(r.array()?));
        }
        let mut txs = Vec::new();
        if !stop {
            let m = r.count(4, "vertex tx")?;
            txs.reserve_exact(m);
            for _ in 0..m {
                txs.push(r.bytes()?.to_vec());
            }
        }
        r.finish()?;
        Ok(ParsedVertex {
            vertex: Vertex {
                stop,
                chain_id,
                height,
                epoch,
                parent_ids,
                txs,
            },
            bytes: bytes.to_vec(),
            id: Id(sha256(bytes)),
        })
    }

    /// Where each tx's bytes start in this vertex's encoding ([`Vertex::bytes`]), in order: lets
    /// an index point into a stored vertex instead of keeping a second copy of its txs.
    pub fn tx_offsets(&self) -> Vec<usize> {
        // version (2), chain id (32), height (8), epoch (4, not in a stop vertex), the parents
        // (4 + 32 each), the tx count (4); then each tx as its u32 length and its bytes.
        if self.stop {
            return Vec::new();
        }
        let mut at = 2 + 32 + 8 + 4 + 4 + 32 * self.parent_ids.len() + 4;
        self.txs
            .iter()
            .map(|tx| {
                let start = at + 4;
                at = start + tx.len();
                start
            })
            .collect()
    }

    /// The vertex bytes: the version then the fields that version serializes.
    pub fn bytes(&self) -> Vec<u8> {
        let tx_len: usize = self.txs.iter().map(|t| t.len() + 4).sum();
        let mut w = Writer::with_capacity(64 + 32 * self.parent_ids.len() + tx_len);
        w.u16(self.version());
        w.raw(&self.chain_id.0);
        w.u64(self.height);
        if !self.stop {
            w.u32(self.epoch);
        }
        w.len_u32(self.parent_ids.len());
        for p in &self.parent_ids {
            w.raw(&p.0);
        }
        if !self.stop {
            w.len_u32(self.txs.len());
            for t in &self.txs {
                w.bytes(t);
            }
        }
        w.into_bytes()
    }

    /// The vertex id: `sha256(bytes)`.
    pub fn id(&self) -> Id {
        Id(sha256(&self.bytes()))
    }

    /// The ids of the txs it holds: `sha256` of each tx's bytes.
    pub fn tx_ids(&self) -> Vec<Id> {
        self.txs.iter().map(|t| Id(sha256(t))).collect()
    }

    /// `innerStatelessVertex.Verify`: epoch 0, at most 128 sorted unique parents, and for an
    /// ordinary vertex 1–128 txs sorted strictly by hash; a stop vertex holds no txs.
    pub fn verify(&self) -> Result<(), VertexError> {
        if self.epoch != 0 {
            return Err(VertexError::BadEpoch);
        }
        if self.parent_ids.len() > MAX_PARENTS {
            return Err(VertexError::TooManyParentIds);
        }
        if self.stop {
            if !self.txs.is_empty() {
                return Err(VertexError::TooManyTxs);
            }
        } else if self.txs.is_empty() {
            return Err(VertexError::NoOperations);
        } else if self.txs.len() > MAX_TXS {
            return Err(VertexError::TooManyTxs);
        }
        if !crate::fx::is_sorted_unique(&self.parent_ids) {
            return Err(VertexError::InvalidParents);
        }
        if !self.stop && !crate::fx::is_sorted_unique(&self.tx_ids()) {
            return Err(VertexError::InvalidTxs);
        }
        Ok(())
    }

    /// Builds a vertex as `vertex.Build` does: parents sorted, txs sorted by hash, epoch 0,
    /// then verified.
    pub fn build(
        chain_id: Id,
        height: u64,
        mut parent_ids: Vec<Id>,
        mut txs: Vec<Vec<u8>>,
    ) -> Result<ParsedVertex, VertexError> {
        parent_ids.sort_unstable();
        txs.sort_by_cached_key(|t| sha256(t));
        Self::seal(Vertex {
            stop: false,
            chain_id,
            height,
            epoch: 0,
            parent_ids,
            txs,
        })
    }

    /// Builds the stop vertex as `vertex.BuildStopVertex` does: parents sorted, then verified.
    pub fn build_stop(
        chain_id: Id,
        height: u64,
        mut parent_ids: Vec<Id>,
    ) -> Result<ParsedVertex, VertexError> {
        parent_ids.sort_unstable();
        Self::seal(Vertex {
            stop: true,
            chain_id,
            height,
            epoch: 0,
            parent_ids,
            txs: Vec::new(),
        })
    }

    fn seal(vertex: Vertex) -> Result<ParsedVertex, VertexError> {
        vertex.verify()?;
        let bytes = vertex.bytes();
        let id = Id(sha256(&bytes));
        Ok(ParsedVertex { vertex, bytes, id })
    }
}

impl ParsedVertex {
    /// The ids of the txs it holds.
    pub fn tx_ids(&self) -> Vec<Id> {
        self.vertex.tx_ids()
    }
}
