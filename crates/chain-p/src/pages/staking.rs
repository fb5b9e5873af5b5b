//! Validators and delegators of every subnet, with their status at the chain time, as the Data
//! API lists them: validators by their tx's block height (or by delegation capacity, time
//! remaining or delegation fee), a node's validations by start, delegators by start; and the
//! primary network's staking totals.
//!
//! The rules (avalanchego `vms/platformvm`): a staker is pending until its start (only before
//! Durango can the start follow the acceptance), active until it is settled by a
//! `RewardValidatorTx` (completed) or removed by a `RemoveSubnetValidatorTx` before its end
//! (removed); a permissioned subnet validator leaves at its end time with no tx
//! (`state_changes.go` `AdvanceTimeTo`), so it is completed once the chain time reaches its end.
//! A validator's delegation capacity is what a delegator may add now:
//! `min(MaxValidatorWeightFactor × stake, MaxValidatorStake) − stake − delegated`
//! (`txs/executor/staker_tx_verification.go` `verifyAddPermissionlessDelegatorTx`, which checks
//! the stake plus the delegations over the new delegator's period against that maximum).

use std::collections::BTreeMap;

use snowline_query::{FilterLimits, SortOrder, decode_position, encode_position, filtered_page};
use snowline_store::{Direction, KeysetScans, Linear, ReadView, StoreError};
use snowline_types::platformvm::reward::split;
use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{ProofOfPossession, Signer};
use snowline_types::{Id, NodeId, ShortId};

use super::{PChainPages, PageError, Position, direction, expect_rows, tip};
use crate::error::PChainError;
use crate::rows::{StakerKind, StakerRow, StakingFigures, UptimeRow};
pub use crate::staking::{
    MAX_VALIDATOR_STAKE, MAX_VALIDATOR_WEIGHT_FACTOR, delegation_capacity, delegation_fee,
};
use crate::staking::{PRIMARY_NETWORK, permissioned};
use crate::tables::{
    META_UNSETTLED_REWARDS, ORDER_DELEGATORS, ORDER_VALIDATORS, PhDelegations, PhMeta, PhOrders,
    PhStakers, PhStakersByNode, PhStakersByOwner, PhStakersNotStarted, PhStakingNow,
    PhValidatorSorts, PhValidatorsByNode,
};
use crate::validator_orders::{BY_BLOCK_INDEX, BY_CAPACITY, BY_END, BY_FEE, order};

/// A staker's status at a chain time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StakerStatus {
    /// Accepted, its start not reached yet.
    Pending,
    /// Staking.
    Active,
    /// Its period ended (rewarded or not).
    Completed,
    /// A permissioned subnet validator removed before its end.
    Removed,
}

impl StakerStatus {
    /// The status of `row` when the chain time is `chain_time`.
    pub fn of(row: &StakerRow, chain_time: u64) -> Self {
        match &row.settled {
            Some(s) if row.kind == StakerKind::SubnetValidator && s.event.timestamp < row.end => {
                StakerStatus::Removed
            }
            Some(_) => StakerStatus::Completed,
            None if row.start > chain_time => StakerStatus::Pending,
            None if permissioned(row) && row.end <= chain_time => StakerStatus::Completed,
            None => StakerStatus::Active,
        }
    }

    /// The Data API's name (`ValidationStatusType`, `DelegationStatusType`).
    pub fn name(self) -> &'static str {
        match self {
            StakerStatus::Pending => "pending",
            StakerStatus::Active => "active",
            StakerStatus::Completed => "completed",
            StakerStatus::Removed => "removed",
        }
    }

    /// Not settled yet: pending or active.
    pub fn current(self) -> bool {
        matches!(self, StakerStatus::Pending | StakerStatus::Active)
    }
}

