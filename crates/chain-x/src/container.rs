//! [`XContainer`]: an accepted X-Chain container decoded once, every id computed, before it
//! reaches the writer. It is the node-index [`Prepare`] of both X-Chain derivers
//! ([`XChainState`](crate::state::XChainState) and [`XHistory`](crate::history::XHistory)), so the
//! import decodes and hashes on its parse threads and the follower while the previous page is
//! written, and a store with both derivers decodes each container once, not twice. A `P/block`
//! is decoded too, for what it exports to and imports from the X-Chain's atomic memory.

use snowline_derive::{DeriveError, Prepare};
use snowline_types::atomic::{AtomicTxs, c_block_atomic, p_block_atomic};
use snowline_types::avm::{ParsedBlock, ParsedTx, StandardBlock, Tx, Utxo};
use snowline_types::codec::CodecError;
use snowline_types::container::{ContainerRecord, IndexPath, TxPlace};
use snowline_types::coreth::{self, AtomicBlock};
use snowline_types::platformvm::parse_block;
use snowline_types::proposervm;
use snowline_types::vertex::Vertex;
use snowline_types::{Id, NodeId, ShortId};

use crate::error::XStateError;

/// The X-Chain's index paths, vertices first so a follower gives DAG txs their heights at once.
pub const X_PATHS: [IndexPath; 3] = [IndexPath::XVtx, IndexPath::XTx, IndexPath::XBlock];

/// The paths the X-Chain derivers read: the X-Chain's own, and `P/block` and `C/block` for the
/// P- and C-Chain's traffic with X's atomic memory (their exports to X, their imports of X's
/// exports).
pub const X_DERIVE_PATHS: [IndexPath; 5] = [
    IndexPath::XVtx,
    IndexPath::XTx,
    IndexPath::XBlock,
    IndexPath::PBlock,
    IndexPath::CBlock,
];

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
        /// The node that proposed it: the wrapper's certificate's, when it is signed.
        proposer: Option<NodeId>,
    },
    /// A `P/block`: its `ExportTx`s and `ImportTx`s (exports in the X-Chain's shape), at the
    /// block's height and time.
    PBlock(AtomicTxs<Utxo>),
    /// A `C/block`: its atomic `ExportTx`s and `ImportTx`s (exports in the X-Chain's shape), at
    /// the block's number and time, with the EVM addresses each credits or debits.
    CBlock {
        /// The atomic txs.
        txs: AtomicTxs<Utxo>,
        /// The block's hash (keccak-256 of its header).
        hash: [u8; 32],
        /// `places[i]`: where tx `i`'s bytes lie in the container.
        places: Vec<Option<TxPlace>>,
        /// `evm[i]`: the EVM addresses of tx `i` (an import's outputs, an export's inputs),
        /// each once.
        evm: Vec<Vec<ShortId>>,
    },
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
                let proposer = outer.proposer();
                let block = StandardBlock::parse_vec(outer.into_inner()).map_err(failed)?;
                XContainer::Block {
                    block,
                    offset,
                    proposer,
                }
            }
            IndexPath::PBlock => {
                let block = parse_block(&record.bytes).map_err(|e| XStateError::DecodePBlock {
                    id: record.id,
                    reason: e.to_string(),
                })?;
                XContainer::PBlock(p_block_atomic(&block, record.timestamp_ns))
            }
            IndexPath::CBlock => {
                let block =
                    AtomicBlock::from_container_any_network(&record.bytes).map_err(|e| {
                        XStateError::DecodeCBlock {
                            id: record.id,
                            reason: e.to_string(),
                        }
                    })?;
                XContainer::CBlock {
                    evm: block
                        .txs
                        .iter()
                        .map(|t| evm_addresses(&t.tx.unsigned))
                        .collect(),
                    txs: c_block_atomic(&block),
                    hash: block.block.hash,
                    places: block.tx_ranges.iter().cloned().map(TxPlace::of).collect(),
                }
            }
        })
    }
}

/// The EVM addresses a C-Chain atomic tx credits (import) or debits (export), each once, in
/// order of first appearance.
pub fn evm_addresses(tx: &coreth::UnsignedTx) -> Vec<ShortId> {
    let all: Vec<ShortId> = match tx {
        coreth::UnsignedTx::Import(i) => i.outs.iter().map(|o| ShortId(o.address)).collect(),
        coreth::UnsignedTx::Export(e) => e.ins.iter().map(|i| ShortId(i.address)).collect(),
    };
    let mut out: Vec<ShortId> = Vec::with_capacity(all.len());
    for a in all {
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

impl Prepare for XContainer {
    fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError> {
        Self::parse(record).map_err(DeriveError::from)
    }
}
