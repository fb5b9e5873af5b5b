//! The primary network's validator set at every P-Chain height of a devnet, as
//! `PChainPages::validator_set` derives it from the staker rows, equals a model computed here
//! from the genesis and the blocks' txs alone: a staker tx adds a validator (its weight, its BLS
//! key) or a delegation (weight added to its validator) from its block on (and from its start
//! time), a `RewardValidatorTx` removes the staker it names (avalanchego
//! `vms/platformvm/state/staker.go`, `txs/executor/proposal_tx_executor.go`, and the validator
//! manager's weights, `snow/validators/manager.go`). An L1's sets: `tests/l1_validator_sets.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The devnet ingest the unit tests use too.
#[path = "../src/test_devnet.rs"]
mod test_devnet;

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_chain_p::pages::{PChainPages, ValidatorSetError};
use snowline_types::platformvm::{self, UnsignedTx};
use snowline_types::{Id, NodeId};
use test_devnet::PDevnet;

/// A block as the model reads it: height, time, txs with their ids.
type ModelBlock = (u64, u64, Vec<(Id, UnsignedTx)>);
/// A validator set: node -> (weight, BLS key).
type ModelSet = BTreeMap<NodeId, (u64, Option<[u8; 48]>)>;

/// A staker as the model sees it: (node, weight, key, is a validator, start).
#[derive(Clone, Copy)]
struct Staker {
    node: NodeId,
    weight: u64,
    key: Option<[u8; 48]>,
    validator: bool,
    start: u64,
}

fn staker(tx: &UnsignedTx) -> Option<(Id, Staker)> {
    let primary = Id::default();
    let s = |v: &platformvm::txs::Validator, key: Option<[u8; 48]>, validator: bool| Staker {
        node: v.node_id,
        weight: v.weight,
        key,
        validator,
        start: v.start,
    };
    match tx {
        UnsignedTx::AddValidatorTx(t) => Some((primary, s(&t.validator, None, true))),
        UnsignedTx::AddDelegatorTx(t) => Some((primary, s(&t.validator, None, false))),
        UnsignedTx::AddPermissionlessValidatorTx(t) => Some((
            t.subnet_id,
            s(&t.validator, t.signer.public_key().copied(), true),
        )),
        UnsignedTx::AddPermissionlessDelegatorTx(t) => {
            Some((t.subnet_id, s(&t.validator, None, false)))
        }
        _ => None,
    }
}

/// The primary network's set (node -> (weight, key)) after each height, from the txs alone.
fn model(genesis: &platformvm::PGenesisState, blocks: &[ModelBlock]) -> BTreeMap<u64, ModelSet> {
    let mut live: BTreeMap<Id, Staker> = BTreeMap::new();
    for v in &genesis.validators {
        if let Some((subnet, s)) = staker(&v.tx.unsigned) {
            if subnet == Id::default() {
                live.insert(v.id, s);
            }
        }
    }
    let set = |live: &BTreeMap<Id, Staker>, time: u64| {
        let mut out = ModelSet::new();
        for s in live.values().filter(|s| s.validator && s.start <= time) {
            let e = out.entry(s.node).or_default();
            e.0 += s.weight;
            e.1 = s.key;
        }
        for s in live.values().filter(|s| !s.validator && s.start <= time) {
            if let Some(e) = out.get_mut(&s.node) {
                e.0 += s.weight;
            }
        }
        out
    };
    let mut sets = BTreeMap::new();
    sets.insert(0, set(&live, u64::MAX));
    // A RewardValidatorTx sits in a proposal block; its change is applied when the block's
    // commit or abort option, the next height, is accepted (avalanchego
    // `vms/platformvm/block/executor/acceptor.go`).
    let mut settling: Vec<Id> = Vec::new();
    for (height, time, txs) in blocks {
        for id in settling.drain(..) {
            live.remove(&id);
        }
        for (id, tx) in txs {
            if let UnsignedTx::RewardValidatorTx(r) = tx {
                settling.push(r.tx_id);
            } else if let Some((subnet, mut s)) = staker(tx) {
                if subnet == Id::default() {
                    // From Durango on (active from genesis on a local network) a staker starts
                    // when its tx is accepted, whatever start it states (avalanchego
                    // `txs/executor/standard_tx_executor.go`, `state/staker.go`).
                    s.start = *time;
                    live.insert(*id, s);
                }
            }
        }
        sets.insert(*height, set(&live, *time));
    }
    sets
}

