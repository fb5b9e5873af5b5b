//! The P-Chain's blocks by id, and its latest blocks newest first within a time range.

use snowline_node_index::IndexReader;
use snowline_query::params::TimeRange;
use snowline_query::{decode_position, encode_position};
use snowline_store::{Direction, Linear, ReadView, Table};
use snowline_types::Id;
use snowline_types::container::IndexPath;
use snowline_types::platformvm::parse_block;

use super::blocks::BlockPage;
use super::txs::height_range;
use super::{PChainPages, PageError};
use crate::PChainError;
use crate::rows::BlockRow;
use crate::tables::PhBlocks;

impl PChainPages {
    /// The accepted block `id` (the proposervm block's id when wrapped) with its height.
    pub fn block_by_id(&self, id: &Id) -> Result<Option<(u64, BlockRow)>, PageError> {
        let snapshot = self.store.snapshot();
        let corrupt = |what: String| PageError::Read(PChainError::Corrupt(what));
        let Some(container) = IndexReader::new(&snapshot, IndexPath::PBlock)
            .by_id(id)
            .map_err(|e| corrupt(format!("P-Chain block {id}: {e}")))?
        else {
            return Ok(None);
        };
        let parsed = parse_block(&container.bytes)
            .map_err(|e| corrupt(format!("P-Chain block {id}: {e}")))?;
        let height = parsed.block.block.height();
        Ok(snapshot
            .get::<PhBlocks>(&height)?
            .map(|Linear(b)| (height, b))
            .filter(|(_, b)| b.id == *id))
    }

    /// One page of the blocks whose time is in `range`, newest first, resuming strictly past
    /// `from` (a [`BlockPage::next`] of the same query).
    pub fn latest_blocks(
        &self,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<BlockPage, PageError> {
        let snapshot = self.store.snapshot();
        let heights = height_range(&snapshot, range)?;
        newest::<PhBlocks, _>(&snapshot, heights, page_size, from)
    }
}

/// One page of the blocks of table `T` at heights `[low, high)`, newest first, resuming strictly
/// past `from` (a [`BlockPage::next`] of the same query).
pub(super) fn newest<T, R>(
    view: &impl ReadView,
    (low, high): (u64, u64),
    page_size: usize,
    from: Option<&[u8]>,
) -> Result<BlockPage<R>, PageError>
where
    T: Table<Key = u64, Value = Linear<R>>,
{
    let from = from
        .map(|b| decode_position::<u64>(b).ok_or(PageError::BadPosition))
        .transpose()?;
    let high = from.map_or(high, |f| f.min(high));
    if low >= high {
        return Ok(BlockPage {
            blocks: Vec::new(),
            next: None,
        });
    }
    let mut blocks = view
        .scan::<T, _>(low..high, Direction::Reverse)?
        .take(page_size.saturating_add(1))
        .map(|e| e.map(|(h, Linear(b))| (h, b)).map_err(PageError::from))
        .collect::<Result<Vec<_>, _>>()?;
    let next = if blocks.len() > page_size {
        blocks.truncate(page_size);
        blocks.last().map(|(h, _)| encode_position(h))
    } else {
        None
    };
    Ok(BlockPage { blocks, next })
}
