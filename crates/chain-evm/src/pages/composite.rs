//! The Looking Glass's composite query, for the metrics service: sets of addresses chosen by a
//! native, ERC-20 or NFT balance (now, throughout a time range, or at some point of it), each
//! counted, combined by AND or OR, and paged by address. Read from the balances kept at ingest
//! (`ev_native`, `ev_holders`, `ev_holding_history`); one request reads at most the rows its
//! caller allows ([`LOOKING_GLASS_MAX_ROWS`] by default) and is refused past them rather than
//! left to run.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Bound;

use snowline_store::{Direction, ReadView, StoreError};
use snowline_types::evm::{Address, U256};

use super::latest::last_before;
use super::{EvmPages, EvmReadError, cursor_in};
use crate::rows::{CursorRow, TransferKind};
use crate::tables::{Addr, EvGenesis, EvHolders, EvHoldingHistory, EvNative, Word};

/// The most index rows one Looking Glass request (a composite query, or a bridged-token
/// listing) reads by default: its cost is bounded whatever the chain's size; past it the
/// request is refused ([`LookingGlassError::TooBroad`]).
pub const LOOKING_GLASS_MAX_ROWS: u64 = 1_000_000;

/// Whose balance a sub-query reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asset {
    /// The chain's native coin (wei).
    Native,
    /// An ERC-20 token (its smallest unit).
    Erc20(Address),
    /// An NFT collection (ERC-721 or ERC-1155): the number of its tokens held.
    Nft(Address),
}

/// When the balance must reach the minimum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Span {
    /// After the last indexed block.
    Latest,
    /// Throughout the blocks timed within `[from, to]` (Unix seconds), entering the first of
    /// them included.
    AllTime(u64, u64),
    /// Entering the first block timed within `[from, to]`, or after any of them.
    AnyTime(u64, u64),
}

/// One sub-query: the addresses of `chain` whose balance of `asset` is at least `min` as `span`
/// says. An address counts once the index has seen it hold or move the asset (by the end of
/// the range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubQuery {
    /// The EVM chain id.
    pub chain: u64,
    /// Whose balance.
    pub asset: Asset,
    /// When.
    pub span: Span,
    /// The least balance (inclusive).
    pub min: U256,
}

/// How the sub-queries' sets combine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// The addresses every sub-query chose.
    And,
    /// The addresses some sub-query chose.
    Or,
}

/// One page of a composite query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompositePage {
    /// How many addresses each sub-query chose, in the order given.
    pub counts: Vec<u64>,
    /// How many addresses the combination holds (every page).
    pub total: u64,
    /// The page, by address.
    pub addresses: Vec<Address>,
    /// The last address listed, when more follow.
    pub next: Option<Address>,
}

/// Why a Looking Glass read could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum LookingGlassError {
    /// The request would read more rows than allowed.
    #[error(
        "this query reads more than {limit} index rows, the most one request reads; narrow it \
         (fewer sub-queries, tokens or chains with fewer holders)"
    )]
    TooBroad {
        /// The cap.
        limit: u64,
    },
    /// Native balances asked of a chain whose genesis allocation (or first blocks) the index
    /// lacks: an address funded then and not touched since would be missed.
    #[error(
        "native balances on chain {0} are not known for every address: the chain's genesis \
         allocation is not known to this index, or it holds the chain from a block after 0"
    )]
    NativeUnknown(u64),
    /// Reading the index failed, or the chain is not indexed.
    #[error(transparent)]
    Read(#[from] EvmReadError),
}

impl From<StoreError> for LookingGlassError {
    fn from(e: StoreError) -> Self {
        LookingGlassError::Read(e.into())
    }
}

/// The rows a request may still read, of the `limit` it was given.
pub(super) struct Budget {
    left: u64,
    limit: u64,
}

impl Budget {
    pub(super) fn new(limit: u64) -> Self {
        Budget { left: limit, limit }
    }

    /// Accounts for one more row read.
    pub(super) fn spend(&mut self) -> Result<(), LookingGlassError> {
        self.left = self
            .left
            .checked_sub(1)
            .ok_or(LookingGlassError::TooBroad { limit: self.limit })?;
        Ok(())
    }
}

