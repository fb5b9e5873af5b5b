//! The P-Chain blocks a node proposed, newest first, within a time range.

use snowline_query::params::TimeRange;
use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{KeysetScans, Linear, ReadView, Table};
use snowline_types::NodeId;

use super::{PChainPages, PageError, expect_rows};
use crate::rows::BlockRow;
use crate::tables::{PhBlocks, PhBlocksByProposer};

/// One page of blocks (the P-Chain's, or the C-Chain's `CBlockRow`s).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPage<B = BlockRow> {
    /// `(height, block)`, newest first.
    pub blocks: Vec<(u64, B)>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl PChainPages {
    /// One page of the blocks `node` proposed with a time in `range`, newest first, resuming
    /// strictly past `from` (a [`BlockPage::next`] of the same query).
    pub fn blocks_by_node(
        &self,
        node: NodeId,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<BlockPage, PageError> {
        let snapshot = self.store.snapshot();
        proposed::<PhBlocksByProposer, PhBlocks, _>(&snapshot, node, range, page_size, from)
    }
}

/// One page of the blocks of table `T` that `node` proposed by the order `O` (`(node, time,
/// height)`), with a time in `range`, newest first, resuming strictly past `from`.
pub(super) fn proposed<O, T, R>(
    view: &impl ReadView,
    node: NodeId,
    range: TimeRange,
    page_size: usize,
    from: Option<&[u8]>,
) -> Result<BlockPage<R>, PageError>
where
    O: Table<Key = (NodeId, u64, u64), Value = ()>,
    T: Table<Key = u64, Value = Linear<R>>,
{
    let from = from
        .map(|b| decode_position::<(u64, u64)>(b).ok_or(PageError::BadPosition))
        .transpose()?;
    let window = (range.start, range.end);
    let positions =
        view.newest_in_window::<O, _>(node, window, from, page_size.saturating_add(1))?;
    let page = take_page(positions, page_size_u32(page_size), encode_position);
    let heights: Vec<u64> = page.items.iter().map(|(_, h)| *h).collect();
    let rows = expect_rows(view.multi_get::<T>(&heights)?, &heights, "block")?;
    Ok(BlockPage {
        blocks: heights.into_iter().zip(rows).collect(),
        next: page.next,
    })
}

fn page_size_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
