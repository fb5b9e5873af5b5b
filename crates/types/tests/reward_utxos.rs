//! Reward UTXO identification against avalanchego's reward execution.
//!
//! Rules: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go (`unstakeUTXOs`,
//! `rewardValidatorTx`, `rewardDelegatorTx`, `mintRewards`), asserted there by
//! vms/platformvm/txs/executor/reward_validator_test.go. No public vector pairs a staker tx with
//! the bytes of its reward UTXOs (the `platform.getRewardUTXOs` example in
//! vms/platformvm/service.md uses made-up tx ids), so the staker txs are avalanchego's signed
//! vectors (vms/platformvm/txs/fee/calculator_test.go) and the indexes follow the Go rules above.
#![allow(clippy::expect_used, clippy::panic)] // test helpers outside #[test] fns

mod pvm_data;

use pvm_data::{ADD_AUTO_RENEWED, FEE_TXS};
use snowline_types::Id;
use snowline_types::codec::unmarshal;
use snowline_types::components::UtxoId;
use snowline_types::hashing::sha256;
use snowline_types::platformvm::reward::split;
use snowline_types::platformvm::reward_utxos::{
    DelegatorRewardUtxos, FUJI_CORTINA_TIME, MAINNET_CORTINA_TIME, auto_renewed_reward_utxos,
    defers_delegatee_reward, delegator_reward_utxos, returned_stake_utxos, validator_reward_utxos,
};
use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{
    ParsedTx, RewardBranch, RewardUtxo, RewardUtxoError, RewardUtxoKind, TransferableOut, Tx,
};

fn parsed(name: &str) -> ParsedTx {
    let c = FEE_TXS
        .iter()
        .find(|c| c.name == name)
        .expect("case exists");
    Tx::parse(&hex::decode(c.hex).expect("hex")).expect("vector parses")
}

/// `UTXOID.InputID()`: `sha256(u64_be(index) ‖ txID)`, computed independently of `Id::prefix`.
fn input_id(tx_id: Id, index: u32) -> Id {
    let mut buf = u64::from(index).to_be_bytes().to_vec();
    buf.extend_from_slice(&tx_id.0);
    Id(sha256(&buf))
}

fn shape(utxos: &[RewardUtxo]) -> Vec<(RewardUtxoKind, u32, u64)> {
    utxos
        .iter()
        .map(|u| (u.kind, u.utxo.utxo_id.output_index, u.utxo.output.amount()))
        .collect()
}

fn owner_of(u: &RewardUtxo) -> &snowline_types::fx::secp256k1fx::OutputOwners {
    u.utxo.output.owners()
}

fn check_ids(utxos: &[RewardUtxo], tx_id: Id) {
    for u in utxos {
        assert_eq!(u.utxo.utxo_id.tx_id, tx_id);
        assert_eq!(u.id(), input_id(tx_id, u.utxo.utxo_id.output_index));
    }
}