/// A validator's BLS public key and proof of possession (`AddPermissionlessValidatorTx` with a
/// signer), read from its stored tx.
pub fn bls_signer(row: &StakerRow) -> Result<Option<ProofOfPossession>, PageError> {
    if row.bls_public_key.is_none() {
        return Ok(None);
    }
    let tx: UnsignedTx = snowline_types::codec::unmarshal_with_max(&row.unsigned_tx, usize::MAX)
        .map_err(|e| PChainError::Corrupt(format!("stored staker tx: {e}")))?;
    Ok(match tx {
        UnsignedTx::AddPermissionlessValidatorTx(t) => match t.signer {
            Signer::ProofOfPossession(p) => Some(p),
            Signer::Empty(_) => None,
        },
        _ => None,
    })
}

/// How validators are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValidatorSort {
    /// By the staker tx's block height, then tx id.
    #[default]
    BlockIndex,
    /// By delegation capacity (primary-network validators not settled have one; the others
    /// count as 0).
    DelegationCapacity,
    /// By time remaining, that is by end time.
    TimeRemaining,
    /// By delegation fee (validators without one count as 0).
    DelegationFee,
    /// By the uptime the followed node gave (validators without one count as 0).
    UptimePerformance,
}

/// An inclusive range of a figure; `None` ends are open.
pub type Bounds = (Option<u64>, Option<u64>);

fn within(bounds: &Bounds, v: u64) -> bool {
    bounds.0.is_none_or(|lo| v >= lo) && bounds.1.is_none_or(|hi| v <= hi)
}

/// What a validator listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorQuery {
    /// Only validators of this status.
    pub status: Option<StakerStatus>,
    /// Only validators of this subnet.
    pub subnet: Option<Id>,
    /// Only validators whose `NodeID-…` contains one of these (empty: any).
    pub node_substrings: Vec<String>,
    /// Only this node's validations (ordered by start, then tx id).
    pub node: Option<NodeId>,
    /// Delegation capacity, nAVAX: a bound excludes validators without one.
    pub capacity: Bounds,
    /// Seconds from the chain time to the end (0 once ended).
    pub time_remaining: Bounds,
    /// Delegation fee, millionths: a bound excludes validators without one.
    pub fee: Bounds,
    /// Uptime, ten-thousandths of a percent: a bound excludes validators without one (all but
    /// the active validators the followed node gave an uptime for).
    pub uptime: Bounds,
    /// The order.
    pub sort_by: ValidatorSort,
    /// Ascending or descending.
    pub sort: SortOrder,
    /// Validators per page.
    pub page_size: usize,
}

/// A validator with what its delegators add.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorEntry {
    /// The staker tx.
    pub staker_id: Id,
    /// The validator.
    pub row: StakerRow,
    /// Its status at the page's chain time.
    pub status: StakerStatus,
    /// Its delegators: those not settled while it is current, all of them once it ended.
    pub delegator_count: u64,
    /// Their stakes, summed.
    pub delegated: u64,
    /// Delegation fees: paid (the fee part of each rewarded delegator's reward) once it ended;
    /// while it is current, those paid so far plus the fee part of its current delegators'
    /// potential rewards.
    pub delegation_fees: u64,
    /// Primary-network validators not settled: what a delegator may add now.
    pub capacity: Option<u64>,
    /// Its subnet's active stake (validators and delegators), for its share of it.
    pub subnet_active_stake: u128,
    /// Active validators: what the followed node last said of it (none when it said nothing).
    pub uptime: Option<UptimeRow>,
}

impl ValidatorEntry {
    fn time_remaining(&self, chain_time: u64) -> u64 {
        self.row.end.saturating_sub(chain_time)
    }

    fn sort_value(&self, by: ValidatorSort) -> u64 {
        match by {
            ValidatorSort::BlockIndex => self.row.accepted.height,
            ValidatorSort::DelegationCapacity => self.capacity.unwrap_or(0),
            ValidatorSort::TimeRemaining => self.row.end,
            ValidatorSort::DelegationFee => delegation_fee(&self.row).map_or(0, u64::from),
            ValidatorSort::UptimePerformance => self.uptime.map_or(0, |u| u64::from(u.uptime)),
        }
    }
}

/// A page of validators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorPage {
    /// The validators, in the order asked.
    pub validators: Vec<ValidatorEntry>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
    /// The chain time the statuses are at.
    pub chain_time: u64,
}