#[test]
fn primary_network_sets_at_every_height_equal_the_model() {
    let devnet = PDevnet::generate();
    let (p_genesis, store) = (&devnet.p_genesis, &devnet.store);
    let p_records = devnet.p_blocks();
    devnet.deriver(None).ingest(&p_records, 16);

    let mut blocks = Vec::new();
    let mut l1_nodes: BTreeMap<Vec<u8>, [u8; 48]> = BTreeMap::new();
    let mut l1: Option<(Id, u64)> = None;
    for r in &p_records {
        let parsed = platformvm::parse_block(&r.bytes).unwrap().block;
        let height = parsed.block.height();
        let txs: Vec<(Id, UnsignedTx)> = parsed
            .block
            .txs()
            .into_iter()
            .zip(&parsed.tx_ids)
            .map(|(t, id)| (*id, t.unsigned.clone()))
            .collect();
        for (_, tx) in &txs {
            if let UnsignedTx::ConvertSubnetToL1Tx(c) = tx {
                l1 = Some((c.subnet_id, height));
                for v in &c.validators {
                    l1_nodes.insert(v.node_id.clone(), v.signer.public_key);
                }
            }
        }
        // An Apricot block has no time of its own: its acceptance time stands in.
        let time = parsed
            .block
            .timestamp()
            .unwrap_or((r.timestamp_ns / 1_000_000_000) as u64);
        blocks.push((height, time, txs));
    }
    // Every block's txs read back by id, at their block's height.
    for (height, _, txs) in &blocks {
        for (id, tx) in txs {
            let (event, got) = PChainPages::new(Arc::clone(store)).tx(id).unwrap().unwrap();
            assert_eq!((event.height, &got), (*height, tx), "{id}");
        }
    }
    assert!(
        PChainPages::new(Arc::clone(store))
            .tx(&Id([9; 32]))
            .unwrap()
            .is_none()
    );
    let sets = model(p_genesis, &blocks);
    assert!(sets.len() > 10, "{} heights", sets.len());
    let pages = PChainPages::new(Arc::clone(store));
    let tip = *sets.keys().last().unwrap();
    let mut changed = 0;
    let mut previous = None;
    for (h, want) in &sets {
        let got = pages.validator_set(&Id::default(), Some(*h)).unwrap();
        assert_eq!(got.height, *h);
        assert!(!got.l1);
        let got: ModelSet = got
            .validators
            .iter()
            .map(|v| {
                (
                    NodeId::from(<[u8; 20]>::try_from(v.node_id.as_slice()).unwrap()),
                    (v.weight, v.public_key),
                )
            })
            .collect();
        assert_eq!(&got, want, "height {h}");
        if previous.is_some_and(|p| p != want) {
            changed += 1;
        }
        previous = Some(want);
    }
    assert!(changed >= 2, "the set changed {changed} times");
    // The tip is the default height; past it is refused.
    let at_tip = pages.validator_set(&Id::default(), None).unwrap();
    assert_eq!(at_tip.height, tip);
    assert!(matches!(
        pages.validator_set(&Id::default(), Some(tip + 1)),
        Err(ValidatorSetError::BeyondTip { .. })
    ));

    // The L1 (its sets at every height: `tests/l1_validator_sets.rs`): an L1 from its
    // conversion on, every key one the conversion or a registration named.
    let (subnet, converted_at) = l1.expect("the devnet converts a subnet");
    let set = pages.validator_set(&subnet, None).unwrap();
    assert!(set.l1);
    assert!(
        set.validators
            .iter()
            .any(|v| l1_nodes.contains_key(&v.node_id))
    );
    assert!(converted_at < tip);
    assert!(pages.validator_set(&subnet, Some(tip - 1)).unwrap().l1);
    // Before its conversion the subnet was permissioned: its set then is its subnet stakers.
    let before = pages
        .validator_set(&subnet, Some(converted_at - 1))
        .unwrap();
    assert!(!before.l1);
}
