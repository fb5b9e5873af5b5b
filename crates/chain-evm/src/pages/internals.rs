//! The internal transactions from or to an address, newest first, within a block range.

use snowline_query::params::BlockRange;
use snowline_query::{encode_position, take_page};
use snowline_store::{Linear, ReadView};
use snowline_types::evm::{Address, B256};

use super::scan::newest_first;
use super::txs::parts_of_many;
use super::{EvmPages, EvmReadError};
use crate::error::EvmError;
use crate::rows::InternalRow;
use crate::tables::{EvBlocks, EvInternalByAddress};

/// One page of internal transactions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InternalPage {
    /// Newest first (by block, then tx, then frame, each descending).
    pub rows: Vec<InternalRow>,
    /// The hash of each row's block, in the same order.
    pub block_hashes: Vec<B256>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// One page of the internal transactions (the listed frames: value-carrying `CALL` /
    /// `CALLCODE`, every `CREATE` / `CREATE2`) from or to `address` on `chain` in blocks
    /// `range`, newest first, resuming strictly past `from`. A range reaching blocks the node
    /// served without call traces is [`EvmReadError::Untraced`]: their frames are not known.
    pub fn internals(
        &self,
        chain: u64,
        address: Address,
        range: BlockRange,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<InternalPage, EvmReadError> {
        let (snapshot, cursor) = self.open(chain)?;
        if let (Some(untraced), false) = (cursor.untraced_from, cursor.traced_before(range.end)) {
            return Err(EvmReadError::Untraced(untraced));
        }
        let entries = newest_first::<EvInternalByAddress, u32, u32>(
            &snapshot,
            chain,
            address.0.0,
            range,
            from,
            (page_size as usize).saturating_add(1),
        )?;
        let page = take_page(entries, page_size, |((_, _, b, t, f), _)| {
            encode_position(&(*b, *t, *f))
        });
        let frames: Vec<(u64, u32, u32)> = page
            .items
            .iter()
            .map(|((_, _, b, t, f), ())| (*b, *t, *f))
            .collect();
        let rows = frames_of(&snapshot, chain, &frames)?;
        let block_hashes = block_hashes(&snapshot, chain, rows.iter().map(|r| r.block))?;
        Ok(InternalPage {
            rows,
            block_hashes,
            next: page.next,
        })
    }
}

/// The rows of `frames` (block, tx index, frame), in order, from their txs' parts: one batched
/// lookup of each distinct tx's parts (a page's frames of one tx are adjacent).
fn frames_of(
    view: &impl ReadView,
    chain: u64,
    frames: &[(u64, u32, u32)],
) -> Result<Vec<InternalRow>, EvmReadError> {
    let mut txs: Vec<(u64, u32)> = frames.iter().map(|&(b, t, _)| (b, t)).collect();
    txs.dedup();
    let parts = parts_of_many(view, chain, &txs)?;
    let mut found = txs.iter().zip(&parts).peekable();
    frames
        .iter()
        .map(|&(b, t, f)| {
            while found.next_if(|(tx, _)| **tx != (b, t)).is_some() {}
            found
                .peek()
                .and_then(|(_, p)| p.internals.iter().find(|r| r.frame == f))
                .cloned()
                .ok_or_else(|| {
                    EvmReadError::Read(EvmError::Corrupt(format!(
                        "an address names frame {f} of tx {t} of block {b}, which its parts lack"
                    )))
                })
        })
        .collect()
}

/// The hashes of `blocks` (in order, repeats allowed), each block read once.
fn block_hashes(
    view: &impl ReadView,
    chain: u64,
    blocks: impl Iterator<Item = u64>,
) -> Result<Vec<B256>, EvmReadError> {
    let blocks: Vec<u64> = blocks.collect();
    let mut distinct: Vec<(u64, u64)> = blocks.iter().map(|b| (chain, *b)).collect();
    distinct.dedup();
    let rows = view.multi_get::<EvBlocks>(&distinct)?;
    let mut found = distinct.iter().zip(rows);
    let mut current: Option<(u64, B256)> = None;
    blocks
        .into_iter()
        .map(|b| {
            if current.is_none_or(|(n, _)| n != b) {
                let ((_, n), row) = found.next().ok_or_else(|| missing(b))?;
                let Linear(row) = row.ok_or_else(|| missing(*n))?;
                current = Some((*n, row.hash));
            }
            current.map(|(_, h)| h).ok_or_else(|| missing(b))
        })
        .collect()
}

fn missing(block: u64) -> EvmReadError {
    EvmReadError::Read(EvmError::Corrupt(format!(
        "an internal transaction names block {block}, which is not stored"
    )))
}