/// What a delegator listing asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegatorQuery {
    /// Only delegators of this status (never `Removed`).
    pub status: Option<StakerStatus>,
    /// Only delegators paying their reward to one of these (empty: any).
    pub reward_addresses: Vec<ShortId>,
    /// Only delegators of these nodes (empty: any).
    pub nodes: Vec<NodeId>,
    /// By start, then tx id.
    pub sort: SortOrder,
    /// Delegators per page.
    pub page_size: usize,
}

/// A delegator with the fee its validator charges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegatorEntry {
    /// The staker tx.
    pub staker_id: Id,
    /// The delegator.
    pub row: StakerRow,
    /// Its status at the page's chain time.
    pub status: StakerStatus,
    /// Its validator's delegation fee, millionths (0 when the validator is not indexed).
    pub fee_shares: u32,
}

impl DelegatorEntry {
    /// `(validator's fee, delegator's part)` of its potential reward (`reward.Split`).
    pub fn reward_split(&self) -> (u64, u64) {
        split(self.row.potential_reward, self.fee_shares)
    }
}

/// A page of delegators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DelegatorPage {
    /// The delegators, in the order asked.
    pub delegators: Vec<DelegatorEntry>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
    /// The chain time the statuses are at.
    pub chain_time: u64,
}

/// The primary network's staking now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetworkStaking {
    /// Active validators and delegators, with their stakes.
    pub figures: StakingFigures,
    /// The potential rewards of the active validators and delegators, summed.
    pub potential_rewards: u128,
    /// The reward calculator's current supply.
    pub current_supply: u64,
    /// The chain time.
    pub chain_time: u64,
}

/// A page of validators with their positions, and where the next page starts.
type FoundPage = (Vec<(Position, ValidatorEntry)>, Option<Position>);

type Positions<'a> = Box<dyn Iterator<Item = Result<Position, PageError>> + 'a>;

fn boxed<'a>(it: impl Iterator<Item = Result<Position, StoreError>> + 'a) -> Positions<'a> {
    Box::new(it.map(|p| p.map_err(PageError::from)))
}

impl PChainPages {
    /// One page of the validators `q` asks for, resuming strictly past `from`.
    pub fn validators(
        &self,
        q: &ValidatorQuery,
        from: Option<&[u8]>,
    ) -> Result<ValidatorPage, PageError> {
        let from: Option<Position> = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let chain_time = tip(v)?.chain_time;
        let keep = |e: &ValidatorEntry| keeps(q, e, chain_time);
        let mut totals = BTreeMap::new();
        let dir = direction(q.sort);
        let (items, next) = match (q.node, q.sort_by) {
            (Some(node), _) => {
                let ids = boxed(v.positions::<PhValidatorsByNode, _>(&node, from, dir)?);
                keyset_validators(v, ids, q, chain_time, &mut totals, keep)?
            }
            (None, ValidatorSort::UptimePerformance) => {
                uptime_page(v, q, from, chain_time, &mut totals, keep)?
            }
            (None, by) => {
                // The order kept at ingest for the figure, of the current validators when only
                // those can match, of the subnet asked.
                let by = match by {
                    ValidatorSort::DelegationCapacity => BY_CAPACITY,
                    ValidatorSort::TimeRemaining => BY_END,
                    ValidatorSort::DelegationFee => BY_FEE,
                    _ => BY_BLOCK_INDEX,
                };
                let current = q.status.is_some_and(StakerStatus::current);
                let ids = if by == BY_BLOCK_INDEX && !current && q.subnet.is_none() {
                    boxed(v.positions::<PhOrders, _>(&ORDER_VALIDATORS, from, dir)?)
                } else {
                    let key = order(by, current, q.subnet);
                    boxed(v.positions::<PhValidatorSorts, _>(&key, from, dir)?)
                };
                keyset_validators(v, ids, q, chain_time, &mut totals, keep)?
            }
        };
        Ok(ValidatorPage {
            validators: items.into_iter().map(|(_, e)| e).collect(),
            next: next.as_ref().map(encode_position),
            chain_time,
        })
    }

