//! The orders and running totals the validator, network, supply and staking listings read
//! (kept at ingest, in the blocks' batches), checked at several points of the devnet's P-Chain
//! against a model replayed here from the genesis and the blocks' txs alone:
//!
//! - a staker tx adds a staker from its block (from Durango, always on a local network, it
//!   starts when accepted: avalanchego `txs/executor/standard_tx_executor.go`); a delegator
//!   belongs to the validator its node has on its subnet then; a `RewardValidatorTx` settles the
//!   staker it names when its proposal's commit (rewarded) or abort option is accepted
//!   (`txs/executor/proposal_tx_executor.go`, `block/executor/acceptor.go`); a
//!   `RemoveSubnetValidatorTx` settles the subnet's validator of its node, unrewarded;
//! - a validator's delegation capacity is `min(5 × stake, MaxValidatorStake) − stake −
//!   delegated`, `MaxValidatorStake` 3 M AVAX (`txs/executor/staker_tx_verification.go`
//!   `verifyAddPermissionlessDelegatorTx`, `genesis/genesis_local.go`), for a primary-network
//!   validator not settled, 0 otherwise; its delegation fee is the tx's shares (none for a
//!   permissioned subnet validator, `AddSubnetValidatorTx`);
//! - a delegator gives its validator `reward.Split(potential reward, shares)`'s fee part
//!   (`vms/platformvm/reward/calculator.go`), its potential reward being the one its staker row
//!   was given when it became current (the calculator's own tests live with it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../src/test_devnet.rs"]
mod test_devnet;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use snowline_chain_p::pages::PChainPages;
use snowline_chain_p::rows::{Delegations, StakerAddresses, StakerRow};
use snowline_chain_p::tables::{
    META_UNSETTLED_REWARDS, META_UNSETTLED_STAKE, ORDER_CURRENT_STAKING, PhDelegations, PhMeta,
    PhOrders, PhStakerAddresses, PhStakers, PhStakingByAddress, PhTxsByAddress, PhValidatorSorts,
    PhValidatorsByNode, SORT_BY_BLOCK_INDEX, SORT_BY_CAPACITY, SORT_BY_END, SORT_BY_FEE,
    SORT_CURRENT, SORT_ONE_SUBNET,
};
use snowline_devnet::DevnetConfig;
use snowline_store::{Direction, Linear, ReadView, Store};
use snowline_types::platformvm::reward::split;
use snowline_types::platformvm::{Block, UnsignedTx, parse_block};
use snowline_types::{Id, NodeId, ShortId};
use test_devnet::PDevnet;

const MAX_VALIDATOR_STAKE: u64 = 3_000_000_000_000_000;

/// A staker as the model replays it.
#[derive(Debug, Clone)]
struct Staker {
    validator: bool,
    permissioned: bool,
    subnet: Id,
    node: NodeId,
    start: u64,
    end: u64,
    weight: u64,
    shares: u32,
    height: u64,
    /// Delegators: the validator's staker tx.
    of: Option<Id>,
    /// Once settled: whether rewarded.
    settled: Option<bool>,
}

impl Staker {
    fn primary(&self) -> bool {
        self.subnet == Id::default()
    }
}

/// The staker a tx adds, with its stated start.
fn staker(tx: &UnsignedTx) -> Option<Staker> {
    let s =
        |subnet: Id, v: &snowline_types::platformvm::txs::Validator, validator, shares| Staker {
            validator,
            permissioned: false,
            subnet,
            node: v.node_id,
            start: v.start,
            end: v.end,
            weight: v.weight,
            shares,
            height: 0,
            of: None,
            settled: None,
        };
    let primary = Id::default();
    Some(match tx {
        UnsignedTx::AddValidatorTx(t) => s(primary, &t.validator, true, t.delegation_shares),
        UnsignedTx::AddDelegatorTx(t) => s(primary, &t.validator, false, 0),
        UnsignedTx::AddSubnetValidatorTx(t) => Staker {
            permissioned: true,
            ..s(t.validator.subnet_id, &t.validator.validator, true, 0)
        },
        UnsignedTx::AddPermissionlessValidatorTx(t) => {
            s(t.subnet_id, &t.validator, true, t.delegation_shares)
        }
        UnsignedTx::AddPermissionlessDelegatorTx(t) => s(t.subnet_id, &t.validator, false, 0),
        _ => return None,
    })
}

