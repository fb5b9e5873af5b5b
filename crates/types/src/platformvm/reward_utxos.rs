//! Which UTXOs a staker's reward proposal creates, with their ids, exactly as avalanchego's
//! `vms/platformvm/txs/executor/proposal_tx_executor.go` creates them.
//!
//! A `RewardValidatorTx` names the staker tx it settles. Every UTXO it creates belongs to that
//! staker tx id, at output indexes after the staker tx's own outputs (`Outputs()`, the base
//! outputs):
//! - the staked outputs come back on both branches at `len(outputs) + i` (`unstakeUTXOs`);
//! - a validator, on commit, gets its reward at `len(outputs) + len(stake)` if non-zero, then its
//!   deferred delegation fees (validators started from Cortina) at the next index; on abort the
//!   fees are still paid, at `len(outputs) + len(stake)` (`rewardValidatorTx`);
//! - a delegator, on commit, gets its part of the reward split at `len(outputs) + len(stake)` if
//!   non-zero; the validator's fee is deferred to the validator (started from Cortina) or, for a
//!   validator started before Cortina, paid now at the next index to the validator's delegation
//!   rewards owner (`rewardDelegatorTx`). Abort pays nothing but the stake.
//!
//! A Helicon `RewardAutoRenewedValidatorTx` instead pays withdrawn rewards under its own tx id
//! from index 0 (`mintRewards`); see [`auto_renewed_reward_utxos`].
//!
//! The ids are `UTXOID.InputID()` = `txID.Prefix(outputIndex)`.

use super::fx_types::{Owner, TransferableOut};
use super::txs::{AddAutoRenewedValidatorTx, UnsignedTx};
use super::{TransferableOutput, Utxo};
use crate::Id;
use crate::components::UtxoId;
use crate::fx::secp256k1fx::TransferOutput;

/// Cortina activation on mainnet (2023-04-25 15:00 UTC, `upgrade/upgrade.go`): validators
/// starting from then have delegation fees deferred to the end of their own period.
pub const MAINNET_CORTINA_TIME: u64 = 1_682_434_800;
/// Cortina activation on Fuji (2023-04-06 15:00 UTC).
pub const FUJI_CORTINA_TIME: u64 = 1_680_793_200;

/// Whether a validator that started at `validator_start` (Unix seconds) on `network_id` has its
/// delegation fees deferred (`IsCortinaActivated(validator.StartTime)`); local networks start
/// with every upgrade active.
pub fn defers_delegatee_reward(network_id: u32, validator_start: u64) -> bool {
    match network_id {
        1 => validator_start >= MAINNET_CORTINA_TIME,
        5 => validator_start >= FUJI_CORTINA_TIME,
        _ => true,
    }
}

/// Which branch of the reward proposal was accepted: the commit block (rewarded) or the abort
/// block (not rewarded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RewardBranch {
    /// The proposal's commit option was accepted.
    Commit,
    /// The proposal's abort option was accepted.
    Abort,
}

/// Why a reward UTXO was created.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RewardUtxoKind {
    /// A staked output returned unchanged (locks included).
    Stake,
    /// A validator's own staking reward, to its validation rewards owner.
    ValidationReward,
    /// A delegator's part of its reward, to its rewards owner.
    DelegationReward,
    /// A validator's fee on its delegators' rewards, to its delegation rewards owner.
    DelegateeReward,
}

impl RewardUtxoKind {
    /// The Data API `rewardType` (`RewardType`: `VALIDATOR`, `DELEGATOR`, `VALIDATOR_FEE`);
    /// `None` for returned stake, which is not a reward.
    pub fn data_api_reward_type(self) -> Option<&'static str> {
        match self {
            Self::Stake => None,
            Self::ValidationReward => Some("VALIDATOR"),
            Self::DelegationReward => Some("DELEGATOR"),
            Self::DelegateeReward => Some("VALIDATOR_FEE"),
        }
    }
}

/// One UTXO a reward proposal creates.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RewardUtxo {
    /// Why it exists.
    pub kind: RewardUtxoKind,
    /// The UTXO (its id is `utxo.id()`).
    pub utxo: Utxo,
}

impl RewardUtxo {
    /// The UTXO id, `txID.Prefix(outputIndex)`.
    pub fn id(&self) -> Id {
        self.utxo.id()
    }
}

/// What settling a delegator produces.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct DelegatorRewardUtxos {
    /// The UTXOs created now, in output index order.
    pub utxos: Vec<RewardUtxo>,
    /// The validator's fee added to its deferred delegatee reward (paid when the validator is
    /// settled); 0 on abort or when paid now.
    pub deferred_delegatee_reward: u64,
}