/// The first and last indexed blocks of `chain` timed within `[from, to]`, if any (block times
/// never decrease: two binary searches).
pub(super) fn block_window(
    view: &impl ReadView,
    chain: u64,
    cursor: &CursorRow,
    (from, to): (u64, u64),
) -> Result<Option<(u64, u64)>, EvmReadError> {
    let Some(end) = last_before(view, chain, cursor, |t| t <= to)? else {
        return Ok(None);
    };
    let start = last_before(view, chain, cursor, |t| t < from)?.map_or(cursor.first, |b| b + 1);
    Ok((start <= end).then_some((start, end)))
}

/// An address's balance over a window of blocks: entering its first block (`None`: no row
/// before it), and after each block within it that changed it, oldest first.
#[derive(Debug, Default)]
struct Track {
    entering: Option<U256>,
    within: Vec<(u64, U256)>,
}

impl Track {
    /// Whether the balance meets `min` at some point (`any`) or throughout the window; an
    /// address without a row by the window's end is not a candidate.
    fn meets(&self, min: U256, any: bool) -> bool {
        if self.entering.is_none() && self.within.is_empty() {
            return false;
        }
        let entering = self.entering.unwrap_or(U256::ZERO) >= min;
        let mut within = self.within.iter().map(|(_, v)| *v >= min);
        if any {
            entering || within.any(|m| m)
        } else {
            entering && within.all(|m| m)
        }
    }
}

/// The history rows of one holding `(owner, kind, token, id)` up to block `end`, as a [`Track`]
/// of the window starting at `start` (read newest first, stopping at the entering row).
fn holding_track(
    view: &impl ReadView,
    chain: u64,
    (owner, kind, token, id): (Addr, u8, Addr, Word),
    (start, end): (u64, u64),
    budget: &mut Budget,
) -> Result<Track, LookingGlassError> {
    let low = (chain, owner, kind, token, id, 0u64);
    let high = (chain, owner, kind, token, id, end);
    let mut track = Track::default();
    for row in view.scan::<EvHoldingHistory, _>(low..=high, Direction::Reverse)? {
        budget.spend()?;
        let ((.., block), w) = row?;
        let balance = U256::from_be_bytes(w);
        if block < start {
            track.entering = Some(balance);
            break;
        }
        track.within.push((block, balance));
    }
    track.within.reverse();
    Ok(track)
}

/// Every `(owner, id, balance now)` row `token` of standard `kind` ever had on `chain`.
fn holders_of(
    view: &impl ReadView,
    chain: u64,
    token: Addr,
    kind: u8,
    budget: &mut Budget,
) -> Result<Vec<(Addr, Word, U256)>, LookingGlassError> {
    let low = (chain, token, kind, [0u8; 20], [0u8; 32]);
    let high = (chain, token, kind, [0xFF; 20], [0xFF; 32]);
    let mut out = Vec::new();
    for e in view.scan::<EvHolders, _>(low..=high, Direction::Forward)? {
        budget.spend()?;
        let ((_, _, _, owner, id), w) = e?;
        out.push((owner, id, U256::from_be_bytes(w)));
    }
    Ok(out)
}

/// A window of blocks, first and last, and whether the balance must meet the minimum at some
/// point of it (else throughout).
type Window = ((u64, u64), bool);

/// The window of `span` on `chain`: `Ok(None)` for [`Span::Latest`] or when no block falls in
/// the range.
fn window_of(
    view: &impl ReadView,
    chain: u64,
    cursor: &CursorRow,
    span: Span,
) -> Result<Option<Window>, EvmReadError> {
    Ok(match span {
        Span::Latest => None,
        Span::AllTime(from, to) => {
            block_window(view, chain, cursor, (from, to))?.map(|w| (w, false))
        }
        Span::AnyTime(from, to) => {
            block_window(view, chain, cursor, (from, to))?.map(|w| (w, true))
        }
    })
}