/// Every staker after the genesis and `blocks`, by staker tx.
struct Model {
    stakers: BTreeMap<Id, Staker>,
    current: BTreeMap<(Id, NodeId), Id>,
    /// The staker a proposal waiting for its option settles.
    settling: Option<Id>,
    /// Delegators settled with a reward, and those settled without.
    rewarded: usize,
    unrewarded: usize,
}

impl Model {
    fn new(devnet: &PDevnet) -> Self {
        let mut m = Model {
            stakers: BTreeMap::new(),
            current: BTreeMap::new(),
            settling: None,
            rewarded: 0,
            unrewarded: 0,
        };
        // Genesis stakers start when they say.
        for v in &devnet.p_genesis.validators {
            if let Some(s) = staker(&v.tx.unsigned) {
                m.add(v.id, s);
            }
        }
        m
    }

    fn add(&mut self, id: Id, mut s: Staker) {
        if s.validator {
            self.current.insert((s.subnet, s.node), id);
        } else {
            s.of = self.current.get(&(s.subnet, s.node)).copied();
        }
        self.stakers.insert(id, s);
    }

    fn settle(&mut self, id: Id, rewarded: bool) {
        let s = self.stakers.get_mut(&id).expect("settles a known staker");
        s.settled = Some(rewarded);
        if s.validator {
            let key = (s.subnet, s.node);
            if self.current.get(&key) == Some(&id) {
                self.current.remove(&key);
            }
        } else if rewarded {
            self.rewarded += 1;
        } else {
            self.unrewarded += 1;
        }
    }

    fn block(&mut self, bytes: &[u8], accepted_ns: u64) {
        let parsed = parse_block(bytes).unwrap().block;
        let height = parsed.block.height();
        let time = parsed
            .block
            .timestamp()
            .unwrap_or(accepted_ns / 1_000_000_000);
        let commit = match &parsed.block {
            Block::ApricotCommit { .. } | Block::BanffCommit { .. } => Some(true),
            Block::ApricotAbort { .. } | Block::BanffAbort { .. } => Some(false),
            _ => None,
        };
        if let Some(commit) = commit {
            if let Some(id) = self.settling.take() {
                self.settle(id, commit);
            }
            return;
        }
        for (tx, id) in parsed.block.txs().into_iter().zip(&parsed.tx_ids) {
            match &tx.unsigned {
                UnsignedTx::RewardValidatorTx(r) => self.settling = Some(r.tx_id),
                UnsignedTx::RemoveSubnetValidatorTx(r) => {
                    if let Some(v) = self.current.get(&(r.subnet_id, r.node_id)).copied() {
                        self.settle(v, false);
                    }
                }
                other => {
                    if let Some(mut s) = staker(other) {
                        s.start = time;
                        s.height = height;
                        self.add(*id, s);
                    }
                }
            }
        }
    }
}

fn scan<T, V>(store: &Store) -> Vec<(T::Key, V)>
where
    T: snowline_store::Table<Value = V>,
{
    store
        .scan::<T, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap())
        .collect()
}

/// Asserts `got == want`, naming the entries that differ.
fn same<K: Ord + std::fmt::Debug>(got: &BTreeSet<K>, want: &BTreeSet<K>, what: &str) {
    let extra: Vec<&K> = got.difference(want).collect();
    let missing: Vec<&K> = want.difference(got).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{what}: {} extra, {} missing; first extra {:?}, first missing {:?}",
        extra.len(),
        missing.len(),
        extra.first(),
        missing.first()
    );
}

