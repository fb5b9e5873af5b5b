//! The C-Chain's coreth formats as the index API serves them on `C/block`: the block's RLP and
//! header with its keccak hash (`header`, `block`), and its extra data, the atomic txs that move
//! AVAX between the C-Chain's EVM state and the shared memory with the X- and P-Chain
//! (`atomic_tx`, `ext_data`). EVM txs are only counted here.

mod atomic_tx;
mod block;
mod ext_data;
mod header;
mod rlp;

pub use atomic_tx::{
    Credential, EvmInput, EvmOutput, ExportTx, ImportTx, ParsedTx, TransferableIn,
    TransferableInput, TransferableOut, TransferableOutput, Tx, UnsignedTx, type_id,
};
pub use block::Block;
pub use ext_data::{
    EMPTY_EXT_DATA_HASH, apricot_phase5_time, encode_ext_data, ext_data_hash, is_batch,
    parse_ext_data,
};
pub use header::{Hash, Header};

use std::ops::Range;

use crate::codec::CodecError;

/// A UTXO in the C-Chain's shared memory, in the atomic codec (secp256k1fx transfers only).
pub type Utxo = crate::components::Utxo<TransferableOut>;

/// Why a coreth block or its extra data could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorethError {
    /// Bad RLP.
    #[error("rlp: {0}")]
    Rlp(#[from] alloy_rlp::Error),
    /// RLP of the wrong shape.
    #[error("malformed coreth block: {0}")]
    Malformed(&'static str),
    /// Bad atomic tx bytes.
    #[error("atomic txs: {0}")]
    Codec(#[from] CodecError),
    /// A batch of no txs (`errMissingAtomicTxs`).
    #[error("non-empty extra data with zero atomic txs")]
    EmptyBatch,
}

/// A decoded `C/block` with its atomic txs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomicBlock {
    /// The block.
    pub block: Block,
    /// Its atomic txs, in order.
    pub txs: Vec<ParsedTx>,
    /// Where each tx's bytes lie in the container (without the codec version: what
    /// [`Tx::parse_nested`](crate::components::signed::SignedTx::parse_nested) reads), so an
    /// index can read one tx without its block.
    pub tx_ranges: Vec<Range<usize>>,
}

impl AtomicBlock {
    /// Decodes a `C/block` container of network `network_id` and its extra data (a batch or a
    /// single tx by the block's time).
    pub fn from_container(bytes: &[u8], network_id: u32) -> Result<Self, CorethError> {
        let (block, end) = Block::from_container_with_end(bytes)?;
        let txs = parse_ext_data(&block.ext_data, is_batch(network_id, block.timestamp()))?;
        Ok(Self::of(block, end, txs))
    }

    /// [`AtomicBlock::from_container`] for a reader that does not know the network: the
    /// framing mainnet had at the block's time (Apricot Phase 5 came last there), else the
    /// other one. A batch and a single tx cannot both decode the same bytes in practice: the
    /// one is the other shifted by a `u32` count, and nothing may trail.
    pub fn from_container_any_network(bytes: &[u8]) -> Result<Self, CorethError> {
        let (block, end) = Block::from_container_with_end(bytes)?;
        let batch = is_batch(crate::network::MAINNET_ID, block.timestamp());
        let txs = match parse_ext_data(&block.ext_data, batch) {
            Ok(txs) => txs,
            Err(first) => parse_ext_data(&block.ext_data, !batch).map_err(|_| first)?,
        };
        Ok(Self::of(block, end, txs))
    }

    /// The block with its txs, whose extra data ends the container's coreth block at `end`.
    /// The extra data is the block's last RLP field, so it is the bytes before `end`: a single
    /// tx's signed bytes (version first), or a batch (version, `u32` count, then each tx without
    /// its version).
    fn of(block: Block, end: usize, txs: Vec<ParsedTx>) -> Self {
        let start = end.saturating_sub(block.ext_data.len());
        let single =
            txs.len() == 1 && txs.first().map(|t| t.bytes.len()) == Some(block.ext_data.len());
        let mut at = if single { start + 2 } else { start + 6 };
        let tx_ranges = txs
            .iter()
            .map(|t| {
                let range = at..at + t.bytes.len().saturating_sub(2);
                at = range.end;
                range
            })
            .collect();
        Self {
            block,
            txs,
            tx_ranges,
        }
    }
}
