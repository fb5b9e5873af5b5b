//! An independent replay of a devnet's P-Chain, for checking what the Data API serves about it.
//!
//! It reads the devnet's own bytes (`Devnet::p_genesis`, the `P/block` records; the X-Chain's
//! records only for what X exported to P and imported from P), parses them with
//! `snowline_types` and applies avalanchego's rules, restated here: it never calls
//! `snowline_chain_p`, the code under test.
//!
//! Rules (avalanchego `vms/platformvm`):
//! - a tx consumes its inputs (an `ImportTx` also its imported inputs, from atomic memory) and
//!   creates its outputs at indexes `0..`; an `ExportTx`'s exported outputs follow, at the
//!   indexes after the outputs, in the destination's atomic memory;
//! - a staker tx's stake outputs are UTXOs at the indexes after its outputs, staked until the
//!   `RewardValidatorTx` settling it is accepted (commit or abort), then returned unchanged;
//! - a primary-network staker starts at its block's time (Durango, always on local networks;
//!   genesis validators at the genesis time) and its potential reward is fixed then by the
//!   reward calculator at the current supply, which grows by it at once
//!   (`standard_tx_executor.go` `putStaker`, `state.go` `syncGenesis`); an abort gives it back;
//! - on commit a validator is paid its potential reward (if non-zero) at
//!   `len(outputs) + len(stake)`, then the delegation fees deferred to it at the next index; on
//!   abort only the fees, at `len(outputs) + len(stake)`; a delegator on commit is paid its part
//!   of `reward.Split(potential, validator shares)` at `len(outputs) + len(stake)`, the
//!   validator's part deferred to the validator (Cortina, always on local networks)
//!   (`proposal_tx_executor.go` `rewardValidatorTx` / `rewardDelegatorTx`);
//! - L1 validators (ACP-77): before a block's txs the chain time advances and each active
//!   validator pays 1 nAVAX per second (the local minimum price, the active count being under
//!   the target); `EndAccumulatedFee = accrued + balance` when registered with a balance; those
//!   whose `EndAccumulatedFee <= accrued` are deactivated (`advanceValidatorFeeState`); a
//!   disable or a weight of 0 refunds `EndAccumulatedFee - accrued` at index `len(outputs)` to
//!   the remaining balance owner; a top-up reactivates from the accrued fees.
//!
//! Every input the blocks spend must be a UTXO this model holds, unspent, of the same amount:
//! the rules above (reward UTXO ids and amounts included) are checked against the devnet's own
//! later spends, not trusted.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use snowline_devnet::Devnet;
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
use snowline_types::hashing::sha256;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::reward::Config as RewardConfig;
use snowline_types::platformvm::{
    Block, ProposerDetails, TransferableOut, TransferableOutput, UnsignedTx, parse_block,
};
use snowline_types::warp::{L1Message, Message, PChainOwner, Payload, conversion_validation_id};
use snowline_types::{Id, NodeId, ShortId};

/// `reward.PercentDenominator`.
const PERCENT_DENOMINATOR: u64 = 1_000_000;
/// The local network's minimum L1 validator price, nAVAX per second.
const L1_MIN_PRICE: u64 = 1;
/// The L1 validator target (the price stays the minimum at or under it).
const L1_TARGET: usize = 10_000;

/// A tx's place: its id, its block's height and time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ev {
    pub tx: Id,
    pub height: u64,
    pub ts: u64,
}

/// Which reward a reward UTXO is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardKind {
    Validator,
    Delegator,
    ValidatorFee,
}

impl RewardKind {
    /// The Glacier `RewardType`.
    pub fn name(self) -> &'static str {
        match self {
            RewardKind::Validator => "VALIDATOR",
            RewardKind::Delegator => "DELEGATOR",
            RewardKind::ValidatorFee => "VALIDATOR_FEE",
        }
    }
}

/// Why a UTXO exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A tx output (genesis, a tx's outputs, an L1 refund).
    Output,
    /// A staked output of a staker tx.
    Stake,
    /// A reward paid by a `RewardValidatorTx` commit (or fees on abort).
    Reward(RewardKind),
    /// An output a P `ExportTx` put in another chain's atomic memory.
    Exported,
}

/// A UTXO the P-Chain created (or, in [`PModel::x_to_p`], the X-Chain exported to it).
#[derive(Debug, Clone)]
pub struct MUtxo {
    pub id: Id,
    pub utxo_id: UtxoId,
    pub asset: Id,
    pub out: TransferableOut,
    pub kind: Kind,
    /// The creating tx (for a reward: the `RewardValidatorTx`, in the option block).
    pub created: Ev,
    /// The consuming tx, as far as the P-Chain's blocks show.
    pub consumed: Option<Ev>,
    /// Stakes and rewards: the staker tx.
    pub staker: Option<Id>,
    /// Stakes: the settlement (the option block) that returned it.
    pub returned: Option<Ev>,
    /// The chain that consumes it (P, or the destination of an export).
    pub consumed_on: Id,
}

impl MUtxo {
    pub fn owners(&self) -> &OutputOwners {
        self.out.owners()
    }

