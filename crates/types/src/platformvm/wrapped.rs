//! P-Chain blocks as the index API serves them: bare (before Snowman++) or wrapped in a
//! proposervm block (`statelessBlock`, option, Granite block), with the proposer's details.

use super::block::{Block, ParsedBlock};
use crate::codec::CodecError;
use crate::proposervm;
use crate::{Id, NodeId};

/// A proposervm wrapper's details (the Data API's `proposerDetails`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProposerDetails {
    /// The proposervm block id (the id the index API and Glacier show for the block).
    pub id: Id,
    /// The parent proposervm block id.
    pub parent_id: Id,
    /// The proposer node (`hash160` of its certificate); `None` for unsigned blocks and options.
    pub node_id: Option<NodeId>,
    /// The proposer's timestamp (Unix seconds); `None` for options.
    pub timestamp: Option<i64>,
    /// The P-Chain height the proposer used; `None` for options.
    pub p_chain_height: Option<u64>,
}

impl ProposerDetails {
    /// The details of the proposervm block `block` whose id is `id` (any chain's: P, X or C).
    pub fn of(id: Id, block: &proposervm::Block) -> Self {
        let (timestamp, p_chain_height) = match block {
            proposervm::Block::Stateless(s) => (Some(s.timestamp), Some(s.p_chain_height)),
            proposervm::Block::Option { .. } => (None, None),
        };
        Self {
            id,
            parent_id: block.parent_id(),
            node_id: block.proposer(),
            timestamp,
            p_chain_height,
        }
    }
}

/// A P-Chain block with its wrapper, if it had one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PChainBlock {
    /// The inner P-Chain block.
    pub block: ParsedBlock,
    /// The proposervm details when the bytes were wrapped.
    pub proposer: Option<ProposerDetails>,
    /// Where the inner block's bytes start in the parsed bytes (0 when bare).
    pub inner_offset: usize,
}

impl PChainBlock {
    /// The id the chain knows the block by: the proposervm id when wrapped, else the inner id.
    pub fn id(&self) -> Id {
        self.proposer.map_or(self.block.id, |p| p.id)
    }

    /// Where tx `i` (in [`super::block::Block::txs`] order) lies in the parsed bytes, as
    /// [`super::tx::parse_nested_tx`] reads it.
    pub fn tx_range(&self, i: usize) -> Option<std::ops::Range<usize>> {
        let r = self.block.tx_ranges.get(i)?;
        Some(r.start + self.inner_offset..r.end + self.inner_offset)
    }
}

/// Why bytes are neither a bare nor a wrapped P-Chain block.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WrappedBlockError {
    /// Neither parse worked; both errors are kept.
    #[error("not a P-Chain block ({bare}) nor a proposervm block ({wrapped})")]
    Neither {
        /// Why the bare parse failed.
        bare: CodecError,
        /// Why the proposervm parse failed.
        wrapped: CodecError,
    },
    /// The proposervm wrapper parsed but its inner bytes are not a P-Chain block.
    #[error("proposervm block wraps an invalid P-Chain block: {0}")]
    Inner(CodecError),
}

/// Parses a bare or proposervm-wrapped P-Chain block. The bare parse is tried first, as
/// Ortelius does; proposervm type ids 0–2 overlap Apricot block ids but never parse as both.
pub fn parse_block(bytes: &[u8]) -> Result<PChainBlock, WrappedBlockError> {
    let bare = match Block::parse(bytes) {
        Ok(block) => {
            return Ok(PChainBlock {
                block,
                proposer: None,
                inner_offset: 0,
            });
        }
        Err(e) => e,
    };
    let outer = proposervm::Block::parse(bytes)
        .map_err(|wrapped| WrappedBlockError::Neither { bare, wrapped })?;
    let block = Block::parse(outer.block.inner()).map_err(WrappedBlockError::Inner)?;
    Ok(PChainBlock {
        block,
        proposer: Some(ProposerDetails::of(outer.id, &outer.block)),
        inner_offset: outer.block.inner_offset(),
    })
}
