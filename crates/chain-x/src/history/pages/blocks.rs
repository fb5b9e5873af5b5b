//! The X-Chain's linear blocks by id, its latest blocks newest first within a time range, and
//! those a node proposed (signed wrappers only), each with its proposervm wrapper's details read
//! back from its container.

use snowline_node_index::IndexReader;
use snowline_query::params::TimeRange;
use snowline_query::{decode_position, encode_position, take_page};
use snowline_store::{Direction, KeysetScans, ReadView};
use snowline_types::container::IndexPath;
use snowline_types::platformvm::ProposerDetails;
use snowline_types::{Id, NodeId, proposervm};

use super::{PageError, XHistoryPages};
use crate::error::XStateError;
use crate::history::rows::BlockRow;
use crate::history::tables::{XhBlocks, XhBlocksByProposer};

/// A linear block with its height and wrapper.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XBlock {
    /// Height.
    pub height: u64,
    /// The block.
    pub row: BlockRow,
    /// The proposervm wrapper's details (none for the unwrapped linear genesis block).
    pub proposer: Option<ProposerDetails>,
}

/// One page of blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XBlockPage {
    /// The blocks, newest first.
    pub blocks: Vec<XBlock>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

fn corrupt(what: String) -> PageError {
    PageError::Read(XStateError::Corrupt(what))
}

/// The wrapper's details of the `X/block` container `id`, if the index holds it.
fn proposer(v: &impl ReadView, id: &Id) -> Result<Option<ProposerDetails>, PageError> {
    let Some(c) = IndexReader::new(v, IndexPath::XBlock)
        .by_id(id)
        .map_err(|e| corrupt(format!("X/block container {id}: {e}")))?
    else {
        return Ok(None);
    };
    let outer = proposervm::Block::parse_vec(c.bytes)
        .map_err(|e| corrupt(format!("X/block container {id}: {e}")))?;
    Ok(Some(ProposerDetails::of(outer.id, &outer.block)))
}

/// The first height from `first` to `tip` whose block time is at least `t` (block times never
/// decrease with height).
fn first_at_or_after(v: &impl ReadView, first: u64, tip: u64, t: u64) -> Result<u64, PageError> {
    let (mut lo, mut hi) = (first, tip.saturating_add(1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let b = v
            .get::<XhBlocks>(&mid)?
            .ok_or_else(|| corrupt(format!("X-Chain block {mid} is not stored")))?;
        if b.block_time >= t {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(lo)
}

impl XHistoryPages {
    /// One page of the linear blocks `node` proposed (signed) with a block time in `range`,
    /// newest first, resuming strictly past `from` (a [`XBlockPage::next`] of the same query).
    pub fn blocks_by_proposer(
        &self,
        node: NodeId,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<XBlockPage, PageError> {
        let from = from
            .map(|b| decode_position::<(u64, u64)>(b).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let window = (range.start, range.end);
        let positions = v.newest_in_window::<XhBlocksByProposer, _>(
            node,
            window,
            from,
            page_size.saturating_add(1),
        )?;
        let size = u32::try_from(page_size).unwrap_or(u32::MAX);
        let page = take_page(positions, size, encode_position);
        let blocks = page
            .items
            .iter()
            .map(|(_, height)| {
                let row = v
                    .get::<XhBlocks>(height)?
                    .ok_or_else(|| corrupt(format!("X-Chain block {height} is not stored")))?;
                let proposer = proposer(v, &row.container_id)?;
                Ok(XBlock {
                    height: *height,
                    row,
                    proposer,
                })
            })
            .collect::<Result<_, PageError>>()?;
        Ok(XBlockPage {
            blocks,
            next: page.next,
        })
    }

    /// The linear block whose proposervm container (or, unwrapped, whose own) id is `id`.
    pub fn block_by_id(&self, id: &Id) -> Result<Option<XBlock>, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let height = match IndexReader::new(v, IndexPath::XBlock)
            .by_id(id)
            .map_err(|e| corrupt(format!("X/block container {id}: {e}")))?
        {
            Some(c) => {
                let outer = proposervm::Block::decode(&c.bytes)
                    .map_err(|e| corrupt(format!("X/block container {id}: {e}")))?;
                let inner = snowline_types::avm::StandardBlock::parse_vec(outer.into_inner())
                    .map_err(|e| corrupt(format!("X/block container {id}: {e}")))?;
                inner.block.height
            }
            None => match v.get::<XhBlocks>(&0)? {
                Some(b) if b.container_id == *id => 0,
                _ => return Ok(None),
            },
        };
        let Some(row) = v.get::<XhBlocks>(&height)? else {
            return Ok(None);
        };
        if row.container_id != *id {
            return Ok(None);
        }
        let proposer = proposer(v, id)?;
        Ok(Some(XBlock {
            height,
            row,
            proposer,
        }))
    }

    /// One page of the linear blocks whose block time is in `range`, newest first, resuming strictly past
    /// `from` (a [`XBlockPage::next`] of the same query).
    pub fn latest_blocks(
        &self,
        range: TimeRange,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<XBlockPage, PageError> {
        let from = from
            .map(|b| decode_position::<u64>(b).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let first = v
            .scan::<XhBlocks, _>(.., Direction::Forward)?
            .next()
            .transpose()?;
        let last = v
            .scan::<XhBlocks, _>(.., Direction::Reverse)?
            .next()
            .transpose()?;
        let (Some((first, _)), Some((tip, _))) = (first, last) else {
            return Ok(XBlockPage {
                blocks: Vec::new(),
                next: None,
            });
        };
        let low = match range.start {
            Some(t) => first_at_or_after(v, first, tip, t)?,
            None => first,
        };
        let high = match range.end {
            Some(t) => first_at_or_after(v, first, tip, t)?,
            None => tip.saturating_add(1),
        };
        let high = from.map_or(high, |f| f.min(high));
        if low >= high {
            return Ok(XBlockPage {
                blocks: Vec::new(),
                next: None,
            });
        }
        let mut rows = v
            .scan::<XhBlocks, _>(low..high, Direction::Reverse)?
            .take(page_size.saturating_add(1))
            .collect::<Result<Vec<_>, _>>()?;
        let next = if rows.len() > page_size {
            rows.truncate(page_size);
            rows.last().map(|(h, _)| encode_position(h))
        } else {
            None
        };
        let blocks = rows
            .into_iter()
            .map(|(height, row)| {
                let proposer = proposer(v, &row.container_id)?;
                Ok(XBlock {
                    height,
                    row,
                    proposer,
                })
            })
            .collect::<Result<_, PageError>>()?;
        Ok(XBlockPage { blocks, next })
    }
}