/// Checks every order and total against the model.
fn check(store: &Arc<Store>, m: &Model) {
    let rows: BTreeMap<Id, StakerRow> = m
        .stakers
        .keys()
        .map(|id| (*id, store.get::<PhStakers>(id).unwrap().unwrap().0))
        .collect();
    let potential = |id: &Id| rows[id].potential_reward;

    // Each validator's delegations.
    let mut want: BTreeMap<Id, Delegations> = BTreeMap::new();
    for (id, d) in m.stakers.iter().filter(|(_, s)| !s.validator) {
        let Some(v) = d.of else { continue };
        let fee = split(potential(id), m.stakers[&v].shares).0;
        let e = want.entry(v).or_default();
        e.all_count += 1;
        e.all_weight += d.weight;
        match d.settled {
            None => {
                e.current_count += 1;
                e.current_weight += d.weight;
                e.current_fees += fee;
            }
            Some(true) => e.paid_fees += fee,
            Some(false) => {}
        }
    }
    for (id, _) in m.stakers.iter().filter(|(_, s)| s.validator) {
        let got = store.get::<PhDelegations>(id).unwrap().map(|Linear(d)| d);
        assert_eq!(
            got.unwrap_or_default(),
            want.get(id).copied().unwrap_or_default(),
            "validator {id}'s delegations"
        );
    }

    // The stakes and potential rewards of the primary-network stakers not settled.
    let unsettled: Vec<(&Id, &Staker)> = m
        .stakers
        .iter()
        .filter(|(_, s)| s.primary() && s.settled.is_none())
        .collect();
    let meta = |k| store.get::<PhMeta>(&k).unwrap().unwrap_or(0);
    let stake: u64 = unsettled.iter().map(|(_, s)| s.weight).sum();
    let rewards: u64 = unsettled.iter().map(|(id, _)| potential(id)).sum();
    assert_eq!(meta(META_UNSETTLED_STAKE), stake);
    assert_eq!(meta(META_UNSETTLED_REWARDS), rewards);
    let pages = PChainPages::new(Arc::clone(store));
    let chain_time = pages.tip().unwrap().chain_time;
    let active: u128 = unsettled
        .iter()
        .filter(|(_, s)| s.start <= chain_time)
        .map(|(id, _)| u128::from(potential(id)))
        .sum();
    assert_eq!(pages.network_staking().unwrap().potential_rewards, active);
    let supply = pages.supply().unwrap().unwrap();
    assert_eq!(
        (supply.staked, supply.unsettled_rewards),
        (u128::from(stake), u128::from(rewards))
    );

    // Every validator order.
    let mut orders = BTreeSet::new();
    for (id, s) in m.stakers.iter().filter(|(_, s)| s.validator) {
        let current = s.settled.is_none();
        let delegated = want.get(id).map_or(0, |d| d.current_weight);
        let capacity = if s.primary() && current {
            (s.weight.saturating_mul(5).min(MAX_VALIDATOR_STAKE))
                .saturating_sub(s.weight)
                .saturating_sub(delegated)
        } else {
            0
        };
        let fee = if s.permissioned {
            0
        } else {
            u64::from(s.shares)
        };
        for (by, value) in [
            (SORT_BY_BLOCK_INDEX, s.height),
            (SORT_BY_CAPACITY, capacity),
            (SORT_BY_END, s.end),
            (SORT_BY_FEE, fee),
        ] {
            for set in [
                0,
                SORT_CURRENT,
                SORT_ONE_SUBNET,
                SORT_CURRENT | SORT_ONE_SUBNET,
            ] {
                if set & SORT_CURRENT != 0 && !current || by == SORT_BY_BLOCK_INDEX && set == 0 {
                    continue;
                }
                let subnet = if set & SORT_ONE_SUBNET != 0 {
                    s.subnet
                } else {
                    Id::default()
                };
                orders.insert(((by, set, subnet), value, *id));
            }
        }
    }
    let got: BTreeSet<_> = scan::<PhValidatorSorts, ()>(store)
        .into_iter()
        .map(|(k, ())| k)
        .collect();
    same(&got, &orders, "the validator orders");

    let by_node: BTreeSet<_> = m
        .stakers
        .iter()
        .filter(|(_, s)| s.validator)
        .map(|(id, s)| (s.node, s.start, *id))
        .collect();
    let got: BTreeSet<_> = scan::<PhValidatorsByNode, ()>(store)
        .into_iter()
        .map(|(k, ())| k)
        .collect();
    same(&got, &by_node, "the validators by node");

    let staking: BTreeSet<_> = m
        .stakers
        .iter()
        .filter(|(_, s)| s.settled.is_none() && s.height > 0)
        .map(|(id, s)| (ORDER_CURRENT_STAKING, s.height, *id))
        .collect();
    let got: BTreeSet<_> = scan::<PhOrders, ()>(store)
        .into_iter()
        .map(|(k, ())| k)
        .filter(|k| k.0 == ORDER_CURRENT_STAKING)
        .collect();
    same(&got, &staking, "the current staker txs");

    // Each current staker tx in a block is listed under its addresses at its history's key
    // (every one with an address: all of them here), and nothing else is.
    let current: BTreeSet<Id> = staking.iter().map(|k| k.2).collect();
    let listed: Vec<(ShortId, u64, Id)> = scan::<PhStakingByAddress, ()>(store)
        .into_iter()
        .map(|(k, ())| k)
        .collect();
    let listed_ids: BTreeSet<Id> = listed.iter().map(|k| k.2).collect();
    same(&listed_ids, &current, "the staker txs listed by address");
    for k in &listed {
        assert!(
            store.get::<PhTxsByAddress>(k).unwrap().is_some(),
            "{k:?} is listed for staking but not in the address's history"
        );
    }
    let noted: BTreeSet<Id> = scan::<PhStakerAddresses, Linear<StakerAddresses>>(store)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    same(&noted, &current, "the staker txs' noted addresses");
}

