//! The C-Chain's blocks as the Primary Network's block operations show them (`ph_c_blocks`, read
//! off the `C/block` containers): one by number, hash or proposervm id, the latest newest first
//! within a time range, and those a node proposed.

use snowline_node_index::IndexReader;
use snowline_query::params::TimeRange;
use snowline_store::{Linear, ReadView};
use snowline_types::container::IndexPath;
use snowline_types::{Id, NodeId, coreth};

use super::blocks::{BlockPage, proposed};
use super::chain_blocks::newest;
use super::txs::heights_in;
use super::{PChainPages, PageError};
use crate::PChainError;
use crate::rows::CBlockRow;
use crate::tables::{PhCBlockHashes, PhCBlocks, PhCBlocksByProposer};

/// How a C-Chain block is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CBlockRef {
    /// Its number.
    Number(u64),
    /// Its coreth hash.
    Hash([u8; 32]),
    /// The id the index knows its container by (the proposervm block's id when wrapped).
    Id(Id),
}

impl PChainPages {
    /// The accepted C-Chain block `r` names, with its number.
    pub fn c_block(&self, r: CBlockRef) -> Result<Option<(u64, CBlockRow)>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let number = match r {
            CBlockRef::Number(n) => n,
            CBlockRef::Hash(h) => match v.get::<PhCBlockHashes>(&Id(h))? {
                Some(n) => n,
                None => return Ok(None),
            },
            CBlockRef::Id(id) => {
                let corrupt = |what: String| PageError::Read(PChainError::Corrupt(what));
                let Some(c) = IndexReader::new(v, IndexPath::CBlock)
                    .by_id(&id)
                    .map_err(|e| corrupt(format!("C/block container {id}: {e}")))?
                else {
                    return Ok(None);
                };
                coreth::Block::from_container(&c.bytes)
                    .map_err(|e| corrupt(format!("C/block container {id}: {e}")))?
                    .number()
            }
        };
        let row = v.get::<PhCBlocks>(&number)?.map(|Linear(b)| (number, b));
        Ok(row.filter(|(_, b)| match r {
            CBlockRef::Id(id) => b.proposer.map_or(Id(b.hash), |p| p.id) == id,
            _ => true,
        }))
    }

    /// One page of the C-Chain blocks whose time is in `range`, newest first, resuming strictly
    /// past `from` (a [`BlockPage::next`] of the same query).
    pub fn latest_c_blocks(
        &self,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<BlockPage<CBlockRow>, PageError> {
        let snapshot = self.store.snapshot();
        let heights = heights_in::<PhCBlocks, _>(&snapshot, range, None, |b| b.timestamp)?;
        newest::<PhCBlocks, _>(&snapshot, heights, page_size, from)
    }

    /// One page of the C-Chain blocks `node` proposed with a time in `range`, newest first,
    /// resuming strictly past `from` (a [`BlockPage::next`] of the same query).
    pub fn c_blocks_by_node(
        &self,
        node: NodeId,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<BlockPage<CBlockRow>, PageError> {
        let snapshot = self.store.snapshot();
        proposed::<PhCBlocksByProposer, PhCBlocks, _>(&snapshot, node, range, page_size, from)
    }
}
