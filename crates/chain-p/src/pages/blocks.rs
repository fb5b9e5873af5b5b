//! The P-Chain blocks a node proposed, newest first, within a time range.

use snowline_query::params::TimeRange;
use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{Direction, ReadView};
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
        // Descending scan: from the position (exclusive) or the range's end (exclusive), down
        // to the range's start (inclusive).
        let upper = match from {
            Some(bytes) => {
                Some(decode_position::<(u64, u64)>(bytes).ok_or(PageError::BadPosition)?)
            }
            None => range.end.map(|end| (end, 0)),
        };
        let low = (node, range.start.unwrap_or(0), 0u64);
        let snapshot = self.store.snapshot();
        let positions: Vec<(u64, u64)> = match upper {
            Some((ts, height)) => scan(&snapshot, low..(node, ts, height), page_size)?,
            None => scan(&snapshot, low..=(node, u64::MAX, u64::MAX), page_size)?,
        };
        let page = take_page(positions, page_size_u32(page_size), encode_position);
        let heights: Vec<u64> = page.items.iter().map(|(_, h)| *h).collect();
        let rows = expect_rows(snapshot.multi_get::<PhBlocks>(&heights)?, &heights, "block")?;
        Ok(BlockPage {
            blocks: heights.into_iter().zip(rows).collect(),
            next: page.next,
        })
    }
}

/// `(time, height)` of up to `page_size + 1` entries of `range`, newest first.
fn scan<R: std::ops::RangeBounds<(NodeId, u64, u64)>>(
    view: &impl ReadView,
    range: R,
    page_size: usize,
) -> Result<Vec<(u64, u64)>, PageError> {
    view.scan::<PhBlocksByProposer, _>(range, Direction::Reverse)?
        .take(page_size.saturating_add(1))
        .map(|e| e.map(|((_, ts, h), ())| (ts, h)).map_err(PageError::from))
        .collect()
}

fn page_size_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