/// The addresses of `chain` with a native balance meeting `q`: one scan of the chain's
/// `ev_native` rows, grouped by address.
fn native(
    view: &impl ReadView,
    cursor: &CursorRow,
    q: &SubQuery,
    budget: &mut Budget,
) -> Result<BTreeSet<Addr>, LookingGlassError> {
    let chain = q.chain;
    if cursor.first != 0 || view.get::<EvGenesis>(&chain)?.is_none() {
        return Err(LookingGlassError::NativeUnknown(chain));
    }
    let window = match q.span {
        Span::Latest => None,
        span => match window_of(view, chain, cursor, span)? {
            Some(w) => Some(w),
            None => return Ok(BTreeSet::new()),
        },
    };
    let mut out = BTreeSet::new();
    let mut current: Option<(Addr, Track)> = None;
    let close = |entry: Option<(Addr, Track)>, out: &mut BTreeSet<Addr>| {
        if let Some((a, t)) = entry {
            let keep = match window {
                // The latest value rides in `entering`.
                None => t.entering.is_some_and(|v| v >= q.min),
                Some((_, any)) => t.meets(q.min, any),
            };
            if keep {
                out.insert(a);
            }
        }
    };
    let low = (chain, [0u8; 20], 0u64);
    let high = (chain, [0xFF; 20], u64::MAX);
    for row in view.scan::<EvNative, _>(low..=high, Direction::Forward)? {
        budget.spend()?;
        let ((_, a, block), w) = row?;
        let balance = U256::from_be_bytes(w);
        if current.as_ref().is_none_or(|(c, _)| *c != a) {
            close(current.take(), &mut out);
            current = Some((a, Track::default()));
        }
        let Some((_, track)) = current.as_mut() else {
            continue;
        };
        match window {
            None => track.entering = Some(balance),
            Some(((start, _), _)) if block < start => track.entering = Some(balance),
            Some(((_, end), _)) if block <= end => track.within.push((block, balance)),
            Some(_) => {}
        }
    }
    close(current, &mut out);
    Ok(out)
}

/// The holders of ERC-20 `token` meeting `q`.
fn erc20(
    view: &impl ReadView,
    cursor: &CursorRow,
    q: &SubQuery,
    token: Addr,
    budget: &mut Budget,
) -> Result<BTreeSet<Addr>, LookingGlassError> {
    let kind = TransferKind::Erc20.code();
    let holders = holders_of(view, q.chain, token, kind, budget)?;
    let Some((window, any)) = window_of(view, q.chain, cursor, q.span)? else {
        return Ok(match q.span {
            Span::Latest => holders
                .into_iter()
                .filter(|(_, _, v)| *v >= q.min)
                .map(|(o, _, _)| o)
                .collect(),
            _ => BTreeSet::new(),
        });
    };
    let mut out = BTreeSet::new();
    for (owner, id, _) in holders {
        let track = holding_track(view, q.chain, (owner, kind, token, id), window, budget)?;
        if track.meets(q.min, any) {
            out.insert(owner);
        }
    }
    Ok(out)
}

/// The holders of NFT collection `token` whose number of its tokens held (ERC-1155 amounts
/// summed over ids) meets `q`.
fn nft(
    view: &impl ReadView,
    cursor: &CursorRow,
    q: &SubQuery,
    token: Addr,
    budget: &mut Budget,
) -> Result<BTreeSet<Addr>, LookingGlassError> {
    let mut held: BTreeMap<Addr, Vec<(u8, Word, U256)>> = BTreeMap::new();
    for kind in [TransferKind::Erc721.code(), TransferKind::Erc1155.code()] {
        for (owner, id, now) in holders_of(view, q.chain, token, kind, budget)? {
            held.entry(owner).or_default().push((kind, id, now));
        }
    }
    let window = window_of(view, q.chain, cursor, q.span)?;
    if window.is_none() && q.span != Span::Latest {
        return Ok(BTreeSet::new());
    }
    let mut out = BTreeSet::new();
    for (owner, ids) in held {
        let Some((w, any)) = window else {
            let total = ids
                .iter()
                .fold(U256::ZERO, |t, (_, _, v)| t.saturating_add(*v));
            if total >= q.min {
                out.insert(owner);
            }
            continue;
        };
        // Each id's track, then the owner's total entering the window and after each block.
        let mut entering: Option<U256> = None;
        let mut changes: Vec<(u64, usize, U256)> = Vec::new();
        let mut now: Vec<U256> = Vec::with_capacity(ids.len());
        for (i, (kind, id, _)) in ids.iter().enumerate() {
            let t = holding_track(view, q.chain, (owner, *kind, token, *id), w, budget)?;
            let e = t.entering.unwrap_or(U256::ZERO);
            if t.entering.is_some() {
                entering = Some(entering.unwrap_or(U256::ZERO).saturating_add(e));
            }
            now.push(e);
            changes.extend(t.within.into_iter().map(|(b, v)| (b, i, v)));
        }
        changes.sort_by_key(|(b, i, _)| (*b, *i));
        let mut total = entering.unwrap_or(U256::ZERO);
        let mut track = Track {
            entering,
            within: Vec::new(),
        };
        let mut k = 0;
        while let Some(&(block, ..)) = changes.get(k) {
            while let Some(&(_, i, v)) = changes.get(k).filter(|(b, ..)| *b == block) {
                if let Some(old) = now.get_mut(i) {
                    total = total.saturating_sub(*old).saturating_add(v);
                    *old = v;
                }
                k += 1;
            }
            track.within.push((block, total));
        }
        if track.meets(q.min, any) {
            out.insert(owner);
        }
    }
    Ok(out)
}

