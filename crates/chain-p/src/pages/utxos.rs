//! The UTXOs of a set of addresses on the P-Chain: one keyset-paged merge of each address's
//! order (by creation time or amount, then UTXO id), a UTXO several of them own listed once.
//! Listed are the UTXOs spendable on the P-Chain: its own (stakes and rewards included) and
//! those other chains exported to it; what the P-Chain exported is spent on the destination.

use snowline_query::params::UtxoSortBy;
use snowline_query::{FilterLimits, FilteredPage, SortOrder, filtered_page};
use snowline_store::ReadView;
use snowline_types::platformvm::Utxo;
use snowline_types::{Id, ShortId};

use super::scan::{Position, ScanFailure, merged, read_position, write_position};
use super::{MAX_EXAMINED, PChainPages, PageError, expect_rows};
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
        let from = from.map(read_position).transpose()?;
        let snapshot = self.store.snapshot();
        let page = utxo_page(&snapshot, q, from, |row| {
            row.holding != Holding::ExportedFromP
        })?;
        Ok(UtxoPage {
            utxos: page.items.into_iter().map(|(_, u)| u).collect(),
            next: page.next.map(write_position),
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

/// One page: up to `page_size` UTXOs strictly after `from` whose row `listed` accepts and that
/// hold at least the minimum, and the position to resume from when more may follow. With no
/// `from`, ascending by amount with a minimum starts at the minimum rather than filtering up to
/// it.
fn utxo_page(
    v: &impl ReadView,
    q: &PUtxoQuery,
    from: Option<Position>,
    listed: impl Fn(&UtxoRow) -> bool,
) -> Result<FilteredPage<Position, PUtxo>, PageError> {
    let from = from.or_else(|| {
        (q.order == UtxoSortBy::Amount && q.sort == SortOrder::Asc && q.min_amount > 0)
            .then(|| (q.min_amount - 1, Id([0xff; 32])))
    });
    let failure = ScanFailure::default();
    let (keys, f) = (&q.addresses, &failure);
    let positions: Box<dyn Iterator<Item = Result<Position, PageError>>> =
        match (q.order, q.include_spent) {
            (UtxoSortBy::Timestamp, false) => {
                Box::new(merged::<PhUnspentByTime, _, _>(v, keys, from, q.sort, f)?)
            }
            (UtxoSortBy::Amount, false) => {
                Box::new(merged::<PhUnspentByAmount, _, _>(v, keys, from, q.sort, f)?)
            }
            (UtxoSortBy::Timestamp, true) => {
                Box::new(merged::<PhAllByTime, _, _>(v, keys, from, q.sort, f)?)
            }
            (UtxoSortBy::Amount, true) => {
                Box::new(merged::<PhAllByAmount, _, _>(v, keys, from, q.sort, f)?)
            }
        };
    let limits = FilterLimits {
        page_size: q.page_size,
        max_examined: MAX_EXAMINED,
    };
    let page = filtered_page(
        positions,
        limits,
        |chunk: &[Position]| fetch(v, chunk),
        |_, u: &PUtxo| listed(&u.row) && u.row.amount >= q.min_amount,
        // Descending by amount: nothing below the minimum can follow.
        |(sort, _)| {
            q.order == UtxoSortBy::Amount && q.sort == SortOrder::Desc && *sort < q.min_amount
        },
    );
    failure.check()?;
    page
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
