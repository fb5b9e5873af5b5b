//! [`PContainer`]: an accepted container decoded once for the P-Chain before it reaches the
//! writer, the [`Prepare`] of [`PChain`](crate::PChain): a `P/block` (bare or proposervm-wrapped,
//! every tx id computed), or the atomic txs of an X-Chain vertex or block or of a C-Chain block,
//! for what the X- and C-Chain export to and import from P's atomic memory.

use snowline_derive::{DeriveError, Prepare};
use snowline_types::atomic::{AtomicTxs, c_block_atomic, x_container_atomic};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::platformvm::{PChainBlock, ProposerDetails, Utxo, parse_block};
use snowline_types::{coreth, proposervm};

use crate::error::PChainError;
use crate::rows::CBlockRow;

/// The P-Chain's index path.
pub const P_PATHS: [IndexPath; 1] = [IndexPath::PBlock];

/// The paths [`PChain`](crate::PChain) reads: the P-Chain's own, the X-Chain's vertices and
/// blocks and the C-Chain's blocks for their atomic txs (`X/tx` is left out: it repeats txs a
/// vertex or block holds, with no height).
pub const P_DERIVE_PATHS: [IndexPath; 4] = [
    IndexPath::PBlock,
    IndexPath::XVtx,
    IndexPath::XBlock,
    IndexPath::CBlock,
];

/// An accepted container, decoded for the P-Chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PContainer {
    /// A `P/block`: the block with its proposervm wrapper (boxed: far larger than the rest).
    Block(Box<PChainBlock>),
    /// An `X/vtx` or `X/block`: its `ImportTx`s and `ExportTx`s (exports in the P-Chain's shape),
    /// at the container's height and acceptance time.
    X(AtomicTxs<Utxo>),
    /// A `C/block`: its atomic `ImportTx`s and `ExportTx`s (exports in the P-Chain's shape), at
    /// the block's number and time, the txs themselves (for what they burn), and the block as
    /// the block operations show it.
    C(AtomicTxs<Utxo>, Vec<coreth::UnsignedTx>, Box<CBlockRow>),
    /// `X/tx`: nothing for the P-Chain.
    Other,
}

impl PContainer {
    /// Decodes `record` by its path.
    pub fn parse(record: &ContainerRecord) -> Result<Self, PChainError> {
        let failed = |reason: String| PChainError::Decode {
            id: record.id,
            reason,
        };
        match record.path {
            IndexPath::PBlock => parse_block(&record.bytes)
                .map(|b| PContainer::Block(Box::new(b)))
                .map_err(|e| failed(e.to_string())),
            IndexPath::CBlock => {
                let block = coreth::AtomicBlock::from_container_any_network(&record.bytes)
                    .map_err(|e| failed(e.to_string()))?;
                let txs = block.txs.iter().map(|t| t.tx.unsigned.clone()).collect();
                // The wrapper again (the coreth parse keeps only what it wraps); a bare block
                // (before the proposervm fork) has none.
                let proposer = proposervm::Block::decode(&record.bytes)
                    .ok()
                    .map(|outer| ProposerDetails::of(record.id, &outer));
                let row = CBlockRow {
                    hash: block.block.hash,
                    parent: block.block.parent_hash(),
                    timestamp: block.block.timestamp(),
                    atomic_tx_ids: block.txs.iter().map(|t| t.id).collect(),
                    evm_txs: u32::try_from(block.block.transactions.len()).unwrap_or(u32::MAX),
                    size: u32::try_from(record.bytes.len()).unwrap_or(u32::MAX),
                    proposer,
                };
                Ok(PContainer::C(c_block_atomic(&block), txs, Box::new(row)))
            }
            _ => Ok(x_container_atomic(record)
                .map_err(|e| failed(e.to_string()))?
                .map_or(PContainer::Other, PContainer::X)),
        }
    }
}

impl Prepare for PContainer {
    fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError> {
        Self::parse(record).map_err(DeriveError::from)
    }
}