    pub fn amount(&self) -> u64 {
        self.out.amount()
    }

    /// Owned (in part) by one of `addrs`.
    pub fn owned_by(&self, addrs: &BTreeSet<ShortId>) -> bool {
        self.owners().addrs.iter().any(|a| addrs.contains(a))
    }

    /// Created by `t` and not consumed by `t` (as far as P knows).
    pub fn live_at(&self, t: u64) -> bool {
        self.created.ts <= t && self.consumed.is_none_or(|c| c.ts > t)
    }

    /// A stake not returned by `t`.
    pub fn staked_at(&self, t: u64) -> bool {
        self.kind == Kind::Stake && self.returned.is_none_or(|r| r.ts > t)
    }
}

/// A primary-network staker.
#[derive(Debug, Clone)]
pub struct MStaker {
    pub tx_id: Id,
    pub validator: bool,
    pub node: NodeId,
    pub start: u64,
    pub end: u64,
    pub weight: u64,
    pub n_outputs: usize,
    pub stake: Vec<TransferableOutput>,
    /// Validators: the validation rewards owner; delegators: the rewards owner.
    pub reward_owner: OutputOwners,
    /// Validators: the delegation rewards owner.
    pub fee_owner: Option<OutputOwners>,
    /// Validators: the delegation fee, millionths.
    pub shares: u32,
    pub potential_reward: u64,
    /// The supply the calculator was given.
    pub supply_at_add: u64,
    pub accepted: Ev,
    /// The option accepted: its event (the reward tx at the option block) and commit or not.
    pub settled: Option<(Ev, bool)>,
    /// Delegators: the validator staker tx delegated to.
    pub validator_tx: Option<Id>,
    /// Validators: delegation fees deferred to their settlement so far.
    pub deferred: u64,
    /// Validators: the BLS public key and proof of possession of the tx's signer.
    pub signer: Option<([u8; 48], [u8; 96])>,
}

/// A subnet created by a `CreateSubnetTx`.
#[derive(Debug, Clone)]
pub struct MSubnet {
    pub created: Ev,
    pub owner: OutputOwners,
    /// The `ConvertSubnetToL1Tx`, its manager chain and address.
    pub conversion: Option<(Ev, Id, Vec<u8>)>,
}

/// A P-Chain block as accepted.
#[derive(Debug, Clone)]
pub struct MBlock {
    pub height: u64,
    /// The proposervm id (the inner id when bare).
    pub id: Id,
    pub parent: Id,
    pub ts: u64,
    pub type_name: &'static str,
    pub tx_ids: Vec<Id>,
    pub size: usize,
    /// The supply after the block.
    pub supply: u64,
    /// Fees accrued per L1 validator after the block.
    pub accrued: u64,
    /// Active L1 validators after the block.
    pub active: u64,
    pub proposer: Option<ProposerDetails>,
}

/// An L1 validator.
#[derive(Debug, Clone)]
pub struct ML1 {
    pub subnet: Id,
    pub node: Vec<u8>,
    pub public_key: [u8; 48],
    pub pop: [u8; 96],
    pub weight: u64,
    /// `EndAccumulatedFee`; 0 when inactive.
    pub end_fee: u64,
    pub remaining_balance_owner: PChainOwner,
    pub deactivation_owner: PChainOwner,
    pub created: Ev,
}

impl ML1 {
    pub fn active(&self) -> bool {
        self.end_fee != 0
    }

    /// The balance left when `accrued` fees have accrued per validator.
    pub fn remaining(&self, accrued: u64) -> u64 {
        if self.active() {
            self.end_fee - accrued
        } else {
            0
        }
    }
}

/// A chain the P-Chain created.
#[derive(Debug, Clone)]
pub struct MChain {
    pub name: String,
    pub vm: Id,
    pub subnet: Id,
    pub created: Ev,
    pub genesis: Vec<u8>,
}

/// The replayed P-Chain.
#[derive(Debug, Default)]
pub struct PModel {
    pub network: Option<&'static NetworkInfo>,
    pub genesis_ts: u64,
    pub initial_supply: u64,
    /// Every UTXO the P-Chain created, by id.
    pub utxos: BTreeMap<Id, MUtxo>,
    /// Every primary-network staker, by staker tx id.
    pub stakers: BTreeMap<Id, MStaker>,
    pub blocks: Vec<MBlock>,
    /// L1 validators by validation id.
    pub l1: BTreeMap<Id, ML1>,
    /// The L1 validators after each height's block.
    pub l1_after: BTreeMap<u64, BTreeMap<Id, ML1>>,
    /// Chains by id.
    pub chains: BTreeMap<Id, MChain>,
    /// Subnets by id.
    pub subnets: BTreeMap<Id, MSubnet>,
    pub supply: u64,
    /// Fees accrued per L1 validator.
    pub accrued: u64,
    pub chain_time: u64,
    /// UTXOs the X- or C-Chain exported to the P-Chain (`consumed` by P imports).
    pub x_to_p: BTreeMap<Id, MUtxo>,
    /// The chain that exported each of `x_to_p` (X or C).
    pub x_to_p_source: BTreeMap<Id, Id>,
    /// P-Chain exports the X- or C-Chain imported (their `ImportTx`s from P), with the import.
    pub x_imported: BTreeMap<Id, Ev>,
    /// Blocks and txs by type name.
    pub counts: BTreeMap<&'static str, usize>,
    /// Reward UTXOs later spent by a devnet tx, the model's id and amount confirmed.
    pub rewards_spent_in_blocks: usize,
    /// Returned stakes later spent by a devnet tx.
    pub stakes_spent_in_blocks: usize,
    /// L1 refunds later spent by a devnet tx.
    pub refunds: BTreeSet<Id>,
}

