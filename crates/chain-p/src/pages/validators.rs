//! A subnet's validator set at a P-Chain height, as Warp signature aggregation needs it: each
//! validator's node, BLS public key and weight, as avalanchego's validator manager gives them
//! (`vms/platformvm/validators/manager.go` `GetValidatorSet`). The primary network's and a
//! permissioned subnet's sets are derived from the staker rows (a validator's weight includes
//! its current delegations, a subnet validator signs with its node's primary-network key). An
//! L1's set is rebuilt from `ph_l1_history`: its active validators with their keys, and the
//! weight of its inactive ones (disabled, or whose balance ran out by the continuous fee) summed
//! under the empty node id with no key (`vms/platformvm/state/state.go` `initValidatorSets`,
//! `state/l1_validator.go` `effectiveNodeID`), so it counts in the total weight but signs for no
//! one. A proposal block's changes are written with its option block, the next height
//! (`block/executor/acceptor.go` `optionBlock`), so the set at a proposal block's height is its
//! parent's.

use std::collections::BTreeMap;

use snowline_store::{Direction, Linear, ReadView};
use snowline_types::{Id, NodeId};

use super::{PChainPages, tip};
use crate::PChainError;
use crate::reader::PReader;
use crate::rows::{L1ValidatorRow, StakerKind, StakerRow};
use crate::tables::{
    PhBlocks, PhCurrentStakers, PhL1BySubnet, PhL1History, PhL1Validators, PhStakers, PhSubnets,
};

/// One validator of a set (avalanchego's `GetValidatorOutput`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetValidator {
    /// Its node id (20 bytes; all zeros for an L1's inactive validators together).
    pub node_id: Vec<u8>,
    /// Its BLS public key (48 bytes compressed), when it has one; an L1's inactive weight has
    /// none.
    pub public_key: Option<[u8; 48]>,
    /// Its weight (stake plus delegations on the primary network).
    pub weight: u64,
}

/// The node id avalanchego files an L1's inactive weight under (`ids.EmptyNodeID`).
pub const EMPTY_NODE_ID: [u8; 20] = [0; 20];

/// A subnet's validators at a height.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorSet {
    /// The height the set is at.
    pub height: u64,
    /// Whether the subnet is an L1 at that height.
    pub l1: bool,
    /// The validators, by node id.
    pub validators: Vec<SetValidator>,
}

/// Why a validator set could not be given.
#[derive(Debug, thiserror::Error)]
pub enum ValidatorSetError {
    /// The P-Chain index holds no block yet.
    #[error("the P-Chain is not indexed yet")]
    NotIndexed,
    /// A height past the index's tip.
    #[error("P-Chain height {asked} is not indexed yet (the last indexed height is {last})")]
    BeyondTip {
        /// The height asked for.
        asked: u64,
        /// The tip.
        last: u64,
    },
    /// Reading the index failed (our fault).
    #[error(transparent)]
    Read(#[from] PChainError),
}

impl From<snowline_store::StoreError> for ValidatorSetError {
    fn from(e: snowline_store::StoreError) -> Self {
        ValidatorSetError::Read(e.into())
    }
}

impl PChainPages {
    /// The L1 validator of validation id `id`, as it stands now.
    pub fn l1_validator(&self, id: &Id) -> Result<Option<L1ValidatorRow>, ValidatorSetError> {
        let snapshot = self.store.snapshot();
        Ok(PReader::new(&snapshot).l1_validator(id)?)
    }

