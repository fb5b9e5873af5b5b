//! The UTXOs of a set of addresses on the P-Chain: one keyset-paged merge of each address's
//! order (by creation time or amount, then UTXO id), a UTXO several of them own listed once.
//! Listed are the UTXOs spendable on the P-Chain: its own (stakes and rewards included) and
//! those other chains exported to it; what the P-Chain exported is spent on the destination.

use snowline_query::params::UtxoSortBy;
use snowline_query::{FilteredPage, SortOrder, UtxoListing, decode_position, encode_position};
use snowline_store::{KeysetScans, ReadView};
use snowline_types::platformvm::Utxo;
use snowline_types::{Id, ShortId};

use super::{PChainPages, PageError, Position, direction, expect_rows};
use crate::error::PChainError;
use crate::rows::{Holding, UtxoRow};
use crate::tables::{PhAllByAmount, PhAllByTime, PhUnspentByAmount, PhUnspentByTime, PhUtxos};

/// What a UTXO listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PUtxoQuery {
    /// The owners whose UTXOs are listed.
    pub addresses: Vec<ShortId>,
    /// UTXOs per page.
    pub page_size: usize,
    /// Only UTXOs of at least this amount.
    pub min_amount: u64,
    /// Spent UTXOs too.
    pub include_spent: bool,
    /// By creation time or by amount, then UTXO id.
    pub order: UtxoSortBy,
    /// Ascending or descending.
    pub sort: SortOrder,
}

/// One UTXO as listed: its id, its parsed bytes, and its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PUtxo {
    /// The UTXO id.
    pub id: Id,
    /// The UTXO.
    pub utxo: Utxo,
    /// Its history.
    pub row: UtxoRow,
}

/// One page of UTXOs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoPage {
    /// The UTXOs, in the order asked.
    pub utxos: Vec<PUtxo>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// One page of the atomic UTXOs shared with another chain, each with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedUtxoPage {
    /// The UTXOs with their positions, in the order asked.
    pub utxos: Vec<(Position, PUtxo)>,
    /// Where the next page starts, when more may follow: the last UTXO served on a full page,
    /// the last one examined when the page ended early.
    pub next: Option<Position>,
}

impl PChainPages {
    /// One page of the UTXOs `q` asks for, resuming strictly past `from` (a [`UtxoPage::next`]
    /// of the same query).
    pub fn utxos(&self, q: &PUtxoQuery, from: Option<&[u8]>) -> Result<UtxoPage, PageError> {
        let from = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let page = utxo_page(&snapshot, q, from, |row| {
            row.holding != Holding::ExportedFromP
        })?;
        Ok(UtxoPage {
            utxos: page.items.into_iter().map(|(_, u)| u).collect(),
            next: page.next.as_ref().map(encode_position),
        })
    }

    /// One page of the atomic UTXOs the P-Chain shares with `chain`, in `q`'s order, resuming
    /// strictly past `from`: what P exported to `chain` (until `chain` imports it) and what
    /// `chain` exported to P (until P imports it); spent ones too with `include_spent`. Each
    /// comes with its position, for merging with another chain's page of the same listing.
    pub fn shared_utxos(
        &self,
        q: &PUtxoQuery,
        chain: Id,
        from: Option<Position>,
    ) -> Result<SharedUtxoPage, PageError> {
        let snapshot = self.store.snapshot();
        let page = utxo_page(&snapshot, q, from, |row| row.shared_with() == Some(chain))?;
        Ok(SharedUtxoPage {
            utxos: page.items,
            next: page.next,
        })
    }
}

/// One page of `q`'s listing (`snowline_query::utxo_page`) over the P-Chain's address orders,
/// of the UTXOs whose row `listed` accepts.
fn utxo_page(
    v: &impl ReadView,
    q: &PUtxoQuery,
    from: Option<Position>,
    listed: impl Fn(&UtxoRow) -> bool,
) -> Result<FilteredPage<Position, PUtxo>, PageError> {
    let listing = UtxoListing {
        page_size: q.page_size,
        min_amount: q.min_amount,
        by_amount: q.order == UtxoSortBy::Amount,
        sort: q.sort,
    };
    let dir = direction(q.sort);
    let scans = |start: Option<Position>| {
        q.addresses
            .iter()
            .map(|a| {
                let scan: Box<dyn Iterator<Item = _> + '_> = match (q.order, q.include_spent) {
                    (UtxoSortBy::Timestamp, false) => {
                        Box::new(v.positions::<PhUnspentByTime, _>(a, start, dir)?)
                    }
                    (UtxoSortBy::Amount, false) => {
                        Box::new(v.positions::<PhUnspentByAmount, _>(a, start, dir)?)
                    }
                    (UtxoSortBy::Timestamp, true) => {
                        Box::new(v.positions::<PhAllByTime, _>(a, start, dir)?)
                    }
                    (UtxoSortBy::Amount, true) => {
                        Box::new(v.positions::<PhAllByAmount, _>(a, start, dir)?)
                    }
                };
                Ok(scan.map(|p| p.map_err(PageError::from)))
            })
            .collect::<Result<Vec<_>, PageError>>()
    };
    snowline_query::utxo_page(
        &listing,
        from,
        scans,
        |chunk| fetch(v, chunk),
        |u: &PUtxo| listed(&u.row),
        |u| u.row.amount,
    )
}

/// The UTXOs at `chunk`'s positions, parsed, in one batched lookup.
fn fetch(view: &impl ReadView, chunk: &[Position]) -> Result<Vec<PUtxo>, PageError> {
    let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
    let rows = expect_rows(view.multi_get::<PhUtxos>(&ids)?, &ids, "UTXO")?;
    rows.into_iter()
        .zip(ids)
        .map(|(row, id)| {
            let utxo = row
                .utxo()
                .map_err(|e| PChainError::Corrupt(format!("UTXO {id}: {e}")))?;
            Ok(PUtxo { id, utxo, row })
        })
        .collect()
}