/// Ingests `devnet`'s P-Chain in four parts, batches of 7 blocks (a proposal and its option
/// fall apart at times), checking after each; returns the model.
fn replay(devnet: &PDevnet) -> Model {
    let blocks = devnet.p_blocks();
    let mut ingest = devnet.deriver(None);
    let mut model = Model::new(devnet);
    check(&devnet.store, &model);
    for part in blocks.chunks(blocks.len().div_ceil(4)) {
        ingest.ingest(part, 7);
        for r in part {
            model.block(&r.bytes, r.timestamp_ns as u64);
        }
        check(&devnet.store, &model);
    }
    model
}

/// The small devnet, and one with eight times its P blocks over the same span, 16 txs each
/// (more validators, delegators and settlements). Their stakers are all the primary network's.
#[test]
fn orders_and_totals_equal_a_replay_of_the_txs() {
    let small = DevnetConfig::small();
    let denser = DevnetConfig {
        p_blocks: small.p_blocks * 8,
        p_block_interval_s: small.p_block_interval_s / 8,
        p_txs_per_block: 16,
        ..small
    }
    .with_seed(7);
    for (config, least) in [(small, 5), (denser, 100)] {
        let model = replay(&PDevnet::generate_from(config));
        let delegators = model.stakers.values().filter(|s| !s.validator).count();
        let settled = model
            .stakers
            .values()
            .filter(|s| s.settled.is_some())
            .count();
        assert!(
            delegators > least && settled > least && model.rewarded > 0,
            "{delegators} delegators, {settled} settled, {} rewarded, {} not",
            model.rewarded,
            model.unrewarded
        );
    }
}