/// The addresses `q` chooses, read from `view`.
fn chosen(
    view: &impl ReadView,
    q: &SubQuery,
    budget: &mut Budget,
) -> Result<BTreeSet<Addr>, LookingGlassError> {
    let cursor = cursor_in(view, q.chain)?;
    if let (Asset::Erc20(_) | Asset::Nft(_), first @ 1..) = (q.asset, cursor.first) {
        return Err(EvmReadError::PartialHistory {
            chain: q.chain,
            first,
        }
        .into());
    }
    match q.asset {
        Asset::Native => native(view, &cursor, q, budget),
        Asset::Erc20(t) => erc20(view, &cursor, q, t.0.0, budget),
        Asset::Nft(t) => nft(view, &cursor, q, t.0.0, budget),
    }
}

impl EvmPages {
    /// The addresses `queries` choose, combined by `operator`: each sub-query's count, the
    /// combination's size, and its page of `size` addresses strictly past `after`. Every
    /// sub-query reads the same snapshot (on a secondary, the store between two catch-ups),
    /// and the request at most `max_rows` rows.
    pub fn composite(
        &self,
        queries: &[SubQuery],
        operator: Operator,
        page: (usize, Option<Address>),
        max_rows: u64,
    ) -> Result<CompositePage, LookingGlassError> {
        let mut budget = Budget::new(max_rows);
        if self.unsnapshotted() {
            composite_in(&*self.store, queries, operator, page, &mut budget)
        } else {
            composite_in(&self.store.snapshot(), queries, operator, page, &mut budget)
        }
    }
}

/// [`EvmPages::composite`] over `view`.
fn composite_in(
    view: &impl ReadView,
    queries: &[SubQuery],
    operator: Operator,
    (size, after): (usize, Option<Address>),
    budget: &mut Budget,
) -> Result<CompositePage, LookingGlassError> {
    let mut sets = Vec::with_capacity(queries.len());
    for q in queries {
        sets.push(chosen(view, q, budget)?);
    }
    let counts = sets.iter().map(|s| s.len() as u64).collect();
    let combined: BTreeSet<Addr> = match operator {
        Operator::Or => sets.into_iter().flatten().collect(),
        Operator::And => {
            let mut sets = sets.into_iter();
            let first = sets.next().unwrap_or_default();
            let rest: Vec<BTreeSet<Addr>> = sets.collect();
            first
                .into_iter()
                .filter(|a| rest.iter().all(|s| s.contains(a)))
                .collect()
        }
    };
    let low = after.map_or(Bound::Unbounded, |a| Bound::Excluded(a.0.0));
    let mut addresses: Vec<Address> = combined
        .range((low, Bound::Unbounded))
        .take(size.saturating_add(1))
        .map(|a| Address::from(*a))
        .collect();
    let next = if addresses.len() > size {
        addresses.truncate(size);
        addresses.last().copied()
    } else {
        None
    };
    Ok(CompositePage {
        counts,
        total: combined.len() as u64,
        addresses,
        next,
    })
}
