//! What a staker tx starts: its kind, node, period, weight, owners, stake outputs, and the
//! network rules that decide its start time and reward (avalanchego
//! `vms/platformvm/txs/executor/standard_tx_executor.go`, `proposal_tx_executor.go`).

use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{Signer, TransferableOutput};
use snowline_types::{Id, NodeId, ShortId};

use crate::rows::StakerKind;
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
