//! The P-Chain blocks a node proposed, newest first, within a time range.

use snowline_query::params::TimeRange;
use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{KeysetScans, ReadView};
use snowline_types::NodeId;

use super::{PChainPages, PageError, expect_rows};
use crate::rows::BlockRow;
use crate::tables::{PhBlocks, PhBlocksByProposer};

/// One page of blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPage {
    /// `(height, block)`, newest first.
    pub blocks: Vec<(u64, BlockRow)>,
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
        let from = from
            .map(|b| decode_position::<(u64, u64)>(b).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let window = (range.start, range.end);
        let positions = snapshot.newest_in_window::<PhBlocksByProposer, _>(
            node,
            window,
            from,
            page_size.saturating_add(1),
        )?;
        let page = take_page(positions, page_size_u32(page_size), encode_position);
        let heights: Vec<u64> = page.items.iter().map(|(_, h)| *h).collect();
        let rows = expect_rows(snapshot.multi_get::<PhBlocks>(&heights)?, &heights, "block")?;
        Ok(BlockPage {
            blocks: heights.into_iter().zip(rows).collect(),
            next: page.next,
        })
    }
}

fn page_size_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
