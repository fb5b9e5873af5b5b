//! [`XHistoryPages`]: the Data API's X-Chain reads, each from one store snapshot, as keyset pages.
//! A page resumes strictly past the position its caller carries in a page token (the bytes
//! [`UtxoPage::next`] and [`VertexPage::next`] return); the REST layer authenticates those
//! bytes, this layer gives them meaning. Nothing here knows HTTP.

mod activity;
mod balances;
mod blocks;
mod c_txs;
mod txs;
mod vertices;

pub use activity::LastActivity;
pub use balances::XBalances;
pub use blocks::{XBlock, XBlockPage};
pub use c_txs::{CTx, CTxPosition, CTxQuery, c_kinds};
pub use txs::{XTx, XTxPage, XTxPlace, XTxQuery, tx_type};
pub use vertices::{LatestVertexPage, XVertexEntry};

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use snowline_query::params::SortOrder;
use snowline_query::{FilteredPage, SortPosition, UtxoListing, decode_position, encode_position};
use snowline_store::{Direction, ReadView, Store};
use snowline_types::{Id, ShortId};

use crate::error::XStateError;
use crate::history::reader::{ChainSummary, HistoryUtxo, UtxoOrder, UtxoPosition, XHistoryReader};
use crate::history::rows::{AssetInfo, Holding, UtxoRecord, VertexRow};
use crate::history::tables::XhAssets;

/// Why a page could not be read: the store's one page error, reading the X-Chain history.
pub type PageError = snowline_store::PageError<XStateError>;

/// What a UTXO listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoQuery {
    /// The owners whose UTXOs are listed (a UTXO several of them own is listed once).
    pub addresses: Vec<ShortId>,
    /// UTXOs per page.
    pub page_size: usize,
    /// Only UTXOs of this asset.
    pub asset: Option<Id>,
    /// Only UTXOs of at least this amount.
    pub min_amount: u64,
    /// Spent UTXOs too.
    pub include_spent: bool,
    /// By creation time or by amount, then UTXO id.
    pub order: UtxoOrder,
    /// Ascending or descending.
    pub sort: SortOrder,
}

/// The asset descriptions a page names, read in the page's snapshot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Assets(HashMap<Id, AssetInfo>);

impl Assets {
    /// The description of `asset`; `None` for an asset the index has no `CreateAssetTx` for
    /// (possible only when the chain's genesis was not loaded).
    pub fn get(&self, asset: &Id) -> Option<&AssetInfo> {
        self.0.get(asset)
    }
}

/// One page of UTXOs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoPage {
    /// The UTXOs, in the order asked.
    pub utxos: Vec<HistoryUtxo>,
    /// Every asset the UTXOs hold.
    pub assets: Assets,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// One page of the atomic UTXOs shared with another chain, each with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedUtxoPage {
    /// The UTXOs with their positions, in the order asked.
    pub utxos: Vec<(UtxoPosition, HistoryUtxo)>,
    /// Every asset the UTXOs hold.
    pub assets: Assets,
    /// Where the next page starts, when more may follow: the last UTXO served on a full page,
    /// the last one examined when the page ended early.
    pub next: Option<UtxoPosition>,
}

/// The balances of a set of addresses, with the assets they name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalancesPage {
    /// The sums.
    pub balances: XBalances,
    /// Every asset they hold.
    pub assets: Assets,
}

/// One page of the vertices at a height.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexPage {
    /// `(vertex index, vertex)`, in the order asked.
    pub vertices: Vec<(u64, VertexRow)>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// The Data API's view of the X-Chain history: every call reads one snapshot, so a page is
/// consistent while ingestion writes.
#[derive(Debug, Clone)]
pub struct XHistoryPages {
    pub(super) store: Arc<Store>,
}

fn direction(sort: SortOrder) -> Direction {
    match sort {
        SortOrder::Asc => Direction::Forward,
        SortOrder::Desc => Direction::Reverse,
    }
}

impl XHistoryPages {
    /// Pages over `store` (which holds the history tables).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// One page of the UTXOs `q` asks for, resuming strictly past `from` (a [`UtxoPage::next`]
    /// of the same query). Listed are those spendable on the X-Chain: UTXOs an X-Chain export put
    /// in another chain's atomic memory are spent there, and show in the balances' atomic memory.
    pub fn utxos(&self, q: &UtxoQuery, from: Option<&[u8]>) -> Result<UtxoPage, PageError> {
        let from = from
            .map(|bytes| decode_position::<SortPosition>(bytes).ok_or(PageError::BadPosition))
            .transpose()?
            .map(UtxoPosition::from);
        let snapshot = self.store.snapshot();
        let reader = XHistoryReader::new(&snapshot);
        let page = utxo_page(&reader, q, from, |r| r.holding != Holding::ExportedFromX)?;
        let utxos: Vec<HistoryUtxo> = page.items.into_iter().map(|(_, u)| u).collect();
        let assets = assets(&snapshot, utxos.iter().map(|u| u.utxo.asset_id))?;
        Ok(UtxoPage {
            utxos,
            assets,
            next: page.next.map(|p| encode_position(&SortPosition::from(p))),
        })
    }

    /// One page of the atomic UTXOs the X-Chain shares with `chain`, in `q`'s order, resuming
    /// strictly past `from`: what X exported to `chain` (until `chain` imports it) and what
    /// `chain` exported to X (until X imports it); spent ones too with `include_spent`. Each comes
    /// with its position, for merging with another chain's page of the same listing.
    pub fn shared_utxos(
        &self,
        q: &UtxoQuery,
        chain: Id,
        from: Option<UtxoPosition>,
    ) -> Result<SharedUtxoPage, PageError> {
        let snapshot = self.store.snapshot();
        let reader = XHistoryReader::new(&snapshot);
        let page = utxo_page(&reader, q, from, |r| r.shared_with() == Some(chain))?;
        let assets = assets(&snapshot, page.items.iter().map(|(_, u)| u.utxo.asset_id))?;
        Ok(SharedUtxoPage {
            utxos: page.items,
            assets,
            next: page.next,
        })
    }

