//! A block's txs, a chain's latest txs and blocks, the same across several chains (newest
//! first by block time), and the chains where an address has activity.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::ops::Bound;

use snowline_query::{FilterLimits, FilteredPage, SortOrder, decode_position, encode_position};
use snowline_query::{filtered_page, merge_pages};
use snowline_store::{Direction, Linear, ReadView, Snapshot};
use snowline_types::evm::{Address, B256};

use super::blocks::BlockId;
use super::txs::corrupt;
use super::{EvmPages, EvmReadError, last_block};
use crate::rows::{BlockRow, CursorRow, TxRow};
use crate::tables::{EvBlockHashes, EvBlocks, EvTxs, EvTxsByAddress};

/// A listed tx.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedTx {
    /// Its chain.
    pub chain: u64,
    /// The tx.
    pub tx: TxRow,
}

/// One page of txs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TxPage {
    /// In the listing's order.
    pub txs: Vec<ListedTx>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// A listed block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedBlock {
    /// Its chain.
    pub chain: u64,
    /// Its height.
    pub number: u64,
    /// The block.
    pub block: BlockRow,
}

/// One page of blocks, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockPage {
    /// Newest first.
    pub blocks: Vec<ListedBlock>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// Which txs a listing keeps by outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    /// Every tx.
    Any,
    /// Txs whose receipt says success (a pre-Byzantium receipt, which says nothing, counts).
    Success,
    /// Txs whose receipt says failure.
    Failed,
}

impl StatusFilter {
    fn keeps(self, tx: &TxRow) -> bool {
        match self {
            Self::Any => true,
            Self::Success => tx.status != Some(false),
            Self::Failed => tx.status == Some(false),
        }
    }
}

/// A tx's position across chains: block time, chain, block, index (the order of the latest
/// txs of several chains, newest first).
type TxAt = (u64, u64, u64, u32);

impl EvmPages {
    /// Block `id` of `chain` (`None`: not indexed) with one page of its txs in block order,
    /// resuming strictly past `from`; `page_size` `None` gives every tx of the block.
    pub fn block_txs(
        &self,
        chain: u64,
        id: BlockId,
        page_size: Option<u32>,
        from: Option<&[u8]>,
    ) -> Result<Option<TxPage>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let number = match id {
            BlockId::Number(n) => n,
            BlockId::Hash(h) => match snapshot.get::<EvBlockHashes>(&(chain, h.0))? {
                Some(n) => n,
                None => return Ok(None),
            },
        };
        if snapshot.get::<EvBlocks>(&(chain, number))?.is_none() {
            return Ok(None);
        }
        let after = from
            .map(|b| decode_position::<u32>(b).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        let key = after.map(|i| (chain, number, i));
        let take = page_size.map_or(usize::MAX, |s| (s as usize).saturating_add(1));
        let mut entries = snapshot
            .prefix_scan::<EvTxs, _>(&(chain, number), key.as_ref(), Direction::Forward)?
            .take(take)
            .collect::<Result<Vec<_>, _>>()?;
        let more = page_size.is_some_and(|s| entries.len() > s as usize);
        entries.truncate(entries.len() - usize::from(more));
        let next = more
            .then(|| entries.last().map(|((_, _, i), _)| encode_position(i)))
            .flatten();
        let txs = entries
            .into_iter()
            .map(|(_, Linear(tx))| ListedTx { chain, tx })
            .collect();
        Ok(Some(TxPage { txs, next }))
    }

