//! [`XHistoryPages`]: the Data API's X-Chain reads, each from one store snapshot, as keyset pages.
//! A page resumes strictly past the position its caller carries in a page token (the bytes
//! [`UtxoPage::next`] and [`VertexPage::next`] return); the REST layer authenticates those
//! bytes, this layer gives them meaning. Nothing here knows HTTP.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use snowline_query::params::SortOrder;
use snowline_query::{
    FilterLimits, FilteredPage, PositionReader, PositionWriter, filtered_page, merge_sorted,
};
use snowline_store::{Direction, ReadView, Store};
use snowline_types::{Id, ShortId};

use super::balances::XBalances;
use super::reader::{ChainSummary, HistoryUtxo, UtxoOrder, UtxoPosition, XHistoryReader};
use super::rows::{AssetInfo, Holding, UtxoRecord, VertexRow};
use super::tables::XhAssets;
use crate::error::XStateError;

/// UTXOs examined (filtered out or kept) for one page at most. A page that reaches it before
/// filling ends early, with a position after the last UTXO examined: the cost of a page stays
/// bounded however selective the asset or minimum amount is, and paging still visits every
/// match exactly once.
pub const MAX_EXAMINED: usize = 10_000;

/// Why a page could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The position to resume from is not one this layer wrote (a token for another listing).
    #[error("the page position does not fit this listing")]
    BadPosition,
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] XStateError),
}

impl From<snowline_store::StoreError> for PageError {
    fn from(e: snowline_store::StoreError) -> Self {
        PageError::Read(e.into())
    }
}

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
    store: Arc<Store>,
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
        let from = from.map(read_utxo_position).transpose()?;
        let snapshot = self.store.snapshot();
        let reader = XHistoryReader::new(&snapshot);
        let page = utxo_page(&reader, q, from, |r| r.holding != Holding::ExportedFromX)?;
        let utxos: Vec<HistoryUtxo> = page.items.into_iter().map(|(_, u)| u).collect();
        let assets = assets(&snapshot, utxos.iter().map(|u| u.utxo.asset_id))?;
        Ok(UtxoPage {
            utxos,
            assets,
            next: page.next.map(|p| {
                let mut w = PositionWriter::new();
                w.u64(p.sort).bytes32(&p.utxo_id.0);
                w.into_bytes()
            }),
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
            .map(|bytes| {
                let mut r = PositionReader::new(bytes);
                let index = r.u64().map_err(|_| PageError::BadPosition)?;
                r.finish().map_err(|_| PageError::BadPosition)?;
                Ok::<_, PageError>(index)
            })
            .transpose()?;
        let snapshot = self.store.snapshot();
        let mut vertices = XHistoryReader::new(&snapshot)
            .vertices_at_height(height, from, direction(sort))?
            .take(page_size.saturating_add(1))
            .collect::<Result<Vec<_>, _>>()?;
        let next = if vertices.len() > page_size {
            vertices.truncate(page_size);
            vertices.last().map(|(index, _)| {
                let mut w = PositionWriter::new();
                w.u64(*index);
                w.into_bytes()
            })
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
fn assets<V: ReadView>(view: &V, ids: impl Iterator<Item = Id>) -> Result<Assets, PageError> {
    let ids: Vec<Id> = ids.collect::<BTreeSet<_>>().into_iter().collect();
    let rows = view.multi_get::<XhAssets>(&ids)?;
    Ok(Assets(
        ids.into_iter()
            .zip(rows)
            .filter_map(|(id, row)| row.map(|info| (id, info)))
            .collect(),
    ))
}

fn read_utxo_position(bytes: &[u8]) -> Result<UtxoPosition, PageError> {
    let mut r = PositionReader::new(bytes);
    let sort = r.u64().map_err(|_| PageError::BadPosition)?;
    let utxo_id = Id(r.bytes32().map_err(|_| PageError::BadPosition)?);
    r.finish().map_err(|_| PageError::BadPosition)?;
    Ok(UtxoPosition { sort, utxo_id })
}

/// One page: up to `page_size` UTXOs strictly after `from` whose record `listed` accepts and
/// that match `q`'s filters, and the position to resume from when more may follow. Each
/// address's order is scanned from `from` and the scans merged (a UTXO several of the addresses
/// own comes out once); rows are read in chunks with batched lookups
/// (`snowline_query::filtered_page`). With no `from`, ascending by amount with a minimum starts
/// at the minimum rather than filtering up to it.
fn utxo_page<V: ReadView>(
    reader: &XHistoryReader<'_, V>,
    q: &UtxoQuery,
    from: Option<UtxoPosition>,
    listed: impl Fn(&UtxoRecord) -> bool,
) -> Result<FilteredPage<UtxoPosition, HistoryUtxo>, PageError> {
    let from = from.or_else(|| {
        (q.order == UtxoOrder::Amount && q.sort == SortOrder::Asc && q.min_amount > 0).then(|| {
            UtxoPosition {
                sort: q.min_amount - 1,
                utxo_id: Id([0xff; 32]),
            }
        })
    });
    let dir = direction(q.sort);
    let failure: RefCell<Option<XStateError>> = RefCell::new(None);
    let mut sources = Vec::with_capacity(q.addresses.len());
    for addr in &q.addresses {
        let scan = reader.utxos_by_address(addr, q.order, q.include_spent, from.as_ref(), dir)?;
        let failure = &failure;
        sources.push(scan.map_while(move |r| match r {
            Ok(p) => Some(p),
            Err(e) => {
                *failure.borrow_mut() = Some(e);
                None
            }
        }));
    }
    // Equal positions (one UTXO owned by several of the addresses) come out once.
    let merged = merge_sorted(sources, q.sort, |p: &UtxoPosition| *p).map(Ok);
    let limits = FilterLimits {
        page_size: q.page_size,
        max_examined: MAX_EXAMINED,
    };
    let page = filtered_page(
        merged,
        limits,
        |chunk: &[UtxoPosition]| {
            let ids: Vec<Id> = chunk.iter().map(|p| p.utxo_id).collect();
            reader
                .utxos(&ids)?
                .into_iter()
                .zip(chunk)
                .map(|(row, p)| {
                    row.ok_or_else(|| {
                        XStateError::Corrupt(format!(
                            "the address index names UTXO {}, which is not stored",
                            p.utxo_id
                        ))
                    })
                })
                .collect()
        },
        |_, u: &HistoryUtxo| {
            listed(&u.record)
                && q.asset.is_none_or(|a| a == u.utxo.asset_id)
                && u.record.amount >= q.min_amount
        },
        // Descending by amount: nothing below the minimum can follow.
        |p| q.order == UtxoOrder::Amount && q.sort == SortOrder::Desc && p.sort < q.min_amount,
    );
    if let Some(e) = failure.into_inner() {
        return Err(e.into());
    }
    Ok(page?)
}