#[test]
fn validator_commit_and_abort() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go
    // (rewardValidatorTx; TestRewardValidatorTxExecuteOnCommit / OnAbort in
    // reward_validator_test.go), staker = the mainnet AddValidatorTx of fee/calculator_test.go.
    let p = parsed("AddValidatorTx");
    let staker = &p.tx.unsigned;
    // No base outputs, one (stakeable-locked) stake output of 2000 AVAX.
    assert_eq!((staker.outputs().len(), staker.stake().len()), (0, 1));
    let commit = validator_reward_utxos(p.id, staker, RewardBranch::Commit, 7, 3).expect("ok");
    assert_eq!(
        shape(&commit),
        [
            (RewardUtxoKind::Stake, 0, 2_000_000_000_000),
            (RewardUtxoKind::ValidationReward, 1, 7),
            (RewardUtxoKind::DelegateeReward, 2, 3),
        ]
    );
    check_ids(&commit, p.id);
    // The returned stake keeps its lock; rewards are plain outputs of the stake's asset.
    assert!(matches!(
        commit[0].utxo.output,
        TransferableOut::StakeableLock(_)
    ));
    let UnsignedTx::AddValidatorTx(v) = staker else {
        panic!("AddValidatorTx")
    };
    for u in &commit[1..] {
        assert!(matches!(u.utxo.output, TransferableOut::Secp256k1(_)));
        assert_eq!(u.utxo.asset_id, staker.stake()[0].asset_id);
        assert_eq!(owner_of(u), v.rewards_owner.owners());
    }

    // Abort: no validation reward; the deferred fees move to the first index after the stake.
    let abort = validator_reward_utxos(p.id, staker, RewardBranch::Abort, 7, 3).expect("ok");
    assert_eq!(
        shape(&abort),
        [
            (RewardUtxoKind::Stake, 0, 2_000_000_000_000),
            (RewardUtxoKind::DelegateeReward, 1, 3),
        ]
    );
    check_ids(&abort, p.id);

    // A zero reward creates no UTXO and does not shift the fees (utxosOffset stays 0).
    let zero = validator_reward_utxos(p.id, staker, RewardBranch::Commit, 0, 3).expect("ok");
    assert_eq!(zero[1].kind, RewardUtxoKind::DelegateeReward);
    assert_eq!(zero[1].utxo.utxo_id.output_index, 1);
    // Nothing but the stake when there is nothing to pay.
    let none = validator_reward_utxos(p.id, staker, RewardBranch::Commit, 0, 0).expect("ok");
    assert_eq!(none, returned_stake_utxos(p.id, staker).expect("ok"));
}

#[test]
fn permissionless_validator_indexes_follow_base_outputs() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go (unstakeUTXOs:
    // `len(stakerTx.Outputs()) + i`), staker = "AddPermissionlessValidatorTx for primary
    // network" of fee/calculator_test.go (one change output, one stake output).
    let p = parsed("AddPermissionlessValidatorTx for primary network");
    let staker = &p.tx.unsigned;
    assert_eq!((staker.outputs().len(), staker.stake().len()), (1, 1));
    let UnsignedTx::AddPermissionlessValidatorTx(v) = staker else {
        panic!("AddPermissionlessValidatorTx")
    };
    let u = validator_reward_utxos(p.id, staker, RewardBranch::Commit, 10, 20).expect("ok");
    assert_eq!(
        shape(&u),
        [
            (RewardUtxoKind::Stake, 1, v.validator.weight),
            (RewardUtxoKind::ValidationReward, 2, 10),
            (RewardUtxoKind::DelegateeReward, 3, 20),
        ]
    );
    assert_eq!(owner_of(&u[1]), v.validator_rewards_owner.owners());
    assert_eq!(owner_of(&u[2]), v.delegator_rewards_owner.owners());
    check_ids(&u, p.id);
}

