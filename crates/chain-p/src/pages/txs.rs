//! P-Chain txs as the Data API shows them: one by id, and listings newest (or oldest) first,
//! of a set of addresses (their merged `ph_txs_by_address` orders, a tx several of them take
//! part in listed once), of an L1 validation (`ph_txs_by_l1_validation`, narrowed to the
//! addresses' txs when there are some) or of the whole chain (the blocks' txs), filtered by tx
//! type and block time. A tx comes with its block, its unsigned body (read back from the block's
//! container), the UTXOs it consumed and emitted, and the staker it adds or settles. The
//! staking listing keeps the staker txs whose staker is current (pending or active at the chain
//! time) among those the addresses take part in, from their entries of the staker txs not
//! settled (`ph_staking_by_address`).

use std::collections::{BTreeSet, HashMap};
use std::ops::Bound;

use snowline_node_index::IndexReader;
use snowline_query::params::TimeRange;
use snowline_query::{FilterLimits, FilteredPage};
use snowline_query::{SortOrder, decode_position, encode_position, filtered_page, merged_page};
use snowline_store::{KeysetScans, Linear, ReadView, StoreError};
use snowline_types::container::IndexPath;
use snowline_types::platformvm::{UnsignedTx, parse_block, parse_nested_tx};
use snowline_types::{Id, ShortId};

use super::staking::StakerStatus;
use super::utxos::PUtxo;
use super::{PChainPages, PageError, direction, expect_rows, tip};
use crate::error::PChainError;
use crate::rows::{BlockRow, L1ValidatorRow, StakerRow, TxRow};
use crate::tables::{
    ORDER_CURRENT_STAKING, PhBlocks, PhL1Validators, PhOrders, PhStakers, PhStakingByAddress,
    PhTxUtxos, PhTxs, PhTxsByAddress, PhTxsByL1Validation, PhUtxos, TX_EMITTED,
};
use crate::tx_index::l1_validations;

/// What a tx listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PTxQuery {
    /// The addresses whose txs are listed (empty: every tx of the chain).
    pub addresses: Vec<ShortId>,
    /// Only the txs of this L1 validation (its creation, weight changes, top-ups, disable).
    pub l1_validation: Option<Id>,
    /// Only txs of these Data API types (`PChainTransactionType`; empty: any).
    pub types: BTreeSet<String>,
    /// Only txs whose block time is in the range.
    pub range: TimeRange,
    /// Txs per page.
    pub page_size: usize,
    /// By block height, then (within a block) by tx id for an address's txs, by position for
    /// the chain's.
    pub sort: SortOrder,
}

/// One P-Chain tx with everything its Data API record shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PTx {
    /// The tx id.
    pub id: Id,
    /// Its block's height and time, its position, its type.
    pub row: TxRow,
    /// The block holding it.
    pub block: BlockRow,
    /// The unsigned tx.
    pub tx: UnsignedTx,
    /// The UTXOs it consumed, in input order.
    pub consumed: Vec<PUtxo>,
    /// The UTXOs it emitted, by output index.
    pub emitted: Vec<PUtxo>,
    /// The staker it adds (a staker tx) or settles (a `RewardValidatorTx`), with its tx id.
    pub staker: Option<(Id, StakerRow)>,
    /// The L1 validators it registers or changes (an L1 tx), as its block left them.
    pub l1: Vec<PTxL1>,
}

/// An L1 validator an L1 tx registers or changes, as the tx's block left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PTxL1 {
    /// Its validation id.
    pub validation_id: Id,
    /// The validator (its node and L1).
    pub row: L1ValidatorRow,
    /// Its weight after the block.
    pub weight: u64,
    /// Its balance left after the block, nAVAX.
    pub remaining_balance: u64,
    /// What the tx added to its balance (negative: the balance it returned); `None` for a
    /// weight change that returns nothing.
    pub balance_change: Option<i128>,
}

/// One page of txs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PTxPage {
    /// The txs, in the order asked.
    pub txs: Vec<PTx>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// A position in an address's order: `(height, tx id)`.
