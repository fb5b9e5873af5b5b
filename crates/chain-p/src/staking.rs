//! What a staker tx starts: its kind, node, period, weight, owners, stake outputs, and the
//! network rules that decide its start time and reward (avalanchego
//! `vms/platformvm/txs/executor/standard_tx_executor.go`, `proposal_tx_executor.go`).

use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{Signer, TransferableOutput};
use snowline_types::{Id, NodeId, ShortId};

use crate::rows::{StakerKind, StakerRow};
pub(crate) use crate::upgrades::durango as starts_at_acceptance;

/// The staking terms of a staker tx.
pub(crate) struct Terms<'a> {
    pub kind: StakerKind,
    pub node_id: NodeId,
    pub subnet_id: Id,
    /// The start the tx states (ignored from Durango on).
    pub stated_start: u64,
    pub end: u64,
    pub weight: u64,
    pub delegation_shares: u32,
    pub stake: &'a [TransferableOutput],
    pub reward_owners: Vec<ShortId>,
    pub bls_public_key: Option<[u8; 48]>,
}

/// The primary network's subnet id.
pub const PRIMARY_NETWORK: Id = Id::EMPTY;

/// The terms of `tx` if it adds a staker the index tracks (primary-network validators and
/// delegators, subnet validators); auto-renewed validators (Helicon, not scheduled) are not.
pub(crate) fn terms(tx: &UnsignedTx) -> Option<Terms<'_>> {
    let kind_of = |subnet: &Id, validates: bool| match (*subnet == PRIMARY_NETWORK, validates) {
        (true, true) => StakerKind::Validator,
        (true, false) => StakerKind::Delegator,
        (false, true) => StakerKind::SubnetValidator,
        (false, false) => StakerKind::SubnetDelegator,
    };
    Some(match tx {
        UnsignedTx::AddValidatorTx(t) => Terms {
            kind: StakerKind::Validator,
            node_id: t.validator.node_id,
            subnet_id: PRIMARY_NETWORK,
            stated_start: t.validator.start,
            end: t.validator.end,
            weight: t.validator.weight,
            delegation_shares: t.delegation_shares,
            stake: &t.stake,
            reward_owners: t.rewards_owner.owners().addrs.clone(),
            bls_public_key: None,
        },
        UnsignedTx::AddDelegatorTx(t) => Terms {
            kind: StakerKind::Delegator,
            node_id: t.validator.node_id,
            subnet_id: PRIMARY_NETWORK,
            stated_start: t.validator.start,
            end: t.validator.end,
            weight: t.validator.weight,
            delegation_shares: 0,
            stake: &t.stake,
            reward_owners: t.rewards_owner.owners().addrs.clone(),
            bls_public_key: None,
        },
        UnsignedTx::AddSubnetValidatorTx(t) => Terms {
            kind: StakerKind::SubnetValidator,
            node_id: t.validator.validator.node_id,
            subnet_id: t.validator.subnet_id,
            stated_start: t.validator.validator.start,
            end: t.validator.validator.end,
            weight: t.validator.validator.weight,
            delegation_shares: 0,
            stake: &[],
            reward_owners: Vec::new(),
            bls_public_key: None,
        },
        UnsignedTx::AddPermissionlessValidatorTx(t) => Terms {
            kind: kind_of(&t.subnet_id, true),
            node_id: t.validator.node_id,
            subnet_id: t.subnet_id,
            stated_start: t.validator.start,
            end: t.validator.end,
            weight: t.validator.weight,
            delegation_shares: t.delegation_shares,
            stake: &t.stake,
            reward_owners: t.validator_rewards_owner.owners().addrs.clone(),
            bls_public_key: match &t.signer {
                Signer::ProofOfPossession(p) => Some(p.public_key),
                Signer::Empty(_) => None,
            },
        },
        UnsignedTx::AddPermissionlessDelegatorTx(t) => Terms {
            kind: kind_of(&t.subnet_id, false),
            node_id: t.validator.node_id,
            subnet_id: t.subnet_id,
            stated_start: t.validator.start,
            end: t.validator.end,
            weight: t.validator.weight,
            delegation_shares: 0,
            stake: &t.stake,
            reward_owners: t.rewards_owner.owners().addrs.clone(),
            bls_public_key: None,
        },
        _ => return None,
    })
}

/// `MaxValidatorStake` of mainnet, Fuji and local networks alike: 3 M AVAX, in nAVAX
/// (avalanchego `genesis/genesis_{mainnet,fuji,local}.go`, `StakingConfig`).
pub const MAX_VALIDATOR_STAKE: u64 = 3_000_000_000_000_000;

/// `MaxValidatorWeightFactor` of the primary network: a validator's stake plus its delegations
/// is at most 5 times its stake (avalanchego `vms/platformvm/txs/executor/staker_tx_verification.go`
/// `getDelegatorRules`, `config.MaxValidatorWeightFactor`).
pub const MAX_VALIDATOR_WEIGHT_FACTOR: u64 = 5;

/// What a delegator may still add to a primary-network validator of `stake` already holding
/// `delegated`: `min(5 × stake, MaxValidatorStake) − stake − delegated`, never below zero.
pub fn delegation_capacity(stake: u64, delegated: u64) -> u64 {
    stake
        .saturating_mul(MAX_VALIDATOR_WEIGHT_FACTOR)
        .min(MAX_VALIDATOR_STAKE)
        .saturating_sub(stake)
        .saturating_sub(delegated)
}

/// A permissioned subnet validator (`AddSubnetValidatorTx`: no stake, no reward owner), which
/// leaves at its end time without a reward tx.
pub(crate) fn permissioned(row: &StakerRow) -> bool {
    row.kind == StakerKind::SubnetValidator && row.reward_owners.is_empty()
}

/// The delegation fee a validator charges, millionths: primary-network and permissionless
/// subnet validators; a permissioned subnet validator takes no delegations.
pub fn delegation_fee(row: &StakerRow) -> Option<u32> {
    (row.kind.validates() && !permissioned(row)).then_some(row.delegation_shares)
}