    /// The balances of `addresses` as of `at` (Unix seconds; now when `None`), locked or not
    /// as of `now`.
    pub fn balances(
        &self,
        addresses: &[ShortId],
        at: Option<u64>,
        now: u64,
    ) -> Result<BalancesPage, PageError> {
        let snapshot = self.store.snapshot();
        let balances = XHistoryReader::new(&snapshot).balances(addresses, at, now)?;
        let held = balances
            .unlocked
            .keys()
            .chain(balances.locked.keys())
            .copied()
            .chain(
                balances
                    .atomic_unlocked
                    .keys()
                    .chain(balances.atomic_locked.keys())
                    .map(|(_, asset)| *asset),
            );
        let assets = assets(&snapshot, held)?;
        Ok(BalancesPage { balances, assets })
    }

    /// The atomic-memory balances of `addresses` shared with `chain` (as [`Self::balances`]
    /// computes them, as of `at` or now): the sums of [`Self::shared_utxos`]' UTXOs unspent then.
    /// `unlocked` and `locked` are empty.
    pub fn shared_balances(
        &self,
        addresses: &[ShortId],
        chain: Id,
        at: Option<u64>,
        now: u64,
    ) -> Result<BalancesPage, PageError> {
        let mut page = self.balances(addresses, at, now)?;
        let b = &mut page.balances;
        b.unlocked.clear();
        b.locked.clear();
        b.atomic_unlocked.retain(|(with, _), _| *with == chain);
        b.atomic_locked.retain(|(with, _), _| *with == chain);
        Ok(page)
    }

    /// One page of the vertices at `height`, by vertex index in `sort` order, resuming strictly
    /// past `from` (a [`VertexPage::next`] of the same query).
    pub fn vertices(
        &self,
        height: u64,
        sort: SortOrder,
        page_size: usize,
        from: Option<&[u8]>,
    ) -> Result<VertexPage, PageError> {
        let from = from
            .map(|bytes| decode_position::<u64>(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let mut vertices = XHistoryReader::new(&snapshot)
            .vertices_at_height(height, from, direction(sort))?
            .take(page_size.saturating_add(1))
            .collect::<Result<Vec<_>, _>>()?;
        let next = if vertices.len() > page_size {
            vertices.truncate(page_size);
            vertices.last().map(|(index, _)| encode_position(index))
        } else {
            None
        };
        Ok(VertexPage { vertices, next })
    }

    /// Genesis time, first and last container times, highest vertex and block heights.
    pub fn summary(&self) -> Result<ChainSummary, PageError> {
        let snapshot = self.store.snapshot();
        Ok(XHistoryReader::new(&snapshot).summary()?)
    }
}

/// The descriptions of `ids` (each read once, in one batched lookup).
pub(super) fn assets<V: ReadView>(
    view: &V,
    ids: impl Iterator<Item = Id>,
) -> Result<Assets, PageError> {
    let ids: Vec<Id> = ids.collect::<BTreeSet<_>>().into_iter().collect();
    let rows = view.multi_get::<XhAssets>(&ids)?;
    Ok(Assets(
        ids.into_iter()
            .zip(rows)
            .filter_map(|(id, row)| row.map(|info| (id, info)))
            .collect(),
    ))
}

/// One page of `q`'s listing (`snowline_query::utxo_page`) over the X-Chain history's address
/// orders, of the UTXOs whose record `listed` accepts and that hold `q`'s asset.
fn utxo_page<V: ReadView>(
    reader: &XHistoryReader<'_, V>,
    q: &UtxoQuery,
    from: Option<UtxoPosition>,
    listed: impl Fn(&UtxoRecord) -> bool,
) -> Result<FilteredPage<UtxoPosition, HistoryUtxo>, PageError> {
    let listing = UtxoListing {
        page_size: q.page_size,
        min_amount: q.min_amount,
        by_amount: q.order == UtxoOrder::Amount,
        sort: q.sort,
    };
    let dir = direction(q.sort);
    let scans = |start: Option<SortPosition>| {
        let start = start.map(UtxoPosition::from);
        q.addresses
            .iter()
            .map(|a| {
                let scan =
                    reader.utxos_by_address(a, q.order, q.include_spent, start.as_ref(), dir)?;
                Ok(scan.map(|p| p.map(SortPosition::from)))
            })
            .collect::<Result<Vec<_>, XStateError>>()
    };
    let page = snowline_query::utxo_page(
        &listing,
        from.map(SortPosition::from),
        scans,
        |chunk| {
            let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
            reader
                .utxos(&ids)?
                .into_iter()
                .zip(ids)
                .map(|(row, id)| {
                    row.ok_or_else(|| {
                        XStateError::Corrupt(format!(
                            "the address index names UTXO {id}, which is not stored"
                        ))
                    })
                })
                .collect()
        },
        |u: &HistoryUtxo| listed(&u.record) && q.asset.is_none_or(|a| a == u.utxo.asset_id),
        |u| u.record.amount,
    )?;
    Ok(FilteredPage {
        items: page
            .items
            .into_iter()
            .map(|(p, u)| (UtxoPosition::from(p), u))
            .collect(),
        next: page.next.map(UtxoPosition::from),
    })
}