type AddressPosition = (u64, Id);
/// A position in the chain's order: `(height, position in the block, tx id)`.
type ChainPosition = (u64, u64, Id);

impl PChainPages {
    /// The accepted tx `id` with its details; `None` for an id the chain never accepted in a
    /// block (genesis txs are in none).
    pub fn tx_details(&self, id: &Id) -> Result<Option<PTx>, PageError> {
        let snapshot = self.store.snapshot();
        let Some(Linear(row)) = snapshot.get::<PhTxs>(id)? else {
            return Ok(None);
        };
        if row.event.height == 0 {
            return Ok(None);
        }
        let mut blocks = Blocks::default();
        Ok(details(&snapshot, &mut blocks, vec![(*id, row)])?.pop())
    }

    /// One page of txs as `q` asks, resuming strictly past `from` (a [`PTxPage::next`] of the
    /// same query).
    pub fn txs(&self, q: &PTxQuery, from: Option<&[u8]>) -> Result<PTxPage, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let heights = height_range(v, q.range)?;
        let keep_type = |row: &TxRow| {
            q.types.is_empty() || q.types.contains(UnsignedTx::data_api_type_of(row.type_id))
        };
        let mut blocks = Blocks::default();
        let keyed = !q.addresses.is_empty() || q.l1_validation.is_some();
        let (ids, next): (Vec<(Id, TxRow)>, Option<Vec<u8>>) = if !keyed {
            let from = from
                .map(|b| decode_position::<ChainPosition>(b).ok_or(PageError::BadPosition))
                .transpose()?;
            let page = chain_page(v, q, heights, from, keep_type)?;
            (
                page.items
                    .into_iter()
                    .map(|((_, _, id), r)| (id, r))
                    .collect(),
                page.next.as_ref().map(encode_position),
            )
        } else {
            let from = from
                .map(|b| decode_position::<AddressPosition>(b).ok_or(PageError::BadPosition))
                .transpose()?;
            let page = keyed_page(v, q, heights, from, keep_type)?;
            (
                page.items.into_iter().map(|((_, id), r)| (id, r)).collect(),
                page.next.as_ref().map(encode_position),
            )
        };
        let txs = details(v, &mut blocks, ids)?;
        Ok(PTxPage { txs, next })
    }
}