    /// The validators of `subnet` (the primary network's id is all zeros) at P-Chain `height`
    /// (`None`: the indexed tip).
    pub fn validator_set(
        &self,
        subnet: &Id,
        height: Option<u64>,
    ) -> Result<ValidatorSet, ValidatorSetError> {
        let snapshot = self.store.snapshot();
        let t = tip(&snapshot).map_err(|e| match e {
            super::PageError::Read(e) => ValidatorSetError::Read(e),
            super::PageError::BadPosition => ValidatorSetError::NotIndexed,
        })?;
        let last = t.height.ok_or(ValidatorSetError::NotIndexed)?;
        let asked = height.unwrap_or(last);
        if asked > last {
            return Err(ValidatorSetError::BeyondTip { asked, last });
        }
        let h = written_height(&snapshot, asked)?;
        let converted = snapshot
            .get::<PhSubnets>(subnet)?
            .and_then(|Linear(s)| s.conversion)
            .is_some_and(|c| c.event.height <= h);
        if converted {
            let mut set = l1_set(&snapshot, subnet, h)?;
            set.height = asked;
            return Ok(set);
        }
        let time = match snapshot.get::<PhBlocks>(&h)? {
            Some(Linear(b)) => b.timestamp,
            None if h == last => t.chain_time,
            // Genesis has no block row: its stakers, the only ones accepted at height 0, are
            // current from its start.
            None => u64::MAX,
        };
        let stakers = if h == last {
            current_stakers(&snapshot)?
        } else {
            let mut all = Vec::new();
            for r in snapshot.scan::<PhStakers, _>(.., Direction::Forward)? {
                let (_, Linear(s)) = r?;
                if staking_at(&s, h, time) {
                    all.push(s);
                }
            }
            all
        };
        Ok(staker_set(subnet, asked, &stakers))
    }
}

/// The height whose state the set at `h` is: a proposal block's changes are written with its
/// option block, so at a proposal block's height the set is its parent's.
fn written_height(view: &impl ReadView, h: u64) -> Result<u64, ValidatorSetError> {
    let proposal = view
        .get::<PhBlocks>(&h)?
        .is_some_and(|Linear(b)| b.block_type.ends_with("ProposalBlock"));
    Ok(if proposal { h.saturating_sub(1) } else { h })
}

/// Whether `s` stakes at height `h` (block time `time`): accepted by then, started, and not yet
/// settled.
fn staking_at(s: &StakerRow, h: u64, time: u64) -> bool {
    s.accepted.height <= h
        && s.start <= time
        && s.settled.as_ref().is_none_or(|x| x.event.height > h)
}

/// The current stakers (not yet settled).
fn current_stakers(view: &impl ReadView) -> Result<Vec<StakerRow>, ValidatorSetError> {
    let ids: Vec<Id> = view
        .scan::<PhCurrentStakers, _>(.., Direction::Forward)?
        .map(|r| r.map(|((_, id), ())| id))
        .collect::<Result<_, _>>()?;
    let rows = view.multi_get::<PhStakers>(&ids)?;
    ids.iter()
        .zip(rows)
        .map(|(id, r)| {
            r.map(|Linear(s)| s).ok_or_else(|| {
                ValidatorSetError::Read(PChainError::Corrupt(format!(
                    "the current stakers name {id}, which is not stored"
                )))
            })
        })
        .collect()
}

/// The set of `subnet` from the stakers staking at the height: validators weighted with their
/// delegations, each with its node's primary-network BLS key.
fn staker_set(subnet: &Id, height: u64, stakers: &[StakerRow]) -> ValidatorSet {
    let primary = Id::default();
    let keys: BTreeMap<NodeId, [u8; 48]> = stakers
        .iter()
        .filter(|s| s.kind == StakerKind::Validator && s.subnet_id == primary)
        .filter_map(|s| Some((s.node_id, s.bls_public_key?)))
        .collect();
    let mut weights: BTreeMap<NodeId, u64> = BTreeMap::new();
    for s in stakers.iter().filter(|s| s.subnet_id == *subnet) {
        match s.kind {
            StakerKind::Validator | StakerKind::SubnetValidator => {
                let w = weights.entry(s.node_id).or_default();
                *w = w.saturating_add(s.weight);
            }
            StakerKind::Delegator | StakerKind::SubnetDelegator => {}
        }
    }
    for s in stakers.iter().filter(|s| s.subnet_id == *subnet) {
        if matches!(s.kind, StakerKind::Delegator | StakerKind::SubnetDelegator) {
            if let Some(w) = weights.get_mut(&s.node_id) {
                *w = w.saturating_add(s.weight);
            }
        }
    }
    ValidatorSet {
        height,
        l1: false,
        validators: weights
            .into_iter()
            .map(|(node, weight)| SetValidator {
                node_id: node.as_bytes().to_vec(),
                public_key: keys.get(&node).copied(),
                weight,
            })
            .collect(),
    }
}

/// An L1's validators at height `height`: each validator registered by then and not removed
/// (weight 0) with the weight its last change up to the height left; active ones (end fee above
/// the fees accrued per validator after the block) with their node and key, inactive ones
/// summed under [`EMPTY_NODE_ID`] without a key.
fn l1_set(
    view: &impl ReadView,
    subnet: &Id,
    height: u64,
) -> Result<ValidatorSet, ValidatorSetError> {
    // The genesis has no block row and no L1 validator.
    let accrued = view
        .get::<PhBlocks>(&height)?
        .map_or(0, |Linear(b)| b.l1_accrued_fees);
    let ids: Vec<Id> = view
        .prefix_scan::<PhL1BySubnet, Id>(subnet, None, Direction::Forward)?
        .map(|r| r.map(|((_, id), ())| id))
        .collect::<Result<_, _>>()?;
    let rows = view.multi_get::<PhL1Validators>(&ids)?;
    let mut validators: Vec<SetValidator> = Vec::new();
    let mut inactive: u64 = 0;
    for (id, row) in ids.iter().zip(rows) {
        let Some(Linear(row)) = row else {
            return Err(corrupt(format!(
                "L1 {subnet} names validation {id}, which is not stored"
            )));
        };
        let Some(state) = state_at(view, id, height)? else {
            continue;
        };
        if state.weight == 0 {
            continue;
        }
        if state.end_accumulated_fee > accrued {
            validators.push(active_validator(row, state.weight));
        } else {
            inactive = inactive.checked_add(state.weight).ok_or_else(|| {
                corrupt(format!("the weights of L1 {subnet} overflow at {height}"))
            })?;
        }
    }
    if inactive > 0 {
        validators.push(SetValidator {
            node_id: EMPTY_NODE_ID.to_vec(),
            public_key: None,
            weight: inactive,
        });
    }
    validators.sort_by(|a, b| a.node_id.cmp(&b.node_id));
    Ok(ValidatorSet {
        height,
        l1: true,
        validators,
    })
}

/// The weight and end fee of validation `id` after block `height`: its last change at or
/// below the height; `None` before its registration.
pub(super) fn state_at(
    view: &impl ReadView,
    id: &Id,
    height: u64,
) -> Result<Option<crate::rows::L1ValidatorState>, ValidatorSetError> {
    let range = (*id, 0)..=(*id, height);
    match view
        .scan::<PhL1History, _>(range, Direction::Reverse)?
        .next()
    {
        Some(r) => Ok(Some(r?.1.0)),
        None => Ok(None),
    }
}

fn active_validator(row: L1ValidatorRow, weight: u64) -> SetValidator {
    SetValidator {
        node_id: row.node_id,
        public_key: Some(row.public_key),
        weight,
    }
}

fn corrupt(reason: String) -> ValidatorSetError {
    ValidatorSetError::Read(PChainError::Corrupt(reason))
}