    /// One page of the delegators `q` asks for, by start, resuming strictly past `from`.
    pub fn delegators(
        &self,
        q: &DelegatorQuery,
        from: Option<&[u8]>,
    ) -> Result<DelegatorPage, PageError> {
        let from: Option<Position> = from
            .map(|bytes| decode_position(bytes).ok_or(PageError::BadPosition))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let chain_time = tip(v)?.chain_time;
        let dir = direction(q.sort);
        let scans: Vec<Positions<'_>> = if !q.reward_addresses.is_empty() {
            q.reward_addresses
                .iter()
                .map(|a| Ok(boxed(v.positions::<PhStakersByOwner, _>(a, from, dir)?)))
                .collect::<Result<_, PageError>>()?
        } else if !q.nodes.is_empty() {
            q.nodes
                .iter()
                .map(|n| Ok(boxed(v.positions::<PhStakersByNode, _>(n, from, dir)?)))
                .collect::<Result<_, PageError>>()?
        } else {
            vec![boxed(v.positions::<PhOrders, _>(
                &ORDER_DELEGATORS,
                from,
                dir,
            )?)]
        };
        let page = snowline_query::merged_page(
            scans,
            q.sort,
            q.page_size,
            |chunk: &[Position]| {
                let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
                let rows = expect_rows(v.multi_get::<PhStakers>(&ids)?, &ids, "staker")?;
                let validators: Vec<Id> = rows
                    .iter()
                    .map(|r| r.validator_tx.unwrap_or_default())
                    .collect();
                let vrows = v.multi_get::<PhStakers>(&validators)?;
                Ok::<_, PageError>(
                    ids.into_iter()
                        .zip(rows)
                        .zip(vrows)
                        .map(|((staker_id, row), vrow)| DelegatorEntry {
                            staker_id,
                            status: StakerStatus::of(&row, chain_time),
                            fee_shares: vrow.map_or(0, |Linear(r)| r.delegation_shares),
                            row,
                        })
                        .collect(),
                )
            },
            |_, e: &DelegatorEntry| {
                !e.row.kind.validates()
                    && q.status.is_none_or(|s| s == e.status)
                    && (q.nodes.is_empty() || q.nodes.contains(&e.row.node_id))
            },
            |_| false,
        )?;
        Ok(DelegatorPage {
            delegators: page.items.into_iter().map(|(_, e)| e).collect(),
            next: page.next.as_ref().map(encode_position),
            chain_time,
        })
    }

    /// When the followed node last gave validator uptimes (`None`: no source of them, so the
    /// uptime filters cannot be answered).
    pub fn uptimes_at(&self) -> Result<Option<u64>, PageError> {
        let snapshot = self.store.snapshot();
        Ok(crate::uptime::uptimes_at(&snapshot)?)
    }

    /// The primary network's active validators and delegators now, with their potential
    /// rewards and the current supply.
    pub fn network_staking(&self) -> Result<NetworkStaking, PageError> {
        let snapshot = self.store.snapshot();
        let v = &snapshot;
        let chain_time = tip(v)?.chain_time;
        let figures = v
            .get::<PhStakingNow>(&PRIMARY_NETWORK)?
            .map(|Linear(f)| f)
            .unwrap_or_default();
        // The stakers not settled, less those not started yet (pending: accepted before their
        // start, before Durango), which wait in `ph_stakers_not_started` until the chain time
        // reaches their start.
        let unsettled = v.get::<PhMeta>(&META_UNSETTLED_REWARDS)?.unwrap_or(0);
        let mut pending = Vec::new();
        for e in v.scan::<PhStakersNotStarted, _>(.., Direction::Forward)? {
            let ((_, id), Linear(waits)) = e?;
            if waits.subnet_id == PRIMARY_NETWORK {
                pending.push(id);
            }
        }
        let rows = expect_rows(v.multi_get::<PhStakers>(&pending)?, &pending, "staker")?;
        let potential_rewards = rows.iter().fold(u128::from(unsettled), |sum, r| {
            sum.saturating_sub(u128::from(r.potential_reward))
        });
        Ok(NetworkStaking {
            figures,
            potential_rewards,
            current_supply: crate::reader::PReader::new(v).current_supply()?,
            chain_time,
        })
    }
}