/// Why reward UTXOs cannot be derived.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewardUtxoError {
    /// The tx is not a staker of the expected kind.
    #[error("{found} is not a {expected} rewarded by RewardValidatorTx")]
    WrongStakerType {
        /// The Go type name found.
        found: &'static str,
        /// What was expected ("validator", "delegator").
        expected: &'static str,
    },
    /// A staker tx without staked outputs (invalid: the reward asset is the stake's).
    #[error("staker tx has no staked outputs")]
    NoStake,
    /// Output indexes beyond `u32` (impossible for a tx within the size limit).
    #[error("output index overflows u32")]
    IndexOverflow,
}

fn index(n: usize) -> Result<u32, RewardUtxoError> {
    u32::try_from(n).map_err(|_| RewardUtxoError::IndexOverflow)
}

fn reward_utxo(
    kind: RewardUtxoKind,
    tx_id: Id,
    output_index: u32,
    asset_id: Id,
    amount: u64,
    owner: &Owner,
) -> RewardUtxo {
    // `secp256k1fx.Fx.CreateOutput`: a TransferOutput of the amount to the owner.
    let output = TransferableOut::Secp256k1(TransferOutput {
        amount,
        owners: owner.owners().clone(),
    });
    RewardUtxo {
        kind,
        utxo: Utxo {
            utxo_id: UtxoId::new(tx_id, output_index),
            asset_id,
            output,
        },
    }
}

/// The staked outputs returned when a staker leaves (both branches): index `len(outputs) + i`
/// under the staker tx id (`unstakeUTXOs`). Empty for a tx that stakes nothing.
pub fn returned_stake_utxos(
    staker_tx_id: Id,
    staker: &UnsignedTx,
) -> Result<Vec<RewardUtxo>, RewardUtxoError> {
    let offset = staker.outputs().len();
    staker
        .stake()
        .iter()
        .enumerate()
        .map(|(i, out)| {
            Ok(RewardUtxo {
                kind: RewardUtxoKind::Stake,
                utxo: Utxo {
                    utxo_id: UtxoId::new(staker_tx_id, index(offset.saturating_add(i))?),
                    asset_id: out.asset_id,
                    output: out.output.clone(),
                },
            })
        })
        .collect()
}

fn first_stake_asset(stake: &[TransferableOutput]) -> Result<Id, RewardUtxoError> {
    stake
        .first()
        .map(|o| o.asset_id)
        .ok_or(RewardUtxoError::NoStake)
}

/// The validation and delegation rewards owners and delegation fee of a validator tx.
fn validator_terms(tx: &UnsignedTx) -> Result<(&Owner, &Owner, u32), RewardUtxoError> {
    match tx {
        UnsignedTx::AddValidatorTx(t) => {
            Ok((&t.rewards_owner, &t.rewards_owner, t.delegation_shares))
        }
        UnsignedTx::AddPermissionlessValidatorTx(t) => Ok((
            &t.validator_rewards_owner,
            &t.delegator_rewards_owner,
            t.delegation_shares,
        )),
        UnsignedTx::AddAutoRenewedValidatorTx(t) => Ok((
            &t.validator_rewards_owner,
            &t.delegator_rewards_owner,
            t.delegation_shares,
        )),
        other => Err(RewardUtxoError::WrongStakerType {
            found: other.type_name(),
            expected: "validator",
        }),
    }
}

/// The UTXOs a `RewardValidatorTx` for a validator (`AddValidatorTx` or
/// `AddPermissionlessValidatorTx`) creates on `branch`, in output index order: the returned
/// stake, then on commit the validation reward (`potential_reward`, if non-zero) and the deferred
/// delegation fees (`delegatee_reward`, if non-zero); on abort only the fees, at the first index
/// after the stake.
pub fn validator_reward_utxos(
    staker_tx_id: Id,
    staker: &UnsignedTx,
    branch: RewardBranch,
    potential_reward: u64,
    delegatee_reward: u64,
) -> Result<Vec<RewardUtxo>, RewardUtxoError> {
    if matches!(staker, UnsignedTx::AddAutoRenewedValidatorTx(_)) {
        // Rewarded through RewardAutoRenewedValidatorTx instead.
        return Err(RewardUtxoError::WrongStakerType {
            found: staker.type_name(),
            expected: "validator",
        });
    }
    let (validation_owner, delegation_owner, _) = validator_terms(staker)?;
    let asset = first_stake_asset(staker.stake())?;
    let mut out = returned_stake_utxos(staker_tx_id, staker)?;
    let mut next = index(staker.outputs().len().saturating_add(staker.stake().len()))?;
    if branch == RewardBranch::Commit && potential_reward > 0 {
        out.push(reward_utxo(
            RewardUtxoKind::ValidationReward,
            staker_tx_id,
            next,
            asset,
            potential_reward,
            validation_owner,
        ));
        next = next.checked_add(1).ok_or(RewardUtxoError::IndexOverflow)?;
    }
    if delegatee_reward > 0 {
        out.push(reward_utxo(
            RewardUtxoKind::DelegateeReward,
            staker_tx_id,
            next,
            asset,
            delegatee_reward,
            delegation_owner,
        ));
    }
    Ok(out)
}