/// `reward.Split`: `(delegatee part, delegator part)` of `total` at `shares` millionths.
pub fn split(total: u64, shares: u32) -> (u64, u64) {
    let remainder_shares = u128::from(PERCENT_DENOMINATOR - u64::from(shares));
    let remainder =
        u64::try_from(remainder_shares * u128::from(total) / u128::from(PERCENT_DENOMINATOR))
            .unwrap();
    (total - remainder, remainder)
}

fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap()
}

impl PModel {
    pub fn net(&self) -> &'static NetworkInfo {
        self.network.unwrap()
    }

    /// The last block's height.
    pub fn height(&self) -> u64 {
        self.blocks.last().map_or(0, |b| b.height)
    }

    fn reward_config(&self) -> RewardConfig {
        RewardConfig::for_network(self.net().network_id)
    }

    fn put(&mut self, u: MUtxo) {
        assert!(
            self.utxos.insert(u.id, u).is_none(),
            "a UTXO id created twice"
        );
    }

    fn output(&mut self, tx: Id, i: usize, o: &TransferableOutput, kind: Kind, ev: Ev) {
        let utxo_id = UtxoId::new(tx, idx(i));
        let p = self.net().p_chain_id;
        self.put(MUtxo {
            id: utxo_id.id(),
            utxo_id,
            asset: o.asset_id,
            out: o.output.clone(),
            kind,
            created: ev,
            consumed: None,
            staker: None,
            returned: None,
            consumed_on: p,
        });
    }

    /// A plain secp256k1 output of `amount` AVAX to `owners`, at `tx:i`.
    fn pay(&mut self, tx: Id, i: usize, amount: u64, owners: OutputOwners, kind: Kind, ev: Ev) {
        let utxo_id = UtxoId::new(tx, idx(i));
        let p = self.net().p_chain_id;
        let staker = matches!(kind, Kind::Reward(_)).then_some(tx);
        self.put(MUtxo {
            id: utxo_id.id(),
            utxo_id,
            asset: self.net().avax_asset_id,
            out: TransferableOut::Secp256k1(TransferOutput { amount, owners }),
            kind,
            created: ev,
            consumed: None,
            staker,
            returned: None,
            consumed_on: p,
        });
    }

    /// Adds the staker `tx` (`id`) starting at `start`, its stake and its potential reward.
    fn add_staker(&mut self, id: Id, tx: &UnsignedTx, start: u64, ev: Ev) {
        let (validator, v, owner, fee_owner, shares) = match tx {
            UnsignedTx::AddPermissionlessValidatorTx(t) => {
                assert_eq!(t.subnet_id, Id::EMPTY, "primary-network stakers only");
                (
                    true,
                    &t.validator,
                    t.validator_rewards_owner.owners().clone(),
                    Some(t.delegator_rewards_owner.owners().clone()),
                    t.delegation_shares,
                )
            }
            UnsignedTx::AddValidatorTx(t) => (
                true,
                &t.validator,
                t.rewards_owner.owners().clone(),
                Some(t.rewards_owner.owners().clone()),
                t.delegation_shares,
            ),
            UnsignedTx::AddPermissionlessDelegatorTx(t) => {
                assert_eq!(t.subnet_id, Id::EMPTY, "primary-network stakers only");
                (
                    false,
                    &t.validator,
                    t.rewards_owner.owners().clone(),
                    None,
                    0,
                )
            }
            UnsignedTx::AddDelegatorTx(t) => (
                false,
                &t.validator,
                t.rewards_owner.owners().clone(),
                None,
                0,
            ),
            other => panic!("not a staker tx: {}", other.type_name()),
        };
        let stake = tx.stake().to_vec();
        let n_outputs = tx.outputs().len();
        let staked: u64 = stake.iter().map(|o| o.output.amount()).sum();
        assert_eq!(staked, v.weight, "stake = weight");
        let validator_tx = (!validator).then(|| {
            self.stakers
                .values()
                .find(|s| s.validator && s.node == v.node_id && s.settled.is_none())
                .expect("a delegator's validator is current")
                .tx_id
        });
        let supply = self.supply;
        let potential =
            self.reward_config()
                .calculate((v.end - start) * 1_000_000_000, v.weight, supply);
        self.supply += potential;
        for (i, o) in stake.iter().enumerate() {
            self.output(id, n_outputs + i, o, Kind::Stake, ev);
            self.utxos
                .get_mut(&UtxoId::new(id, idx(n_outputs + i)).id())
                .unwrap()
                .staker = Some(id);
        }
        self.stakers.insert(
            id,
            MStaker {
                tx_id: id,
                validator,
                node: v.node_id,
                start,
                end: v.end,
                weight: v.weight,
                n_outputs,
                stake,
                reward_owner: owner,
                fee_owner,
                shares,
                potential_reward: potential,
                supply_at_add: supply,
                accepted: ev,
                settled: None,
                validator_tx,
                deferred: 0,
                signer: match tx {
                    UnsignedTx::AddPermissionlessValidatorTx(t) => match &t.signer {
                        snowline_types::platformvm::Signer::ProofOfPossession(p) => {
                            Some((p.public_key, p.proof_of_possession))
                        }
                        snowline_types::platformvm::Signer::Empty(_) => None,
                    },
                    _ => None,
                },
            },
        );
    }

    /// Settles `staker` by the reward tx `ev` (at the option block), committed or not.
    fn settle(&mut self, staker: Id, ev: Ev, commit: bool) {
        let s = self.stakers[&staker].clone();
        assert!(s.settled.is_none(), "settled twice");
        for i in 0..s.stake.len() {
            let u = self
                .utxos
                .get_mut(&UtxoId::new(staker, idx(s.n_outputs + i)).id())
                .unwrap();
            u.returned = Some(ev);
        }
        let first = s.n_outputs + s.stake.len();
        if s.validator {
            let mut at = first;
            if commit && s.potential_reward > 0 {
                let kind = Kind::Reward(RewardKind::Validator);
                self.pay(
                    staker,
                    at,
                    s.potential_reward,
                    s.reward_owner.clone(),
                    kind,
                    ev,
                );
                at += 1;
            }
            if s.deferred > 0 {
                let kind = Kind::Reward(RewardKind::ValidatorFee);
                let owner = s.fee_owner.clone().unwrap();
                self.pay(staker, at, s.deferred, owner, kind, ev);
            }
        } else if commit {
            let v = s.validator_tx.unwrap();
            let (delegatee, delegator) = split(s.potential_reward, self.stakers[&v].shares);
            if delegator > 0 {
                let kind = Kind::Reward(RewardKind::Delegator);
                self.pay(staker, first, delegator, s.reward_owner.clone(), kind, ev);
            }
            let validator = self.stakers.get_mut(&v).unwrap();
            assert!(validator.settled.is_none(), "the validator is current");
            validator.deferred += delegatee;
        }
        if !commit {
            self.supply -= s.potential_reward;
        }
        self.stakers.get_mut(&staker).unwrap().settled = Some((ev, commit));
    }

    /// Spends the P-Chain UTXO `id` of `amount` at `ev`.
    fn spend(&mut self, id: Id, amount: u64, ev: Ev) {
        let u = self
            .utxos
            .get_mut(&id)
            .unwrap_or_else(|| panic!("{} spends {id}, which the model never created", ev.tx));
        assert!(u.consumed.is_none(), "{id} spent twice");
        assert_ne!(u.kind, Kind::Exported, "an export spent on P");
        assert!(
            u.kind != Kind::Stake || u.returned.is_some_and(|r| r.ts <= ev.ts),
            "{id} spent while staked"
        );
        assert_eq!(
            u.amount(),
            amount,
            "{id}: the input's amount is the model's"
        );
        u.consumed = Some(ev);
        match u.kind {
            Kind::Reward(_) => self.rewards_spent_in_blocks += 1,
            Kind::Stake => self.stakes_spent_in_blocks += 1,
            _ => {}
        }
    }

    /// Chain time moves to `t`: L1 validators pay and those out of balance leave.
    fn advance(&mut self, t: u64) {
        if t <= self.chain_time {
            return;
        }
        let active = self.l1.values().filter(|v| v.active()).count();
        assert!(active <= L1_TARGET);
        self.accrued += (t - self.chain_time) * L1_MIN_PRICE;
        let accrued = self.accrued;
        for v in self.l1.values_mut() {
            if v.active() && v.end_fee <= accrued {
                v.end_fee = 0;
            }
        }
        self.chain_time = t;
    }

    /// Refunds an active L1 validator's balance at `tx:n_outputs` and deactivates it.
    fn refund(&mut self, vid: Id, n_outputs: usize, ev: Ev) {
        let v = self.l1[&vid].clone();
        if !v.active() {
            return;
        }
        let balance = v.remaining(self.accrued);
        let owners = OutputOwners {
            locktime: 0,
            threshold: v.remaining_balance_owner.threshold,
            addrs: v.remaining_balance_owner.addresses.clone(),
        };
        self.pay(ev.tx, n_outputs, balance, owners, Kind::Output, ev);
        self.refunds.insert(UtxoId::new(ev.tx, idx(n_outputs)).id());
        self.l1.get_mut(&vid).unwrap().end_fee = 0;
    }

    fn register_l1(&mut self, vid: Id, mut v: ML1, balance: u64) {
        v.end_fee = if balance == 0 {
            0
        } else {
            self.accrued + balance
        };
        assert!(self.l1.insert(vid, v).is_none(), "validation id reused");
    }

    fn apply_tx(&mut self, tx: &UnsignedTx, id: Id, ev: Ev) {
        *self.counts.entry(tx.type_name()).or_default() += 1;
        let base = tx.base().expect("a decision tx");
        for input in &base.inputs {
            self.spend(input.utxo_id.id(), input.input.amount(), ev);
        }
        for (i, o) in base.outputs.iter().enumerate() {
            self.output(id, i, o, Kind::Output, ev);
        }
        let n = base.outputs.len();
        match tx {
            UnsignedTx::ImportTx(t) => {
                for input in &t.imported_inputs {
                    let u = self
                        .x_to_p
                        .get_mut(&input.utxo_id.id())
                        .expect("imports what X exported to P");
                    assert!(u.consumed.is_none(), "imported twice");
                    assert_eq!(u.amount(), input.input.amount());
                    u.consumed = Some(ev);
                }
            }
            UnsignedTx::ExportTx(t) => {
                for (i, o) in t.exported_outputs.iter().enumerate() {
                    self.output(id, n + i, o, Kind::Exported, ev);
                    let u = self
                        .utxos
                        .get_mut(&UtxoId::new(id, idx(n + i)).id())
                        .unwrap();
                    u.consumed_on = t.destination_chain;
                }
            }
            UnsignedTx::AddPermissionlessValidatorTx(_)
            | UnsignedTx::AddPermissionlessDelegatorTx(_)
            | UnsignedTx::AddValidatorTx(_)
            | UnsignedTx::AddDelegatorTx(_) => self.add_staker(id, tx, ev.ts, ev),
            UnsignedTx::CreateSubnetTx(t) => {
                let subnet = MSubnet {
                    created: ev,
                    owner: t.owner.owners().clone(),
                    conversion: None,
                };
                self.subnets.insert(id, subnet);
            }
            UnsignedTx::TransferSubnetOwnershipTx(t) => {
                self.subnets.get_mut(&t.subnet_id).unwrap().owner = t.owner.owners().clone();
            }
            UnsignedTx::BaseTx(_) => {}
            UnsignedTx::CreateChainTx(t) => {
                self.chains.insert(
                    id,
                    MChain {
                        name: t.chain_name.clone(),
                        vm: t.vm_id,
                        subnet: t.subnet_id,
                        created: ev,
                        genesis: t.genesis_data.clone(),
                    },
                );
            }
            UnsignedTx::ConvertSubnetToL1Tx(t) => {
                self.subnets.get_mut(&t.subnet_id).unwrap().conversion =
                    Some((ev, t.chain_id, t.address.clone()));
                for (i, v) in t.validators.iter().enumerate() {
                    let vid = conversion_validation_id(&t.subnet_id, idx(i));
                    let m = ML1 {
                        subnet: t.subnet_id,
                        node: v.node_id.clone(),
                        public_key: v.signer.public_key,
                        pop: v.signer.proof_of_possession,
                        weight: v.weight,
                        end_fee: 0,
                        remaining_balance_owner: v.remaining_balance_owner.clone(),
                        deactivation_owner: v.deactivation_owner.clone(),
                        created: ev,
                    };
                    self.register_l1(vid, m, v.balance);
                }
            }
            UnsignedTx::RegisterL1ValidatorTx(t) => {
                let payload = addressed_payload(&t.message);
                let Ok(L1Message::RegisterL1Validator(r)) = L1Message::parse(&payload) else {
                    panic!("not a RegisterL1Validator message")
                };
                let m = ML1 {
                    subnet: r.subnet_id,
                    node: r.node_id.clone(),
                    public_key: r.bls_public_key,
                    pop: t.proof_of_possession,
                    weight: r.weight,
                    end_fee: 0,
                    remaining_balance_owner: r.remaining_balance_owner.clone(),
                    deactivation_owner: r.disable_owner.clone(),
                    created: ev,
                };
                // `RegisterL1Validator.ValidationID`: sha256 of the message bytes.
                self.register_l1(Id(sha256(&payload)), m, t.balance);
            }
            UnsignedTx::SetL1ValidatorWeightTx(t) => {
                let payload = addressed_payload(&t.message);
                let Ok(L1Message::L1ValidatorWeight(w)) = L1Message::parse(&payload) else {
                    panic!("not an L1ValidatorWeight message")
                };
                assert!(self.l1.contains_key(&w.validation_id), "known validator");
                if w.weight == 0 {
                    self.refund(w.validation_id, n, ev);
                }
                self.l1.get_mut(&w.validation_id).unwrap().weight = w.weight;
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                let accrued = self.accrued;
                let v = self.l1.get_mut(&t.validation_id).expect("known validator");
                if v.end_fee == 0 {
                    v.end_fee = accrued;
                }
                v.end_fee += t.balance;
            }
            UnsignedTx::DisableL1ValidatorTx(t) => {
                assert!(self.l1.contains_key(&t.validation_id), "known validator");
                self.refund(t.validation_id, n, ev);
            }
            other => panic!("unexpected P tx {}", other.type_name()),
        }
    }

    /// What X did with atomic memory shared with P in one X container.
    fn x_record(&mut self, rec: &ContainerRecord) {
        use snowline_types::avm;
        if rec.path == IndexPath::CBlock {
            return self.c_record(rec);
        }
        let Some(txs) = x_container_txs(rec) else {
            return;
        };
        let p = self.net().p_chain_id;
        let ts = u64::try_from(rec.timestamp_ns / 1_000_000_000).unwrap();
        for t in txs {
            match &t.tx.unsigned {
                avm::UnsignedTx::Export(e) if e.destination_chain == p => {
                    for (i, o) in e.exported_outputs.iter().enumerate() {
                        let avm::TransferableOut::Secp256k1(to) = &o.output;
                        let utxo_id = UtxoId::new(t.id, idx(e.base.outputs.len() + i));
                        self.x_to_p_source
                            .insert(utxo_id.id(), self.net().x_chain_id);
                        self.x_to_p.insert(
                            utxo_id.id(),
                            MUtxo {
                                id: utxo_id.id(),
                                utxo_id,
                                asset: o.asset_id,
                                out: TransferableOut::Secp256k1(to.clone()),
                                kind: Kind::Output,
                                created: Ev {
                                    tx: t.id,
                                    height: 0,
                                    ts,
                                },
                                consumed: None,
                                staker: None,
                                returned: None,
                                consumed_on: p,
                            },
                        );
                    }
                }
                avm::UnsignedTx::Import(i) if i.source_chain == p => {
                    let ev = Ev {
                        tx: t.id,
                        height: 0,
                        ts,
                    };
                    for u in &i.imported_inputs {
                        assert!(
                            self.x_imported.insert(u.utxo_id.id(), ev).is_none(),
                            "X imported {} twice",
                            u.utxo_id.id()
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// A `C/block`'s traffic with P: its exports to P (output index `i`, at the block's number
    /// and own time) and its imports of P's exports (coreth `atomic/export_tx.go`,
    /// `import_tx.go`).
    fn c_record(&mut self, rec: &ContainerRecord) {
        use snowline_types::coreth;
        let net = self.net();
        let (p, c) = (net.p_chain_id, net.c_chain_id);
        let b = coreth::AtomicBlock::from_container(&rec.bytes, net.network_id).unwrap();
        let (height, ts) = (b.block.number(), b.block.timestamp());
        for tx in &b.txs {
            let ev = Ev {
                tx: tx.id,
                height,
                ts,
            };
            match &tx.tx.unsigned {
                coreth::UnsignedTx::Export(e) if e.destination_chain == p => {
                    for (i, o) in e.exported_outputs.iter().enumerate() {
                        let coreth::TransferableOut::Secp256k1(to) = &o.output;
                        let utxo_id = UtxoId::new(tx.id, idx(i));
                        self.x_to_p_source.insert(utxo_id.id(), c);
                        self.x_to_p.insert(
                            utxo_id.id(),
                            MUtxo {
                                id: utxo_id.id(),
                                utxo_id,
                                asset: o.asset_id,
                                out: TransferableOut::Secp256k1(to.clone()),
                                kind: Kind::Output,
                                created: ev,
                                consumed: None,
                                staker: None,
                                returned: None,
                                consumed_on: p,
                            },
                        );
                    }
                }
                coreth::UnsignedTx::Import(i) if i.source_chain == p => {
                    for u in i.imported_utxo_ids() {
                        assert!(
                            self.x_imported.insert(u, ev).is_none(),
                            "C imported {u} twice"
                        );
                    }
                }
                _ => {}
            }
        }
    }

    /// Replays `d`'s P-Chain genesis and the records `recs` (every container of the devnet, in
    /// acceptance order).
    pub fn replay(d: &Devnet, recs: &[ContainerRecord]) -> PModel {
        let net = &NetworkInfo::LOCAL;
        assert_eq!(d.genesis().network.network_id, net.network_id);
        let g = d.p_genesis();
        let mut m = PModel {
            network: Some(net),
            genesis_ts: g.timestamp,
            initial_supply: g.initial_supply,
            supply: g.initial_supply,
            chain_time: g.timestamp,
            ..PModel::default()
        };
        let genesis = |tx: Id| Ev {
            tx,
            height: 0,
            ts: g.timestamp,
        };
        for u in &g.utxos {
            m.put(MUtxo {
                id: u.utxo_id.id(),
                utxo_id: u.utxo_id,
                asset: u.asset_id,
                out: u.output.clone(),
                kind: Kind::Output,
                created: genesis(u.utxo_id.tx_id),
                consumed: None,
                staker: None,
                returned: None,
                consumed_on: net.p_chain_id,
            });
        }
        assert!(g.atomic_utxos.is_empty(), "the devnet's P starts with none");
        // `syncGenesis`: each validator current from the genesis time, its reward at the supply
        // after the previous one's.
        for v in &g.validators {
            m.add_staker(v.id, &v.tx.unsigned, g.timestamp, genesis(v.id));
        }
        for c in &g.chains {
            let UnsignedTx::CreateChainTx(t) = &c.tx.unsigned else {
                panic!("genesis chain tx")
            };
            m.chains.insert(
                c.id,
                MChain {
                    name: t.chain_name.clone(),
                    vm: t.vm_id,
                    subnet: t.subnet_id,
                    created: genesis(c.id),
                    genesis: t.genesis_data.clone(),
                },
            );
        }
        let mut proposal: Option<(Id, Id)> = None;
        let mut prev_id = d.p_genesis_block().id();
        for rec in recs {
            if rec.path != IndexPath::PBlock {
                m.x_record(rec);
                continue;
            }
            let b = parse_block(&rec.bytes).unwrap();
            let height = b.block.block.height();
            assert_eq!(height, m.height() + 1, "heights follow");
            let ts = b.block.block.timestamp().expect("Banff blocks");
            m.advance(ts);
            let ev = |tx: Id| Ev { tx, height, ts };
            let block = &b.block.block;
            *m.counts.entry(block.type_name()).or_default() += 1;
            match block {
                Block::BanffProposal { txs, tx, .. } => {
                    for (t, id) in txs.iter().zip(&b.block.tx_ids) {
                        m.apply_tx(&t.unsigned, *id, ev(*id));
                    }
                    let id = *b.block.tx_ids.last().unwrap();
                    *m.counts.entry(tx.unsigned.type_name()).or_default() += 1;
                    let UnsignedTx::RewardValidatorTx(r) = &tx.unsigned else {
                        panic!("the devnet proposes rewards only")
                    };
                    assert!(proposal.is_none());
                    proposal = Some((r.tx_id, id));
                }
                Block::BanffCommit { .. } | Block::BanffAbort { .. } => {
                    let (staker, reward_tx) = proposal.take().expect("an option after a proposal");
                    let commit = matches!(block, Block::BanffCommit { .. });
                    m.settle(staker, ev(reward_tx), commit);
                }
                Block::BanffStandard { txs, .. } => {
                    for (t, id) in txs.iter().zip(&b.block.tx_ids) {
                        m.apply_tx(&t.unsigned, *id, ev(*id));
                    }
                }
                other => panic!("unexpected block {}", other.type_name()),
            }
            let parent = b.proposer.map_or(block.parent_id(), |p| p.parent_id);
            assert_eq!(parent, prev_id, "blocks chain");
            prev_id = b.id();
            let active = m.l1.values().filter(|v| v.active()).count() as u64;
            m.l1_after.insert(height, m.l1.clone());
            m.blocks.push(MBlock {
                height,
                id: b.id(),
                parent,
                ts,
                type_name: block.type_name(),
                tx_ids: b.block.tx_ids.clone(),
                size: rec.bytes.len(),
                supply: m.supply,
                accrued: m.accrued,
                active,
                proposer: b.proposer,
            });
        }
        assert!(proposal.is_none(), "the devnet ends with an option");
        m
    }

    /// `subnet`'s validator set at P-Chain height `h` as avalanchego's validator manager gives
    /// it for an L1 (v1.14.2, `vms/platformvm/state/l1_validator.go` `IsActive`,
    /// `effectiveNodeID`, `effectivePublicKey`; `state/state.go` `initValidatorSets`): node id ->
    /// (weight, key) for each active validator (weight and `EndAccumulatedFee` not 0), the
    /// weight of the inactive ones (disabled or out of balance; weight 0 is removed) summed
    /// under the empty node id with no key. A proposal block's changes are written with its
    /// option (`block/executor/acceptor.go` `optionBlock`): at its height the set is its
    /// parent's.
    pub fn l1_set(&self, subnet: &Id, h: u64) -> BTreeMap<Vec<u8>, (u64, Option<[u8; 48]>)> {
        let proposal = self
            .blocks
            .iter()
            .any(|b| b.height == h && b.type_name == "BanffProposalBlock");
        let written = if proposal { h - 1 } else { h };
        let mut set = BTreeMap::new();
        let mut inactive = 0u64;
        let vals = self.l1_after.get(&written).expect("a height of the model");
        for v in vals
            .values()
            .filter(|v| v.subnet == *subnet && v.weight > 0)
        {
            if v.active() {
                assert!(
                    set.insert(v.node.clone(), (v.weight, Some(v.public_key)))
                        .is_none()
                );
            } else {
                inactive += v.weight;
            }
        }
        if inactive > 0 {
            set.insert(vec![0; 20], (inactive, None));
        }
        set
    }

    /// Primary-network stakers not settled at the end.
    pub fn pending(&self) -> impl Iterator<Item = &MStaker> {
        self.stakers.values().filter(|s| s.settled.is_none())
    }

    /// Every reward UTXO.
    pub fn rewards(&self) -> impl Iterator<Item = (&MUtxo, RewardKind)> {
        self.utxos.values().filter_map(|u| match u.kind {
            Kind::Reward(k) => Some((u, k)),
            _ => None,
        })
    }

    /// The UTXOs the P-Chain UTXO listing shows for `addrs`: those consumable on P (its own,
    /// stakes and rewards included; exports leave it).
    pub fn listed(&self, addrs: &BTreeSet<ShortId>, include_spent: bool) -> Vec<&MUtxo> {
        self.utxos
            .values()
            .filter(|u| u.kind != Kind::Exported && u.owned_by(addrs))
            .filter(|u| include_spent || u.consumed.is_none())
            .collect()
    }

    /// Every node id that appears: stakers' and L1 validators' (20-byte ones).
    pub fn nodes(&self) -> BTreeSet<NodeId> {
        let mut out: BTreeSet<NodeId> = self.stakers.values().map(|s| s.node).collect();
        for v in self.l1.values() {
            if let Ok(b) = <[u8; 20]>::try_from(v.node.as_slice()) {
                out.insert(NodeId(ShortId(b)));
            }
        }
        out
    }
}

/// The `AddressedCall` payload of a signed Warp message.
pub fn addressed_payload(signed: &[u8]) -> Vec<u8> {
    let m = Message::parse(signed).unwrap();
    let Payload::AddressedCall(call) = Payload::parse(&m.unsigned.payload).unwrap() else {
        panic!("not an AddressedCall")
    };
    call.payload
}

/// P-Chain balances in buckets, as the Data API names them: `(amount, UTXO count)`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Buckets {
    pub plain: BTreeMap<&'static str, (u128, u64)>,
    /// `(atomic bucket, status)` → what sits in atomic memory shared with the X-Chain: P's
    /// exports X has not imported (`exported`), X's exports to P that P has not imported
    /// (`importable`).
    /// `(bucket, status, sharedWithChainId) -> (amount, utxoCount)`.
    pub atomic: BTreeMap<(&'static str, &'static str, Id), (u128, u64)>,
}

impl PModel {
    /// The balances of `addrs` at `t`, or (`at` = `None`) of the UTXOs unspent now, at `t`.
    pub fn balances(&self, addrs: &BTreeSet<ShortId>, at: Option<u64>, t: u64) -> Buckets {
        let mut b = Buckets::default();
        let atomic_bucket = |u: &MUtxo| {
            if u.owners().locktime > t {
                "atomicMemoryLocked"
            } else {
                "atomicMemoryUnlocked"
            }
        };
        let mut add_atomic = |u: &MUtxo, status: &'static str, chain: Id| {
            let e = b
                .atomic
                .entry((atomic_bucket(u), status, chain))
                .or_default();
            e.0 += u128::from(u.amount());
            e.1 += 1;
        };
        // X's exports to P, live until P imports them.
        for u in self.x_to_p.values().filter(|u| u.owned_by(addrs)) {
            if at.map_or(u.consumed.is_none(), |t| u.live_at(t)) {
                let source = self.x_to_p_source.get(&u.id).copied();
                add_atomic(u, "importable", source.unwrap_or(self.net().x_chain_id));
            }
        }
        for u in self.utxos.values().filter(|u| u.owned_by(addrs)) {
            let live = match at {
                Some(t) => u.live_at(t),
                None => u.consumed.is_none(),
            };
            if !live {
                continue;
            }
            let time_locked = u.owners().locktime > t;
            let stake_locked = u.out.stakeable_locktime() > t;
            let bucket = if u.kind == Kind::Exported {
                // Live in atomic memory until X imports it.
                let imported = self.x_imported.get(&u.id);
                if at.map_or(imported.is_none(), |t| imported.is_none_or(|i| i.ts > t)) {
                    add_atomic(u, "exported", u.consumed_on);
                }
                continue;
            } else if u.staked_at(t) {
                let s = &self.stakers[&u.staker.unwrap()];
                if s.start > t {
                    "pendingStaked"
                } else if stake_locked || time_locked {
                    "lockedStaked"
                } else {
                    "unlockedStaked"
                }
            } else if time_locked {
                "lockedPlatform"
            } else if stake_locked {
                "lockedStakeable"
            } else {
                "unlockedUnstaked"
            };
            let e = b.plain.entry(bucket).or_default();
            e.0 += u128::from(u.amount());
            e.1 += 1;
        }
        b
    }
}

/// The txs of an X-Chain container (a vertex or a block); `None` for any other path.
pub fn x_container_txs(rec: &ContainerRecord) -> Option<Vec<snowline_types::avm::ParsedTx>> {
    use snowline_types::avm;
    Some(match rec.path {
        IndexPath::XVtx => snowline_types::vertex::Vertex::parse(&rec.bytes)
            .unwrap()
            .vertex
            .txs
            .iter()
            .map(|b| avm::Tx::parse(b).unwrap())
            .collect(),
        IndexPath::XBlock => {
            let outer = snowline_types::proposervm::Block::parse(&rec.bytes).unwrap();
            let inner = avm::StandardBlock::parse(outer.block.inner()).unwrap();
            (0..inner.block.txs.len())
                .map(|i| avm::Tx::parse(&inner.tx_signed_bytes(i).unwrap()).unwrap())
                .collect()
        }
        _ => return None,
    })
}