/// The filters a row decides alone (before its delegations are read).
fn prefilter(q: &ValidatorQuery, row: &StakerRow, chain_time: u64) -> bool {
    let node = row.node_id.to_string();
    q.subnet.is_none_or(|s| s == row.subnet_id)
        && q.node.is_none_or(|n| n == row.node_id)
        && (q.node_substrings.is_empty() || q.node_substrings.iter().any(|s| node.contains(s)))
        && q.status
            .is_none_or(|s| s == StakerStatus::of(row, chain_time))
        && within(&q.time_remaining, row.end.saturating_sub(chain_time))
        && (q.fee == (None, None)
            || delegation_fee(row).is_some_and(|f| within(&q.fee, u64::from(f))))
}

/// Whether `e` passes every filter of `q`.
fn keeps(q: &ValidatorQuery, e: &ValidatorEntry, chain_time: u64) -> bool {
    e.row.kind.validates()
        && prefilter(q, &e.row, chain_time)
        && within(&q.time_remaining, e.time_remaining(chain_time))
        && (q.capacity == (None, None) || e.capacity.is_some_and(|c| within(&q.capacity, c)))
        && (q.uptime == (None, None)
            || e.uptime
                .is_some_and(|u| within(&q.uptime, u64::from(u.uptime))))
}

/// A page of validators by uptime, which the followed node replaces at each poll, so no order
/// of it is kept: the candidates (the current validators when only those can match) are read
/// whole and sorted.
fn uptime_page<V: ReadView>(
    v: &V,
    q: &ValidatorQuery,
    from: Option<Position>,
    chain_time: u64,
    totals: &mut BTreeMap<Id, u128>,
    keep: impl Fn(&ValidatorEntry) -> bool,
) -> Result<FoundPage, PageError> {
    let current = q.status.is_some_and(StakerStatus::current);
    let ids: Vec<Id> = if current || q.subnet.is_some() {
        let key = order(BY_BLOCK_INDEX, current, q.subnet);
        v.positions::<PhValidatorSorts, _>(&key, None, Direction::Forward)?
            .map(|r| r.map(|(_, id)| id))
            .collect::<Result<_, _>>()?
    } else {
        v.positions::<PhOrders, _>(&ORDER_VALIDATORS, None, Direction::Forward)?
            .map(|r| r.map(|(_, id)| id))
            .collect::<Result<_, _>>()?
    };
    let rows = expect_rows(v.multi_get::<PhStakers>(&ids)?, &ids, "staker")?;
    let validators: Vec<(Id, StakerRow)> = ids
        .into_iter()
        .zip(rows)
        .filter(|(_, row)| row.kind.validates() && prefilter(q, row, chain_time))
        .collect();
    let mut all = Vec::new();
    for e in entries(v, validators, chain_time, totals)? {
        if keep(&e) {
            all.push((
                (e.sort_value(ValidatorSort::UptimePerformance), e.staker_id),
                e,
            ));
        }
    }
    all.sort_by_key(|a| a.0);
    if q.sort == SortOrder::Desc {
        all.reverse();
    }
    let after = |p: &Position| match (from, q.sort) {
        (None, _) => true,
        (Some(f), SortOrder::Asc) => *p > f,
        (Some(f), SortOrder::Desc) => *p < f,
    };
    let mut page: Vec<(Position, ValidatorEntry)> = all
        .into_iter()
        .filter(|(p, _)| after(p))
        .take(q.page_size.max(1) + 1)
        .collect();
    let more = page.len() > q.page_size.max(1);
    page.truncate(q.page_size.max(1));
    let next = more.then(|| page.last().map(|(p, _)| *p)).flatten();
    Ok((page, next))
}