/// The UTXOs a `RewardValidatorTx` for a delegator (`AddDelegatorTx` or
/// `AddPermissionlessDelegatorTx`) creates on `branch`. `validator` is the tx of the validator
/// delegated to (its fee and delegation rewards owner); `defers_fee` is
/// [`defers_delegatee_reward`] for that validator's start time. The reward is split with
/// [`super::reward::split`].
pub fn delegator_reward_utxos(
    staker_tx_id: Id,
    delegator: &UnsignedTx,
    branch: RewardBranch,
    potential_reward: u64,
    validator: &UnsignedTx,
    defers_fee: bool,
) -> Result<DelegatorRewardUtxos, RewardUtxoError> {
    let rewards_owner = match delegator {
        UnsignedTx::AddDelegatorTx(t) => &t.rewards_owner,
        UnsignedTx::AddPermissionlessDelegatorTx(t) => &t.rewards_owner,
        other => {
            return Err(RewardUtxoError::WrongStakerType {
                found: other.type_name(),
                expected: "delegator",
            });
        }
    };
    let (_, delegation_owner, shares) = validator_terms(validator)?;
    let asset = first_stake_asset(delegator.stake())?;
    let mut utxos = returned_stake_utxos(staker_tx_id, delegator)?;
    if branch == RewardBranch::Abort {
        return Ok(DelegatorRewardUtxos {
            utxos,
            deferred_delegatee_reward: 0,
        });
    }
    let (delegatee_reward, delegator_reward) = super::reward::split(potential_reward, shares);
    let mut next = index(
        delegator
            .outputs()
            .len()
            .saturating_add(delegator.stake().len()),
    )?;
    if delegator_reward > 0 {
        utxos.push(reward_utxo(
            RewardUtxoKind::DelegationReward,
            staker_tx_id,
            next,
            asset,
            delegator_reward,
            rewards_owner,
        ));
        next = next.checked_add(1).ok_or(RewardUtxoError::IndexOverflow)?;
    }
    let mut deferred = 0;
    if delegatee_reward > 0 {
        if defers_fee {
            deferred = delegatee_reward;
        } else {
            utxos.push(reward_utxo(
                RewardUtxoKind::DelegateeReward,
                staker_tx_id,
                next,
                asset,
                delegatee_reward,
                delegation_owner,
            ));
        }
    }
    Ok(DelegatorRewardUtxos {
        utxos,
        deferred_delegatee_reward: deferred,
    })
}

/// The reward UTXOs a Helicon `RewardAutoRenewedValidatorTx` (id `reward_tx_id`) pays for
/// `staker` (`mintRewards`): under the reward tx's own id from index 0, the withdrawn validation
/// rewards then the withdrawn delegatee rewards, each only if non-zero, in AVAX. When the
/// validator exits, its stake also comes back under the staker tx id
/// ([`returned_stake_utxos`]).
pub fn auto_renewed_reward_utxos(
    reward_tx_id: Id,
    avax_asset_id: Id,
    staker: &AddAutoRenewedValidatorTx,
    validation_rewards: u64,
    delegatee_rewards: u64,
) -> Vec<RewardUtxo> {
    let mut out = Vec::with_capacity(2);
    let mut next = 0u32;
    if validation_rewards > 0 {
        out.push(reward_utxo(
            RewardUtxoKind::ValidationReward,
            reward_tx_id,
            next,
            avax_asset_id,
            validation_rewards,
            &staker.validator_rewards_owner,
        ));
        next = 1;
    }
    if delegatee_rewards > 0 {
        out.push(reward_utxo(
            RewardUtxoKind::DelegateeReward,
            reward_tx_id,
            next,
            avax_asset_id,
            delegatee_rewards,
            &staker.delegator_rewards_owner,
        ));
    }
    out
}
