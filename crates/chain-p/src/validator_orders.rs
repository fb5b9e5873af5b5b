//! The orders the validator listings page through, kept at ingest in `ph_validator_sorts`: for
//! each figure a listing sorts by (block height, delegation capacity, end, delegation fee), the
//! validators by that figure's value, every validator and the current ones (not settled), of
//! every subnet and of each. A page reads its validators from one order past its position
//! instead of reading and sorting every validator.
//!
//! Each value is the one the listing sorts by at any chain time until the next block: the block
//! height, the end and the fee never change; the delegation capacity of a primary-network
//! validator not settled, `min(5 × stake, MaxValidatorStake) − stake − delegated`, changes only
//! when one of its delegators is accepted or settled, and is 0 once it is settled (and for every
//! other kind of validator). Every validator by block height of every subnet is `ph_orders`'
//! validator listing, not repeated here.

use snowline_store::WriteBatch;
use snowline_types::Id;

use crate::rows::{Delegations, StakerKind, StakerRow};
use crate::staking::{delegation_capacity, delegation_fee};
use crate::tables::PhValidatorSorts;

pub(crate) use crate::tables::{
    SORT_BY_BLOCK_INDEX as BY_BLOCK_INDEX, SORT_BY_CAPACITY as BY_CAPACITY, SORT_BY_END as BY_END,
    SORT_BY_FEE as BY_FEE,
};
use crate::tables::{SORT_CURRENT as CURRENT, SORT_ONE_SUBNET as ONE_SUBNET};

const FIGURES: [u8; 4] = [BY_BLOCK_INDEX, BY_CAPACITY, BY_END, BY_FEE];

/// The key of figure `by`'s order of the current validators (`current`) or all of them, of
/// `subnet` or of every subnet.
pub(crate) fn order(by: u8, current: bool, subnet: Option<Id>) -> (u8, u8, Id) {
    let set = if current { CURRENT } else { 0 } | if subnet.is_some() { ONE_SUBNET } else { 0 };
    (by, set, subnet.unwrap_or_default())
}

/// Whether [`order`] keeps this order here (every validator by block height of every subnet is
/// `ph_orders`').
fn kept(by: u8, current: bool, subnet: Option<Id>) -> bool {
    by != BY_BLOCK_INDEX || current || subnet.is_some()
}

/// Validator `row`'s value of figure `by`, with its delegations `d`, while it is current
/// (`current`: not settled) or after.
pub(crate) fn value(by: u8, row: &StakerRow, d: &Delegations, current: bool) -> u64 {
    match by {
        BY_BLOCK_INDEX => row.accepted.height,
        BY_CAPACITY if row.kind == StakerKind::Validator && current => {
            delegation_capacity(row.weight, d.current_weight)
        }
        BY_CAPACITY => 0,
        BY_END => row.end,
        _ => delegation_fee(row).map_or(0, u64::from),
    }
}

/// The orders of a validator while it is current, or after (`current` false).
fn orders(row: &StakerRow, current: bool) -> impl Iterator<Item = (u8, (u8, u8, Id))> + '_ {
    let sets = if current {
        &[false, true][..]
    } else {
        &[false][..]
    };
    FIGURES.into_iter().flat_map(move |by| {
        sets.iter().flat_map(move |&cur| {
            [None, Some(row.subnet_id)]
                .into_iter()
                .filter(move |&s| kept(by, cur, s))
                .map(move |s| (by, order(by, cur, s)))
        })
    })
}

/// A validator accepted: its entries in every order, current.
pub(crate) fn add(batch: &mut WriteBatch, id: Id, row: &StakerRow) {
    let d = Delegations::default();
    for (by, key) in orders(row, true) {
        batch.put::<PhValidatorSorts>(&(key, value(by, row, &d, true), id), &());
    }
}

/// A current validator's delegations went from `old` to `new`: its capacity moves.
pub(crate) fn reweigh(
    batch: &mut WriteBatch,
    id: Id,
    row: &StakerRow,
    (old, new): (&Delegations, &Delegations),
) {
    let (was, is) = (
        value(BY_CAPACITY, row, old, true),
        value(BY_CAPACITY, row, new, true),
    );
    if was == is {
        return;
    }
    for (_, key) in orders(row, true).filter(|(by, _)| *by == BY_CAPACITY) {
        batch.delete::<PhValidatorSorts>(&(key, was, id));
        batch.put::<PhValidatorSorts>(&(key, is, id), &());
    }
}

/// A validator settled: out of the current orders, its capacity 0 in the others.
pub(crate) fn settle(batch: &mut WriteBatch, id: Id, row: &StakerRow, d: &Delegations) {
    for (by, key) in orders(row, true) {
        let (was, is) = (value(by, row, d, true), value(by, row, d, false));
        let current = key.1 & CURRENT != 0;
        if current || was != is {
            batch.delete::<PhValidatorSorts>(&(key, was, id));
        }
        if !current && was != is {
            batch.put::<PhValidatorSorts>(&(key, is, id), &());
        }
    }
}