/// A keyset page of validators from `positions` (in the asked order, past the resume point).
fn keyset_validators<'a, V: ReadView>(
    v: &'a V,
    positions: Positions<'a>,
    q: &ValidatorQuery,
    chain_time: u64,
    totals: &mut BTreeMap<Id, u128>,
    keep: impl Fn(&ValidatorEntry) -> bool,
) -> Result<FoundPage, PageError> {
    let page = filtered_page(
        positions,
        FilterLimits::page(q.page_size),
        |chunk: &[Position]| {
            let ids: Vec<Id> = chunk.iter().map(|(_, id)| *id).collect();
            let rows = expect_rows(v.multi_get::<PhStakers>(&ids)?, &ids, "staker")?;
            // Delegations are read only for the rows the other filters keep.
            let (kept, validators): (Vec<bool>, Vec<Option<(Id, StakerRow)>>) = ids
                .into_iter()
                .zip(rows)
                .map(|(id, row)| {
                    let k = row.kind.validates() && prefilter(q, &row, chain_time);
                    (k, k.then_some((id, row)))
                })
                .unzip();
            let mut read = entries(
                v,
                validators.into_iter().flatten().collect(),
                chain_time,
                totals,
            )?
            .into_iter();
            Ok::<_, PageError>(
                kept.into_iter()
                    .map(|k| if k { read.next() } else { None })
                    .collect(),
            )
        },
        |_, e: &Option<ValidatorEntry>| e.as_ref().is_some_and(&keep),
        |_| false,
    )?;
    Ok((
        page.items
            .into_iter()
            .filter_map(|(p, e)| e.map(|e| (p, e)))
            .collect(),
        page.next,
    ))
}

/// The validators `validators` with their delegations and (the active ones) their uptimes,
/// each table read in one batch for all of them (`totals`: the subnets' active stakes read so
/// far).
fn entries(
    v: &impl ReadView,
    validators: Vec<(Id, StakerRow)>,
    chain_time: u64,
    totals: &mut BTreeMap<Id, u128>,
) -> Result<Vec<ValidatorEntry>, PageError> {
    let ids: Vec<Id> = validators.iter().map(|(id, _)| *id).collect();
    let delegations = v.multi_get::<PhDelegations>(&ids)?;
    let statuses: Vec<StakerStatus> = validators
        .iter()
        .map(|(_, row)| StakerStatus::of(row, chain_time))
        .collect();
    let active: Vec<Id> = ids
        .iter()
        .zip(&statuses)
        .filter(|(_, s)| **s == StakerStatus::Active)
        .map(|(id, _)| *id)
        .collect();
    let mut uptimes = crate::uptime::uptimes_of(v, &active)?.into_iter();
    let mut out = Vec::with_capacity(validators.len());
    for (((staker_id, row), d), status) in validators.into_iter().zip(delegations).zip(statuses) {
        let uptime = if status == StakerStatus::Active {
            uptimes.next().flatten()
        } else {
            None
        };
        let d = d.map(|Linear(d)| d).unwrap_or_default();
        out.push(entry(staker_id, row, status, d, uptime, totals, v)?);
    }
    Ok(out)
}

