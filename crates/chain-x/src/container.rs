//! [`XContainer`]: an accepted X-Chain container decoded once, every id computed, before it
//! reaches the writer. It is the node-index [`Prepare`] of both X-Chain derivers
//! ([`XChainState`](crate::state::XChainState) and [`XHistory`](crate::history::XHistory)), so the
//! import decodes and hashes on its parse threads and the follower while the previous page is
//! written, and a store with both derivers decodes each container once, not twice.

use snowline_node_index::IndexError;
use snowline_node_index::derive::Prepare;
use snowline_types::Id;
use snowline_types::avm::{ParsedBlock, ParsedTx, StandardBlock, Tx};
use snowline_types::codec::CodecError;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::proposervm;
use snowline_types::vertex::Vertex;

use crate::error::XStateError;

/// The X-Chain's index paths, vertices first so a follower gives DAG txs their heights at once.
pub const X_PATHS: [IndexPath; 3] = [IndexPath::XVtx, IndexPath::XTx, IndexPath::XBlock];

/// A DAG-era vertex with its txs decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XVertex {
    /// The vertex id (`sha256` of its bytes).
    pub id: Id,
    /// Its height.
    pub height: u64,
    /// Its parents.
    pub parent_ids: Vec<Id>,
    /// Its txs, in order, each with its id.
    pub txs: Vec<ParsedTx>,
    /// Where each tx starts in the vertex's bytes.
    pub tx_offsets: Vec<usize>,
}

/// An accepted X-Chain container, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XContainer {
    /// An `X/tx` container: one signed tx.
    Tx(ParsedTx),
    /// An `X/vtx` container: a vertex and its txs.
    Vertex(XVertex),
    /// An `X/block` container: the avm block inside the proposervm wrapper, with its id and the
    /// id of each tx (the wrapper's own id is the container id, already checked by the source).
    Block {
        /// The avm block.
        block: ParsedBlock,
        /// Where its bytes start in the container.
        offset: usize,
    },
    /// A container of another chain (`P/block`, `C/block`): nothing for the X-Chain.
    Other,
}

impl XContainer {
    /// Decodes `record` by its path.
    pub fn parse(record: &ContainerRecord) -> Result<Self, XStateError> {
        let failed = |source: CodecError| XStateError::Decode {
            id: record.id,
            source,
        };
        Ok(match record.path {
            IndexPath::XTx => XContainer::Tx(Tx::parse(&record.bytes).map_err(failed)?),
            IndexPath::XVtx => {
                let parsed = Vertex::parse(&record.bytes).map_err(failed)?;
                let tx_offsets = parsed.vertex.tx_offsets();
                let vertex = parsed.vertex;
                let txs = vertex
                    .txs
                    .into_iter()
                    .map(Tx::parse_vec)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(failed)?;
                XContainer::Vertex(XVertex {
                    id: parsed.id,
                    height: vertex.height,
                    parent_ids: vertex.parent_ids,
                    txs,
                    tx_offsets,
                })
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::decode(&record.bytes).map_err(failed)?;
                let offset = outer.inner_offset();
                let block = StandardBlock::parse_vec(outer.into_inner()).map_err(failed)?;
                XContainer::Block { block, offset }
            }
            IndexPath::PBlock | IndexPath::CBlock => XContainer::Other,
        })
    }
}

impl Prepare for XContainer {
    fn prepare(record: &ContainerRecord) -> Result<Self, IndexError> {
        Self::parse(record).map_err(IndexError::from)
    }
}