    /// One page of the latest txs of `chain` kept by `status`, newest first, resuming strictly
    /// past `from` (within the `MAX_EXAMINED` budget).
    pub fn latest_txs(
        &self,
        chain: u64,
        status: StatusFilter,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<TxPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let after = from
            .map(|b| decode_position::<(u64, u32)>(b).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        let high = match after {
            Some((b, i)) => Bound::Excluded((chain, b, i)),
            None => Bound::Included((chain, u64::MAX, u32::MAX)),
        };
        let page = txs_from(&snapshot, chain, high, status, page_size, |_, b, i| (b, i))?;
        Ok(TxPage {
            next: page.next.map(|((b, i), _)| encode_position(&(b, i))),
            txs: listed(chain, page.items),
        })
    }

    /// One page of the latest blocks of `chain`, newest first, resuming strictly past `from`.
    pub fn latest_blocks(
        &self,
        chain: u64,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<BlockPage, EvmReadError> {
        let (snapshot, cursor) = self.open(chain)?;
        let after = from
            .map(|b| decode_position::<u64>(b).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        let high = match after {
            Some(b) => Bound::Excluded((chain, b)),
            None => Bound::Included((chain, u64::MAX)),
        };
        let page = blocks_from(&snapshot, chain, &cursor, high, page_size)?;
        Ok(BlockPage {
            next: page.next.map(|n| encode_position(&n)),
            blocks: page
                .items
                .into_iter()
                .map(|(number, block)| ListedBlock {
                    chain,
                    number,
                    block,
                })
                .collect(),
        })
    }

    /// One page of the latest txs of `chains` (those indexed) kept by `status`, newest first by
    /// block time (then chain id, block, index, each descending), resuming strictly past `from`.
    pub fn latest_txs_across(
        &self,
        chains: &[u64],
        status: StatusFilter,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<TxPage, EvmReadError> {
        let snapshot = self.store.snapshot();
        let after = from
            .map(|b| decode_position::<TxAt>(b).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        let mut pages: Vec<FilteredPage<(TxAt, B256), TxRow>> = Vec::new();
        for &chain in chains {
            let Some(cursor) = cursor_in(&snapshot, chain)? else {
                continue;
            };
            let high = match after {
                None => Bound::Included((chain, u64::MAX, u32::MAX)),
                Some((_, c, b, i)) if c == chain => Bound::Excluded((chain, b, i)),
                Some((ts, c, _, _)) => {
                    match last_before(&snapshot, chain, &cursor, |t| (t, chain) < (ts, c))? {
                        Some(b) => Bound::Included((chain, b, u32::MAX)),
                        None => continue,
                    }
                }
            };
            let page = txs_from(&snapshot, chain, high, status, page_size, |ts, b, i| {
                (ts, chain, b, i)
            })?;
            pages.push(page);
        }
        let page = merge_pages(pages, page_size as usize, SortOrder::Desc);
        Ok(TxPage {
            next: page.next.map(|(at, _)| encode_position(&at)),
            txs: page
                .items
                .into_iter()
                .map(|(((_, chain, _, _), _), tx)| ListedTx { chain, tx })
                .collect(),
        })
    }

    /// One page of the latest blocks of `chains` (those indexed), newest first by block time
    /// (then chain id, then height, descending), resuming strictly past `from`.
    pub fn latest_blocks_across(
        &self,
        chains: &[u64],
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<BlockPage, EvmReadError> {
        let snapshot = self.store.snapshot();
        let after = from
            .map(|b| decode_position::<(u64, u64, u64)>(b).ok_or(EvmReadError::BadPosition))
            .transpose()?;
        let mut pages = Vec::new();
        for &chain in chains {
            let Some(cursor) = cursor_in(&snapshot, chain)? else {
                continue;
            };
            let high = match after {
                None => Bound::Included((chain, u64::MAX)),
                Some((_, c, b)) if c == chain => Bound::Excluded((chain, b)),
                Some((ts, c, _)) => {
                    match last_before(&snapshot, chain, &cursor, |t| (t, chain) < (ts, c))? {
                        Some(b) => Bound::Included((chain, b)),
                        None => continue,
                    }
                }
            };
            let page = blocks_from(&snapshot, chain, &cursor, high, page_size)?;
            let items = page
                .items
                .into_iter()
                .map(|(n, row)| ((row.timestamp, chain, n), row))
                .collect();
            pages.push(FilteredPage {
                items,
                next: page
                    .next
                    .map(|n| time_of(&snapshot, chain, n).map(|ts| (ts, chain, n)))
                    .transpose()?,
            });
        }
        let page = merge_pages(pages, page_size as usize, SortOrder::Desc);
        Ok(BlockPage {
            next: page.next.map(|at| encode_position(&at)),
            blocks: page
                .items
                .into_iter()
                .map(|((_, chain, number), block)| ListedBlock {
                    chain,
                    number,
                    block,
                })
                .collect(),
        })
    }

    /// Which of `chains` are indexed here, and of those, which hold a tx `address` took part in
    /// (the address-to-tx index: sender, recipient, token transfers, internal txs).
    pub fn address_chains(
        &self,
        chains: &[u64],
        address: Address,
    ) -> Result<Vec<(u64, bool)>, EvmReadError> {
        let snapshot = self.store.snapshot();
        let mut out = Vec::new();
        for &chain in chains {
            if cursor_in(&snapshot, chain)?.is_none() {
                continue;
            }
            let active = snapshot.has_prefix::<EvTxsByAddress, _>(&(chain, address.0.0))?;
            out.push((chain, active));
        }
        Ok(out)
    }
}

/// The cursor of `chain` in `view`, when it has indexed a block.
fn cursor_in(view: &Snapshot<'_>, chain: u64) -> Result<Option<CursorRow>, EvmReadError> {
    Ok(view
        .get::<crate::tables::EvCursor>(&chain)?
        .map(|Linear(c)| c)
        .filter(|c| last_block(c).is_some()))
}

/// The last indexed block of `chain` whose time `before` accepts (block times never decrease
/// along a chain, so the accepted blocks are a prefix: a binary search), if any.
pub(super) fn last_before(
    view: &impl ReadView,
    chain: u64,
    cursor: &CursorRow,
    before: impl Fn(u64) -> bool,
) -> Result<Option<u64>, EvmReadError> {
    let Some(last) = last_block(cursor) else {
        return Ok(None);
    };
    let time = |n: u64| time_of(view, chain, n);
    // Invariant: blocks below `lo` are accepted, blocks from `hi` on are not.
    let (mut lo, mut hi) = (cursor.first, last + 1);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(time(mid)?) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(lo.checked_sub(1).filter(|b| *b >= cursor.first))
}

/// The time of indexed block `n` of `chain`.
fn time_of(view: &impl ReadView, chain: u64, n: u64) -> Result<u64, EvmReadError> {
    view.get::<EvBlocks>(&(chain, n))?
        .map(|Linear(b)| b.timestamp)
        .ok_or_else(|| corrupt(format!("chain {chain}'s block {n}, named by the index,")))
}

/// The txs of `chain` at or below `high`, newest first, kept by `status`, as one filtered page
/// whose positions `at(block time, block, index)` makes, each with the tx's hash.
fn txs_from<P: Clone>(
    view: &Snapshot<'_>,
    chain: u64,
    high: Bound<(u64, u64, u32)>,
    status: StatusFilter,
    page_size: u32,
    at: impl Fn(u64, u64, u32) -> P,
) -> Result<FilteredPage<(P, B256), TxRow>, EvmReadError> {
    // The scan reads the rows themselves; the page's fetch takes them back in the order the
    // scan gave them (every position drawn is fetched: nothing ends the page early).
    let scanned = RefCell::new(VecDeque::new());
    let mut time: Option<(u64, u64)> = None;
    let entries = view
        .scan::<EvTxs, _>((Bound::Included((chain, 0, 0)), high), Direction::Reverse)?
        .map(|e| {
            let ((_, b, i), Linear(tx)) = e?;
            let ts = match time {
                Some((n, ts)) if n == b => ts,
                _ => {
                    let ts = time_of(view, chain, b)?;
                    time = Some((b, ts));
                    ts
                }
            };
            let position = (at(ts, b, i), tx.hash);
            scanned.borrow_mut().push_back(tx);
            Ok::<_, EvmReadError>(position)
        });
    filtered_page(
        entries,
        FilterLimits::page(page_size as usize),
        |chunk: &[(P, B256)]| {
            let mut rows = scanned.borrow_mut();
            let n = chunk.len().min(rows.len());
            Ok(rows.drain(..n).collect())
        },
        |_, tx| status.keeps(tx),
        |_| false,
    )
}

/// The blocks of `chain` at or below `high`, newest first: one page. Every block from the
/// cursor's first to its last is indexed, so the page's numbers are known and read with one
/// batched lookup rather than a reverse scan.
fn blocks_from(
    view: &impl ReadView,
    chain: u64,
    cursor: &CursorRow,
    high: Bound<(u64, u64)>,
    page_size: u32,
) -> Result<FilteredPage<u64, BlockRow>, EvmReadError> {
    let empty = FilteredPage {
        items: Vec::new(),
        next: None,
    };
    let top = match high {
        Bound::Included((_, b)) => Some(b),
        Bound::Excluded((_, b)) => b.checked_sub(1),
        Bound::Unbounded => Some(u64::MAX),
    };
    let (Some(top), Some(last)) = (top, last_block(cursor)) else {
        return Ok(empty);
    };
    let top = top.min(last);
    if top < cursor.first {
        return Ok(empty);
    }
    let size = u64::from(page_size.max(1));
    let bottom = top.saturating_sub(size - 1).max(cursor.first);
    let keys: Vec<(u64, u64)> = (bottom..=top).rev().map(|n| (chain, n)).collect();
    let items = view
        .multi_get::<EvBlocks>(&keys)?
        .into_iter()
        .zip(&keys)
        .map(|(row, (_, n))| {
            row.map(|Linear(b)| (*n, b))
                .ok_or_else(|| corrupt(format!("the cursor covers block {n}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let next = (bottom > cursor.first).then_some(bottom);
    Ok(FilteredPage { items, next })
}

/// Filtered-page items of one chain as listed txs.
fn listed<P>(chain: u64, items: Vec<((P, B256), TxRow)>) -> Vec<ListedTx> {
    items
        .into_iter()
        .map(|(_, tx)| ListedTx { chain, tx })
        .collect()
}