impl PChainPages {
    /// One page of the staker txs whose staker is current (pending or active at the chain time)
    /// that `q`'s addresses take part in (every one when it names none), by the height of the
    /// block holding the tx then tx id, filtered by type and block time; resuming strictly
    /// past `from`. The candidates are the staker txs not settled (the genesis ones, in no
    /// block, aside): the addresses' `ph_staking_by_address` entries merged, or the whole
    /// chain's (`ph_orders`) without addresses; a page examines a bounded number of them.
    pub fn staking_txs(&self, q: &PTxQuery, from: Option<&[u8]>) -> Result<PTxPage, PageError> {
        let from = from
            .map(|b| decode_position::<AddressPosition>(b).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let chain_time = tip(v)?.chain_time;
        let dir = direction(q.sort);
        // The staker txs not settled and their tx rows; a permissioned subnet validator past
        // its end (no tx settles it), another type or a block time out of range is `None`.
        let current = |chunk: &[AddressPosition]| {
            let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
            let stakers = expect_rows(v.multi_get::<PhStakers>(&ids)?, &ids, "staker")?;
            let rows = expect_rows(v.multi_get::<PhTxs>(&ids)?, &ids, "tx")?;
            Ok::<_, PageError>(
                stakers
                    .into_iter()
                    .zip(rows)
                    .map(|(staker, row)| {
                        let kept = StakerStatus::of(&staker, chain_time).current()
                            && q.range.contains(row.event.timestamp)
                            && (q.types.is_empty()
                                || q.types.contains(UnsignedTx::data_api_type_of(row.type_id)));
                        kept.then_some(row)
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let page = if q.addresses.is_empty() {
            let positions = v
                .positions::<PhOrders, _>(&ORDER_CURRENT_STAKING, from, dir)?
                .map(|p| p.map_err(PageError::from));
            filtered_page(
                positions,
                FilterLimits::page(q.page_size),
                current,
                |_, row: &Option<TxRow>| row.is_some(),
                |_| false,
            )?
        } else {
            type Scan<'a> = Box<dyn Iterator<Item = Result<AddressPosition, PageError>> + 'a>;
            let scans: Vec<Scan<'_>> = q
                .addresses
                .iter()
                .map(|a| {
                    let scan = v.positions::<PhStakingByAddress, _>(a, from, dir)?;
                    Ok(Box::new(scan.map(|p| p.map_err(PageError::from))) as Scan<'_>)
                })
                .collect::<Result<_, PageError>>()?;
            merged_page(
                scans,
                q.sort,
                q.page_size,
                current,
                |_, row: &Option<TxRow>| row.is_some(),
                |_| false,
            )?
        };
        let next = page.next.as_ref().map(encode_position);
        let found = page
            .items
            .into_iter()
            .filter_map(|((_, id), row)| row.map(|r| (id, r)));
        let mut blocks = Blocks::default();
        let txs = details(v, &mut blocks, found.collect())?;
        Ok(PTxPage { txs, next })
    }
}

/// Whether one of `addresses` takes part in tx `id` at `height` (any tx when there are none).
fn takes_part(
    v: &impl ReadView,
    addresses: &[ShortId],
    height: u64,
    id: &Id,
) -> Result<bool, PageError> {
    if addresses.is_empty() {
        return Ok(true);
    }
    for a in addresses {
        if v.get::<PhTxsByAddress>(&(*a, height, *id))?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The heights `[low, high)` whose blocks' times are in `range` (block times never decrease
/// with height).
pub(super) fn height_range(
    view: &impl ReadView,
    range: TimeRange,
) -> Result<(u64, u64), PageError> {
    heights_in::<PhBlocks, _>(view, range, Some(1), |b| b.timestamp)
}

/// [`height_range`] over any table of blocks by height from `first` (the table's first
/// height when `None`) to its last, each block's time read by `time`.
pub(super) fn heights_in<T, R>(
    view: &impl ReadView,
    range: TimeRange,
    first: Option<u64>,
    time: impl Fn(&R) -> u64,
) -> Result<(u64, u64), PageError>
where
    T: snowline_store::Table<Key = u64, Value = Linear<R>>,
{
    let edge = |dir| -> Result<Option<u64>, PageError> {
        Ok(view
            .scan::<T, _>(.., dir)?
            .next()
            .transpose()?
            .map(|(h, _)| h))
    };
    let tip = edge(snowline_store::Direction::Reverse)?.unwrap_or(0);
    let first = match first {
        Some(f) => f,
        None => edge(snowline_store::Direction::Forward)?.unwrap_or(1),
    };
    // The first height in `first..=tip` whose block time is at least `t` (`tip + 1` if none).
    let at_or_after = |t: u64| -> Result<u64, PageError> {
        let (mut lo, mut hi) = (first, tip.saturating_add(1));
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let Some(Linear(b)) = view.get::<T>(&mid)? else {
                return Err(corrupt(format!(
                    "block {mid} below the tip {tip} is not stored"
                )));
            };
            if time(&b) >= t {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    };
    let low = match range.start {
        Some(t) => at_or_after(t)?,
        None => first,
    };
    let high = match range.end {
        Some(t) => at_or_after(t)?,
        None => tip.saturating_add(1),
    };
    Ok((low, high))
}

fn corrupt(what: String) -> PageError {
    PageError::Read(PChainError::Corrupt(what))
}

/// The page of a listing by keys: the L1 validation's order (its txs some address takes part
/// in, when there are addresses), else each address's order, merged.
fn keyed_page(
    v: &impl ReadView,
    q: &PTxQuery,
    (low, high): (u64, u64),
    from: Option<AddressPosition>,
    keep_type: impl Fn(&TxRow) -> bool,
) -> Result<FilteredPage<AddressPosition, TxRow>, PageError> {
    let dir = direction(q.sort);
    // Start at the range's edge unless the token is already past it.
    let edge = match q.sort {
        SortOrder::Desc => (high < u64::MAX).then_some((high, Id::EMPTY)),
        SortOrder::Asc => low.checked_sub(1).map(|h| (h, Id([0xff; 32]))),
    };
    let start = match (from, edge) {
        (Some(f), Some(e)) => Some(match q.sort {
            SortOrder::Desc => f.min(e),
            SortOrder::Asc => f.max(e),
        }),
        (f, e) => f.or(e),
    };
    type Scan<'a> = Box<dyn Iterator<Item = Result<AddressPosition, PageError>> + 'a>;
    let scans: Vec<Scan<'_>> = match &q.l1_validation {
        Some(vid) => {
            let scan = v
                .positions::<PhTxsByL1Validation, _>(vid, start, dir)?
                .filter_map(|p| match p {
                    Ok((h, id)) => match takes_part(v, &q.addresses, h, &id) {
                        Ok(true) => Some(Ok((h, id))),
                        Ok(false) => None,
                        Err(e) => Some(Err(e)),
                    },
                    Err(e) => Some(Err(e.into())),
                });
            vec![Box::new(scan)]
        }
        None => q
            .addresses
            .iter()
            .map(|a| {
                let scan = v.positions::<PhTxsByAddress, _>(a, start, dir)?;
                Ok(Box::new(scan.map(|p| p.map_err(PageError::from))) as Scan<'_>)
            })
            .collect::<Result<_, PageError>>()?,
    };
    merged_page(
        scans,
        q.sort,
        q.page_size,
        |chunk: &[AddressPosition]| {
            let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
            Ok(expect_rows(v.multi_get::<PhTxs>(&ids)?, &ids, "tx")?)
        },
        |_, row| keep_type(row),
        |(h, _)| match q.sort {
            SortOrder::Desc => *h < low,
            SortOrder::Asc => *h >= high,
        },
    )
}

/// The page of the chain's listing: the blocks' txs in block order.
fn chain_page(
    v: &impl ReadView,
    q: &PTxQuery,
    (low, high): (u64, u64),
    from: Option<ChainPosition>,
    keep_type: impl Fn(&TxRow) -> bool,
) -> Result<FilteredPage<ChainPosition, TxRow>, PageError> {
    let desc = q.sort == SortOrder::Desc;
    let (lo, hi) = match from {
        Some((h, ..)) if desc => (Bound::Included(low), Bound::Included(h.min(high))),
        Some((h, ..)) => (Bound::Included(h.max(low)), Bound::Excluded(high)),
        None => (Bound::Included(low), Bound::Excluded(high)),
    };
    if low >= high {
        return Ok(FilteredPage {
            items: Vec::new(),
            next: None,
        });
    }
    let scan = v.scan::<PhBlocks, _>((lo, hi), direction(q.sort))?;
    let positions = scan.flat_map(move |entry| {
        let positions: Vec<Result<ChainPosition, PageError>> = match entry {
            Err(e) => vec![Err(e.into())],
            Ok((h, Linear(block))) => {
                let mut ps: Vec<ChainPosition> = block
                    .tx_ids
                    .iter()
                    .enumerate()
                    .map(|(i, id)| (h, i as u64, *id))
                    .filter(|p| h < high && from.is_none_or(|f| if desc { *p < f } else { *p > f }))
                    .collect();
                if desc {
                    ps.reverse();
                }
                ps.into_iter().map(Ok).collect()
            }
        };
        positions
    });
    filtered_page(
        positions,
        FilterLimits::page(q.page_size),
        |chunk: &[ChainPosition]| {
            let ids: Vec<Id> = chunk.iter().map(|(_, _, id)| *id).collect();
            Ok(expect_rows(v.multi_get::<PhTxs>(&ids)?, &ids, "tx")?)
        },
        |_, row| keep_type(row),
        |_| false,
    )
}

/// The blocks a page read: each one's row and container read once; a tx with a stored place
/// is parsed alone from its bytes, the others from the block parsed once.
#[derive(Default)]
struct Blocks(HashMap<u64, ReadBlock>);

/// A block as a page read it.
struct ReadBlock {
    row: BlockRow,
    container: Vec<u8>,
    parsed: Option<Vec<(Id, UnsignedTx)>>,
}

impl Blocks {
    /// The block of tx `id` (at `tx.event.height`) and the tx's unsigned body.
    fn tx(
        &mut self,
        v: &impl ReadView,
        tx: &TxRow,
        id: &Id,
    ) -> Result<(BlockRow, UnsignedTx), PageError> {
        let height = tx.event.height;
        let read = match self.0.entry(height) {
            std::collections::hash_map::Entry::Occupied(slot) => slot.into_mut(),
            std::collections::hash_map::Entry::Vacant(slot) => {
                let Some(Linear(row)) = v.get::<PhBlocks>(&height)? else {
                    return Err(corrupt(format!(
                        "a tx names block {height}, which is not stored"
                    )));
                };
                let container = IndexReader::new(v, IndexPath::PBlock)
                    .by_id(&row.id)
                    .map_err(|e| corrupt(format!("P-Chain block {}: {e}", row.id)))?
                    .ok_or_else(|| {
                        corrupt(format!("P-Chain block {} is not in the index", row.id))
                    })?;
                slot.insert(ReadBlock {
                    row,
                    container: container.bytes,
                    parsed: None,
                })
            }
        };
        if let Some(place) = tx.place {
            let bytes = place
                .slice(&read.container)
                .ok_or_else(|| corrupt(format!("tx {id} lies past block {height}'s bytes")))?;
            let signed = parse_nested_tx(bytes).map_err(|e| corrupt(format!("tx {id}: {e}")))?;
            return Ok((read.row.clone(), signed.unsigned));
        }
        if read.parsed.is_none() {
            let parsed = parse_block(&read.container)
                .map_err(|e| corrupt(format!("P-Chain block {}: {e}", read.row.id)))?;
            read.parsed = Some(
                parsed
                    .block
                    .block
                    .txs()
                    .into_iter()
                    .zip(&parsed.block.tx_ids)
                    .map(|(tx, id)| (*id, tx.unsigned.clone()))
                    .collect(),
            );
        }
        let unsigned = read
            .parsed
            .iter()
            .flatten()
            .find(|(t, _)| t == id)
            .map(|(_, tx)| tx.clone())
            .ok_or_else(|| corrupt(format!("tx {id} is not in block {height}")))?;
        Ok((read.row.clone(), unsigned))
    }
}

/// Everything the records of `txs` (ids with their rows) show, in their order. The UTXOs of
/// all of them are read in one batch, and so are the stakers of those that add or settle one
/// (no other tx has a staker row, so the others are not looked up).
fn details(
    v: &impl ReadView,
    blocks: &mut Blocks,
    txs: Vec<(Id, TxRow)>,
) -> Result<Vec<PTx>, PageError> {
    let mut read = Vec::with_capacity(txs.len());
    let mut utxo_ids = Vec::new();
    let mut staker_ids = Vec::new();
    for (id, row) in txs {
        let (block, tx) = blocks.tx(v, &row, &id)?;
        let links: Vec<(u8, Id)> = v
            .prefix_scan::<PhTxUtxos, Id>(&id, None, snowline_store::Direction::Forward)?
            .map(|e| e.map(|((_, role, utxo), ())| (role, utxo)))
            .collect::<Result<_, StoreError>>()?;
        utxo_ids.extend(links.iter().map(|(_, u)| *u));
        let staker_id = match &tx {
            UnsignedTx::RewardValidatorTx(r) => Some(r.tx_id),
            _ if crate::staking::terms(&tx).is_some() => Some(id),
            _ => None,
        };
        staker_ids.extend(staker_id);
        read.push((id, row, block, tx, links, staker_id));
    }
    let mut utxo_rows =
        expect_rows(v.multi_get::<PhUtxos>(&utxo_ids)?, &utxo_ids, "UTXO")?.into_iter();
    let mut stakers = v.multi_get::<PhStakers>(&staker_ids)?.into_iter();
    let mut out = Vec::with_capacity(read.len());
    for (id, row, block, tx, links, staker_id) in read {
        let (mut consumed, mut emitted) = (Vec::new(), Vec::new());
        for ((role, utxo_id), utxo_row) in links.into_iter().zip(utxo_rows.by_ref()) {
            let utxo = utxo_row
                .utxo()
                .map_err(|e| corrupt(format!("UTXO {utxo_id}: {e}")))?;
            let u = PUtxo {
                id: utxo_id,
                utxo,
                row: utxo_row,
            };
            if role == TX_EMITTED {
                emitted.push(u);
            } else {
                consumed.push(u);
            }
        }
        let inputs = input_order(&tx);
        consumed.sort_by_key(|u| inputs.iter().position(|i| *i == u.id).unwrap_or(usize::MAX));
        emitted.sort_by_key(|u| u.utxo.utxo_id.output_index);
        let staker = match staker_id {
            Some(s) => stakers.next().flatten().map(|Linear(r)| (s, r)),
            None => None,
        };
        let l1 = l1_changes(v, &tx, &emitted, row.event.height)?;
        out.push(PTx {
            id,
            row,
            block,
            tx,
            consumed,
            emitted,
            staker,
            l1,
        });
    }
    Ok(out)
}

/// The L1 validators `tx` (of the block at `height`, which emitted `emitted`) registers or
/// changes, with the balance it gave each (what it deposits; what it returns, the outputs past
/// its own, negative), as the block left them: weight and end fee from `ph_l1_history`, the
/// balance left being the end fee less the fees accrued per validator after the block.
fn l1_changes(
    v: &impl ReadView,
    tx: &UnsignedTx,
    emitted: &[PUtxo],
    height: u64,
) -> Result<Vec<PTxL1>, PageError> {
    let returned = || -> Option<i128> {
        let own = tx.outputs().len();
        let sum: i128 = emitted
            .iter()
            .filter(|u| u.utxo.utxo_id.output_index as usize >= own)
            .map(|u| i128::from(u.row.amount))
            .sum();
        (sum > 0).then_some(-sum)
    };
    let changes: Vec<(Id, Option<i128>)> = l1_validations(tx)
        .into_iter()
        .enumerate()
        .map(|(i, vid)| {
            let change = match tx {
                UnsignedTx::ConvertSubnetToL1Tx(t) => {
                    t.validators.get(i).map(|val| i128::from(val.balance))
                }
                UnsignedTx::RegisterL1ValidatorTx(t) => Some(i128::from(t.balance)),
                UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => Some(i128::from(t.balance)),
                UnsignedTx::DisableL1ValidatorTx(_) => Some(returned().unwrap_or(0)),
                _ => returned(),
            };
            (vid, change)
        })
        .collect();
    if changes.is_empty() {
        return Ok(Vec::new());
    }
    let accrued = v
        .get::<PhBlocks>(&height)?
        .map_or(0, |Linear(b)| b.l1_accrued_fees);
    let mut out = Vec::with_capacity(changes.len());
    for (validation_id, balance_change) in changes {
        let Some(Linear(row)) = v.get::<PhL1Validators>(&validation_id)? else {
            continue;
        };
        let state = super::validators::state_at(v, &validation_id, height).map_err(|e| {
            PageError::Read(match e {
                super::ValidatorSetError::Read(e) => e,
                other => PChainError::Corrupt(other.to_string()),
            })
        })?;
        let (weight, end_fee) = state.map_or((row.weight, row.end_accumulated_fee), |s| {
            (s.weight, s.end_accumulated_fee)
        });
        out.push(PTxL1 {
            validation_id,
            weight,
            remaining_balance: end_fee.saturating_sub(accrued),
            balance_change,
            row,
        });
    }
    Ok(out)
}

/// The UTXO ids a tx spends, in its inputs' order (imported inputs after the base's).
fn input_order(tx: &UnsignedTx) -> Vec<Id> {
    let mut ids: Vec<Id> = tx
        .base()
        .map(|b| b.inputs.iter().map(|i| i.utxo_id.id()).collect())
        .unwrap_or_default();
    if let UnsignedTx::ImportTx(t) = tx {
        ids.extend(t.imported_inputs.iter().map(|i| i.utxo_id.id()));
    }
    ids
}