#[test]
fn delegator_commit_before_and_after_cortina() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go
    // (rewardDelegatorTx; TestRewardDelegatorTxExecuteOnCommitPreDelegateeDeferral and
    // ...PostDelegateeDeferral in reward_validator_test.go). The delegator and its validator are
    // the primary-network AddPermissionlessDelegatorTx / ValidatorTx of fee/calculator_test.go
    // (the delegator spends the validator's change and delegates to its node).
    let d = parsed("AddPermissionlessDelegatorTx for primary network");
    let v = parsed("AddPermissionlessValidatorTx for primary network");
    let (
        UnsignedTx::AddPermissionlessDelegatorTx(dt),
        UnsignedTx::AddPermissionlessValidatorTx(vt),
    ) = (&d.tx.unsigned, &v.tx.unsigned)
    else {
        panic!("wrong types")
    };
    assert_eq!(dt.validator.node_id, vt.validator.node_id);
    assert_eq!(vt.delegation_shares, 500_000);
    let base = d.tx.unsigned.outputs().len() + d.tx.unsigned.stake().len();
    let base = u32::try_from(base).expect("small");
    let reward = 1_000_001;
    let (fee, mine) = split(reward, vt.delegation_shares);
    assert_eq!((fee, mine), (500_001, 500_000));

    // Validator started before Cortina: the fee is paid now, after the delegator's reward.
    let pre = delegator_reward_utxos(
        d.id,
        &d.tx.unsigned,
        RewardBranch::Commit,
        reward,
        &v.tx.unsigned,
        false,
    )
    .expect("ok");
    assert_eq!(pre.deferred_delegatee_reward, 0);
    let tail = &pre.utxos[pre.utxos.len() - 2..];
    assert_eq!(
        shape(tail),
        [
            (RewardUtxoKind::DelegationReward, base, mine),
            (RewardUtxoKind::DelegateeReward, base + 1, fee),
        ]
    );
    assert_eq!(owner_of(&tail[0]), dt.rewards_owner.owners());
    assert_eq!(owner_of(&tail[1]), vt.delegator_rewards_owner.owners());
    check_ids(&pre.utxos, d.id);

    // From Cortina: deferred to the validator's own reward.
    let post = delegator_reward_utxos(
        d.id,
        &d.tx.unsigned,
        RewardBranch::Commit,
        reward,
        &v.tx.unsigned,
        true,
    )
    .expect("ok");
    assert_eq!(post.deferred_delegatee_reward, fee);
    assert_eq!(
        post.utxos.last().map(|u| u.kind),
        Some(RewardUtxoKind::DelegationReward)
    );

    // Abort: only the stake comes back.
    let abort = delegator_reward_utxos(
        d.id,
        &d.tx.unsigned,
        RewardBranch::Abort,
        reward,
        &v.tx.unsigned,
        false,
    )
    .expect("ok");
    assert_eq!(
        abort,
        DelegatorRewardUtxos {
            utxos: returned_stake_utxos(d.id, &d.tx.unsigned).expect("ok"),
            deferred_delegatee_reward: 0,
        }
    );
    assert!(abort.utxos.iter().all(|u| u.kind == RewardUtxoKind::Stake));
}

#[test]
fn apricot_delegator_with_all_reward_to_validator() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go (rewardDelegatorTx:
    // a zero delegator share creates no UTXO, so the fee takes its index). Staker = the Fuji
    // AddDelegatorTx of fee/calculator_test.go; validator terms from its AddValidatorTx.
    let d = parsed("AddDelegatorTx");
    let mut v = parsed("AddValidatorTx").tx.unsigned;
    if let UnsignedTx::AddValidatorTx(t) = &mut v {
        t.delegation_shares = 1_000_000;
    }
    let out = delegator_reward_utxos(d.id, &d.tx.unsigned, RewardBranch::Commit, 99, &v, false)
        .expect("ok");
    let base = d.tx.unsigned.outputs().len() + d.tx.unsigned.stake().len();
    let last = out.utxos.last().expect("fee utxo");
    assert_eq!(last.kind, RewardUtxoKind::DelegateeReward);
    assert_eq!(last.utxo.utxo_id.output_index as usize, base);
    assert_eq!(last.utxo.output.amount(), 99);
}

#[test]
fn wrong_staker_types_are_rejected() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go (RewardValidatorTx
    // rewards only these four staker types; auto-renewed validators use
    // RewardAutoRenewedValidatorTx).
    let subnet = parsed("CreateSubnetTx");
    let v = parsed("AddValidatorTx");
    let d = parsed("AddDelegatorTx");
    assert!(matches!(
        validator_reward_utxos(subnet.id, &subnet.tx.unsigned, RewardBranch::Commit, 1, 0),
        Err(RewardUtxoError::WrongStakerType {
            found: "CreateSubnetTx",
            ..
        })
    ));
    assert!(validator_reward_utxos(d.id, &d.tx.unsigned, RewardBranch::Commit, 1, 0).is_err());
    assert!(
        delegator_reward_utxos(
            v.id,
            &v.tx.unsigned,
            RewardBranch::Commit,
            1,
            &v.tx.unsigned,
            true
        )
        .is_err()
    );
    assert!(
        delegator_reward_utxos(
            d.id,
            &d.tx.unsigned,
            RewardBranch::Commit,
            1,
            &subnet.tx.unsigned,
            true
        )
        .is_err()
    );
    let auto: UnsignedTx = unmarshal(&hex::decode(ADD_AUTO_RENEWED).expect("hex")).expect("ok");
    assert!(validator_reward_utxos(Id([1; 32]), &auto, RewardBranch::Commit, 1, 0).is_err());
}