/// A validator with its delegations `d` and uptime read (`totals`: the subnets' active stakes
/// read so far).
fn entry(
    staker_id: Id,
    row: StakerRow,
    status: StakerStatus,
    d: crate::rows::Delegations,
    uptime: Option<crate::rows::UptimeRow>,
    totals: &mut BTreeMap<Id, u128>,
    v: &impl ReadView,
) -> Result<ValidatorEntry, PageError> {
    // While current: the delegators not settled, and the fees of those rewarded so far plus
    // the estimated fees of the others; once ended: all of them, and the fees paid.
    let (count, delegated, fees) = if status.current() {
        let fees = d.current_fees.saturating_add(d.paid_fees);
        (d.current_count, d.current_weight, fees)
    } else {
        (d.all_count, d.all_weight, d.paid_fees)
    };
    let capacity = (row.kind == StakerKind::Validator && status.current())
        .then(|| delegation_capacity(row.weight, delegated));
    let subnet_active_stake = match totals.get(&row.subnet_id) {
        Some(t) => *t,
        None => {
            let f = v
                .get::<PhStakingNow>(&row.subnet_id)?
                .map(|Linear(f)| f)
                .unwrap_or_default();
            let t = f.validator_weight.saturating_add(f.delegator_weight);
            totals.insert(row.subnet_id, t);
            t
        }
    };
    Ok(ValidatorEntry {
        staker_id,
        row,
        status,
        delegator_count: count,
        delegated,
        delegation_fees: fees,
        capacity,
        subnet_active_stake,
        uptime,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::{Event, Settled};

    fn staker(kind: StakerKind, start: u64, end: u64, owners: usize) -> StakerRow {
        StakerRow {
            kind,
            node_id: NodeId::default(),
            subnet_id: PRIMARY_NETWORK,
            start,
            end,
            weight: 1,
            delegation_shares: 20_000,
            potential_reward: 0,
            delegatee_reward: 0,
            accepted: Event::default(),
            reward_owners: vec![ShortId::default(); owners],
            validator_tx: None,
            bls_public_key: None,
            settled: None,
            unsigned_tx: Vec::new(),
        }
    }

    fn settled_at(mut row: StakerRow, timestamp: u64, rewarded: bool) -> StakerRow {
        let event = Event {
            timestamp,
            ..Event::default()
        };
        row.settled = Some(Settled { event, rewarded });
        row
    }

    /// avalanchego `vms/platformvm`: pending before the start (`verifyStakerStartTime`, before
    /// Durango), current until `RewardValidatorTx` at the end (`verifyRewardTx`: the chain time
    /// equals the end), a permissioned subnet validator removed early by
    /// `RemoveSubnetValidatorTx` or leaving at its end with no tx (`state_changes.go`
    /// `AdvanceTimeTo`), a permissionless one rewarded like a primary-network validator.
    #[test]
    fn status_follows_the_staker_lifecycle() {
        use StakerStatus::*;
        let v = staker(StakerKind::Validator, 100, 200, 1);
        assert_eq!(StakerStatus::of(&v, 99), Pending);
        assert_eq!(StakerStatus::of(&v, 100), Active);
        // Still current at its end until the reward tx settles it.
        assert_eq!(StakerStatus::of(&v, 200), Active);
        assert_eq!(
            StakerStatus::of(&settled_at(v.clone(), 200, true), 200),
            Completed
        );
        assert_eq!(StakerStatus::of(&settled_at(v, 200, false), 300), Completed);
        let permissioned = staker(StakerKind::SubnetValidator, 100, 200, 0);
        assert_eq!(StakerStatus::of(&permissioned, 150), Active);
        assert_eq!(StakerStatus::of(&permissioned, 200), Completed);
        let removed = settled_at(permissioned.clone(), 150, false);
        assert_eq!(StakerStatus::of(&removed, 160), Removed);
        assert_eq!(delegation_fee(&permissioned), None);
        let permissionless = staker(StakerKind::SubnetValidator, 100, 200, 1);
        assert_eq!(StakerStatus::of(&permissionless, 200), Active);
        assert_eq!(delegation_fee(&permissionless), Some(20_000));
        let d = staker(StakerKind::Delegator, 100, 200, 1);
        assert_eq!(StakerStatus::of(&settled_at(d, 200, true), 200), Completed);
    }

    /// avalanchego `vms/platformvm/txs/executor/staker_tx_verification.go`
    /// (`verifyAddPermissionlessDelegatorTx`): the maximum is `min(5 × weight,
    /// MaxValidatorStake)`; what a delegator may add is that less the validator's stake and
    /// its delegations.
    #[test]
    fn capacity_follows_the_weight_factor_and_the_stake_cap() {
        const AVAX: u64 = 1_000_000_000;
        // 2,000 AVAX: up to 10,000 AVAX in all, 8,000 to delegators.
        assert_eq!(delegation_capacity(2_000 * AVAX, 0), 8_000 * AVAX);
        assert_eq!(delegation_capacity(2_000 * AVAX, 7_975 * AVAX), 25 * AVAX);
        assert_eq!(delegation_capacity(2_000 * AVAX, 9_000 * AVAX), 0);
        // 1 M AVAX: capped at 3 M AVAX in all.
        assert_eq!(delegation_capacity(1_000_000 * AVAX, 0), 2_000_000 * AVAX);
        assert_eq!(delegation_capacity(3_000_000 * AVAX, 0), 0);
        assert_eq!(delegation_capacity(u64::MAX, 0), 0);
    }
}