#[test]
fn auto_renewed_rewards_use_the_reward_tx_id() {
    // vector: avalanchego vms/platformvm/txs/executor/proposal_tx_executor.go (mintRewards:
    // indexes from len(RewardAutoRenewedValidatorTx outputs) = 0 under the reward tx id);
    // staker = add_auto_renewed_validator_tx_test.go's tx.
    let UnsignedTx::AddAutoRenewedValidatorTx(staker) =
        unmarshal(&hex::decode(ADD_AUTO_RENEWED).expect("hex")).expect("ok")
    else {
        panic!("wrong type")
    };
    let reward_tx = Id([7; 32]);
    let avax = Id([9; 32]);
    let both = auto_renewed_reward_utxos(reward_tx, avax, &staker, 5, 6);
    assert_eq!(
        shape(&both),
        [
            (RewardUtxoKind::ValidationReward, 0, 5),
            (RewardUtxoKind::DelegateeReward, 1, 6),
        ]
    );
    check_ids(&both, reward_tx);
    assert!(both.iter().all(|u| u.utxo.asset_id == avax));
    let fees_only = auto_renewed_reward_utxos(reward_tx, avax, &staker, 0, 6);
    assert_eq!(shape(&fees_only), [(RewardUtxoKind::DelegateeReward, 0, 6)]);
    assert!(auto_renewed_reward_utxos(reward_tx, avax, &staker, 0, 0).is_empty());
}

#[test]
fn cortina_deferral_boundaries() {
    // vector: avalanchego upgrade/upgrade.go (Mainnet CortinaTime 2023-04-25 15:00 UTC, Fuji
    // 2023-04-06 15:00 UTC); rewardDelegatorTx checks IsCortinaActivated(validator.StartTime).
    assert!(!defers_delegatee_reward(1, MAINNET_CORTINA_TIME - 1));
    assert!(defers_delegatee_reward(1, MAINNET_CORTINA_TIME));
    assert!(!defers_delegatee_reward(5, FUJI_CORTINA_TIME - 1));
    assert!(defers_delegatee_reward(5, FUJI_CORTINA_TIME));
    assert!(defers_delegatee_reward(12345, 0));
}

#[test]
fn data_api_reward_types() {
    // vector: /work/shared/reference/openapi/glacier-data-api.json `RewardType`
    // (VALIDATOR, DELEGATOR, VALIDATOR_FEE).
    assert_eq!(
        RewardUtxoKind::ValidationReward.data_api_reward_type(),
        Some("VALIDATOR")
    );
    assert_eq!(
        RewardUtxoKind::DelegationReward.data_api_reward_type(),
        Some("DELEGATOR")
    );
    assert_eq!(
        RewardUtxoKind::DelegateeReward.data_api_reward_type(),
        Some("VALIDATOR_FEE")
    );
    assert_eq!(RewardUtxoKind::Stake.data_api_reward_type(), None);
}

#[test]
fn reward_utxo_id_is_utxo_id() {
    // vector: avalanchego vms/components/avax/utxo_id.go (InputID = TxID.Prefix(OutputIndex)).
    let u = UtxoId::new(Id([3; 32]), 4);
    assert_eq!(u.id(), input_id(Id([3; 32]), 4));
}
