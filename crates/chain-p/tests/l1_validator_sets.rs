//! An L1's validator set at every P-Chain height of a devnet, as `PChainPages::validator_set`
//! rebuilds it, equals a model computed here from the blocks' txs alone by avalanchego's rules
//! (v1.14.2, commit 1cf1fc3d1711a09fde7319d2b48609c8cba93680):
//!
//! - `vms/platformvm/txs/executor/standard_tx_executor.go`: a `ConvertSubnetToL1Tx` or
//!   `RegisterL1ValidatorTx` validator's `EndAccumulatedFee` is `balance + accrued fees`, or 0
//!   for a zero balance; `IncreaseL1ValidatorBalanceTx` adds its balance (to the accrued fees
//!   when the validator was inactive); `DisableL1ValidatorTx` sets it to 0;
//!   `SetL1ValidatorWeightTx` sets the weight, 0 removing the validator.
//! - `txs/executor/state_changes.go` `advanceValidatorFeeState`: each block's time advance adds
//!   `seconds × price` to the accrued fees (the minimum price while the active count is at most
//!   the target, as here) and deactivates (`EndAccumulatedFee = 0`) every validator whose
//!   `EndAccumulatedFee` is at most the new accrued fees, before the block's txs.
//! - `state/l1_validator.go` (`IsActive`, `effectiveNodeID`, `effectivePublicKey`) and
//!   `state/state.go` (`initValidatorSets`, `calculateValidatorDiffs`): an active validator is in
//!   the set under its node id with its key and weight; an inactive one adds its weight under
//!   `ids.EmptyNodeID` with no key.
//! - `block/executor/acceptor.go` `optionBlock`: a proposal block's changes are written with its
//!   option block's height, so the set at a proposal block's height is its parent's.
//!
//! The devnet disables a validator and tops others up; at 50,000 nAVAX/s balances also run out
//! between blocks and top-ups bring validators back. Blocks appended here set one active and
//! one inactive validator's weight to 0 (the devnet never does).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The devnet ingest the unit tests use too.
#[path = "../src/test_devnet.rs"]
mod test_devnet;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use snowline_chain_p::FeeConfig;
use snowline_chain_p::pages::PChainPages;
use snowline_types::Id;
use snowline_types::components::signed::SignedTx;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::platformvm::txs::{BaseTx, SetL1ValidatorWeightTx};
use snowline_types::platformvm::{self, Block, CommonBlock, UnsignedTx};
use snowline_types::warp::l1::{
    L1Message, L1ValidatorWeight, conversion_validation_id, registration_validation_id,
};
use snowline_types::warp::message::Message;
use snowline_types::warp::payload::{AddressedCall, Payload};
use snowline_types::warp::{BitSetSignature, UnsignedMessage};
use test_devnet::PDevnet;

/// `ids.EmptyNodeID`.
const EMPTY_NODE_ID: [u8; 20] = [0; 20];

/// A validator of the model: `L1Validator`'s fields the set depends on.
#[derive(Clone)]
struct Val {
    subnet: Id,
    node: Vec<u8>,
    key: [u8; 48],
    weight: u64,
    end: u64,
}

/// A set as `GetValidatorSet` gives it: node id -> (weight, key).
type Set = BTreeMap<Vec<u8>, (u64, Option<[u8; 48]>)>;

/// A block as the model reads it.
struct MBlock {
    height: u64,
    time: u64,
    proposal: bool,
    txs: Vec<UnsignedTx>,
}

/// The model's state, and a copy of it after each height.
struct Model {
    price: u64,
    chain_time: u64,
    accrued: u64,
    vals: BTreeMap<Id, Val>,
    after: BTreeMap<u64, BTreeMap<Id, Val>>,
    proposals: BTreeSet<u64>,
    conversion: Option<(Id, u64)>,
    /// Validations named by a tx of each height.
    touched: BTreeMap<u64, BTreeSet<Id>>,
}

/// The AddressedCall payload a signed Warp message carries.
fn payload(signed: &[u8]) -> Vec<u8> {
    let m = Message::parse(signed).unwrap();
    match Payload::parse(&m.unsigned.payload).unwrap() {
        Payload::AddressedCall(call) => call.payload,
        Payload::Hash(_) => panic!("hash payload"),
    }
}

fn end_fee(balance: u64, accrued: u64) -> u64 {
    if balance == 0 { 0 } else { balance + accrued }
}

impl Model {
    fn new(price: u64, genesis_time: u64) -> Self {
        Self {
            price,
            chain_time: genesis_time,
            accrued: 0,
            vals: BTreeMap::new(),
            after: BTreeMap::new(),
            proposals: BTreeSet::new(),
            conversion: None,
            touched: BTreeMap::new(),
        }
    }

    fn block(&mut self, b: &MBlock) {
        if b.time > self.chain_time {
            let active = self.vals.values().filter(|v| v.end != 0).count();
            // At most the target (10,000): the excess stays 0 and the price is the minimum.
            assert!(active <= 10_000);
            self.accrued += (b.time - self.chain_time) * self.price;
            self.chain_time = b.time;
            for v in self.vals.values_mut() {
                if v.end != 0 && v.end <= self.accrued {
                    v.end = 0;
                }
            }
        }
        for tx in &b.txs {
            self.tx(b.height, tx);
        }
        if b.proposal {
            self.proposals.insert(b.height);
        }
        self.after.insert(b.height, self.vals.clone());
    }

    fn tx(&mut self, height: u64, tx: &UnsignedTx) {
        let accrued = self.accrued;
        let touched = self.touched.entry(height).or_default();
        match tx {
            UnsignedTx::ConvertSubnetToL1Tx(t) => {
                self.conversion = Some((t.subnet_id, height));
                for (i, v) in t.validators.iter().enumerate() {
                    let id = conversion_validation_id(&t.subnet_id, i as u32);
                    touched.insert(id);
                    self.vals.insert(
                        id,
                        Val {
                            subnet: t.subnet_id,
                            node: v.node_id.clone(),
                            key: v.signer.public_key,
                            weight: v.weight,
                            end: end_fee(v.balance, accrued),
                        },
                    );
                }
            }
            UnsignedTx::RegisterL1ValidatorTx(t) => {
                let p = payload(&t.message);
                let Ok(L1Message::RegisterL1Validator(r)) = L1Message::parse(&p) else {
                    panic!("not a registration");
                };
                let id = registration_validation_id(&p);
                touched.insert(id);
                self.vals.insert(
                    id,
                    Val {
                        subnet: r.subnet_id,
                        node: r.node_id,
                        key: r.bls_public_key,
                        weight: r.weight,
                        end: end_fee(t.balance, accrued),
                    },
                );
            }
            UnsignedTx::SetL1ValidatorWeightTx(t) => {
                let Ok(L1Message::L1ValidatorWeight(w)) = L1Message::parse(&payload(&t.message))
                else {
                    panic!("not a weight message");
                };
                touched.insert(w.validation_id);
                if w.weight == 0 {
                    self.vals.remove(&w.validation_id);
                } else {
                    self.vals.get_mut(&w.validation_id).unwrap().weight = w.weight;
                }
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                touched.insert(t.validation_id);
                let v = self.vals.get_mut(&t.validation_id).unwrap();
                if v.end == 0 {
                    v.end = accrued;
                }
                v.end += t.balance;
            }
            UnsignedTx::DisableL1ValidatorTx(t) => {
                touched.insert(t.validation_id);
                self.vals.get_mut(&t.validation_id).unwrap().end = 0;
            }
            _ => {}
        }
    }

    /// The validators as written at `h` (a proposal block's height: its parent's).
    fn written(&self, h: u64) -> &BTreeMap<Id, Val> {
        let h = if self.proposals.contains(&h) {
            h - 1
        } else {
            h
        };
        self.after.get(&h).expect("a modelled height")
    }

    /// `subnet`'s set at `h`.
    fn set(&self, subnet: &Id, h: u64) -> Set {
        let mut set = Set::new();
        let mut inactive = 0u64;
        for v in self.written(h).values().filter(|v| v.subnet == *subnet) {
            if v.end != 0 {
                assert!(
                    set.insert(v.node.clone(), (v.weight, Some(v.key)))
                        .is_none()
                );
            } else {
                inactive += v.weight;
            }
        }
        if inactive > 0 {
            set.insert(EMPTY_NODE_ID.to_vec(), (inactive, None));
        }
        set
    }
}

/// The devnet's P-Chain blocks as the model reads them.
fn model_blocks(records: &[&ContainerRecord]) -> Vec<MBlock> {
    records
        .iter()
        .map(|r| {
            let b = platformvm::parse_block(&r.bytes).unwrap().block.block;
            MBlock {
                height: b.height(),
                time: b.timestamp().expect("Banff blocks"),
                proposal: matches!(b, Block::BanffProposal { .. }),
                txs: b.txs().into_iter().map(|t| t.unsigned.clone()).collect(),
            }
        })
        .collect()
}

/// A bare Banff standard block at `height` and `time` setting `weight` 0 for `validation`.
fn removal_block(network_id: u32, height: u64, time: u64, validation: Id) -> ContainerRecord {
    let unsigned = UnsignedMessage {
        network_id,
        source_chain_id: Id([7; 32]),
        payload: Payload::AddressedCall(AddressedCall {
            source_address: vec![1; 20],
            payload: L1Message::L1ValidatorWeight(L1ValidatorWeight {
                validation_id: validation,
                nonce: 1_000,
                weight: 0,
            })
            .bytes(),
        })
        .bytes(),
    };
    let message = Message {
        unsigned,
        signature: BitSetSignature {
            signers: vec![1],
            signature: [0; 96],
        },
    };
    let tx = UnsignedTx::SetL1ValidatorWeightTx(SetL1ValidatorWeightTx {
        base: BaseTx {
            network_id,
            blockchain_id: Id::default(),
            outputs: Vec::new(),
            inputs: Vec::new(),
            memo: Vec::new(),
        },
        message: message.bytes(),
    });
    let block = Block::BanffStandard {
        time,
        common: CommonBlock {
            parent_id: Id([height as u8; 32]),
            height,
        },
        txs: vec![SignedTx {
            unsigned: tx,
            credentials: Vec::new(),
        }],
    };
    ContainerRecord {
        path: IndexPath::PBlock,
        id: block.id(),
        bytes: block.bytes(),
        timestamp_ns: time as i64 * 1_000_000_000,
    }
}

/// What one run saw.
#[derive(Default, Debug)]
struct Seen {
    /// Heights where the L1 had an inactive validator.
    with_inactive: usize,
    /// Heights where it had none.
    without_inactive: usize,
    /// Validators that went inactive at a height no tx of which names them.
    ran_out: usize,
    /// Validators active again after being inactive.
    back: usize,
    /// Validators disabled by a `DisableL1ValidatorTx`.
    disabled: usize,
    /// Validators removed by a weight of 0.
    removed: usize,
    /// Proposal heights after the conversion.
    proposals: usize,
}

fn one_price(fee: FeeConfig) -> Seen {
    let devnet = PDevnet::generate();
    let records = devnet.p_blocks();
    let mut ingest = devnet.deriver(Some(fee));
    ingest.ingest(&records, 16);
    let mut model = Model::new(fee.min_price, devnet.p_genesis.timestamp);
    let blocks = model_blocks(&records);
    for b in &blocks {
        model.block(b);
    }
    let (subnet, converted_at) = model.conversion.expect("the devnet converts a subnet");
    let mut seen = Seen::default();
    for b in &blocks {
        for tx in &b.txs {
            seen.disabled += usize::from(matches!(tx, UnsignedTx::DisableL1ValidatorTx(_)));
        }
    }

    // Two more blocks: an active and (when there is one) an inactive validator removed.
    let tip = blocks.last().unwrap();
    let vals = model.written(tip.height).clone();
    let mut picks: Vec<Id> = vals
        .iter()
        .filter(|(_, v)| v.subnet == subnet && v.end != 0)
        .map(|(id, _)| *id)
        .take(1)
        .collect();
    picks.extend(
        vals.iter()
            .filter(|(_, v)| v.subnet == subnet && v.end == 0)
            .map(|(id, _)| *id)
            .take(1),
    );
    let mut extra = Vec::new();
    for (i, id) in picks.iter().enumerate() {
        let (height, time) = (tip.height + 1 + i as u64, tip.time + 60 * (1 + i as u64));
        extra.push(removal_block(devnet.net.network_id, height, time, *id));
    }
    ingest.ingest(&extra.iter().collect::<Vec<_>>(), 1);
    for b in model_blocks(&extra.iter().collect::<Vec<_>>()) {
        model.block(&b);
    }
    seen.removed = picks.len();

    let pages = PChainPages::new(Arc::clone(&devnet.store));
    let last = *model.after.keys().last().unwrap();
    let mut previous: Option<Set> = None;
    for h in 1..=last {
        let got = pages.validator_set(&subnet, Some(h)).unwrap();
        assert_eq!(got.height, h);
        let written = if model.proposals.contains(&h) {
            h - 1
        } else {
            h
        };
        if written < converted_at {
            assert!(!got.l1, "height {h}: not an L1 yet");
            continue;
        }
        assert!(got.l1, "height {h}");
        seen.proposals += usize::from(written != h);
        let got: Set = got
            .validators
            .iter()
            .map(|v| (v.node_id.clone(), (v.weight, v.public_key)))
            .collect();
        let want = model.set(&subnet, h);
        assert_eq!(got, want, "height {h}");
        if want.contains_key(EMPTY_NODE_ID.as_slice()) {
            seen.with_inactive += 1;
        } else {
            seen.without_inactive += 1;
        }
        previous = Some(want);
    }
    assert!(previous.is_some());

    // Transitions, validator by validator, from the model's states.
    let heights: Vec<u64> = model.after.keys().copied().collect();
    let mut was_inactive: BTreeSet<Id> = BTreeSet::new();
    for pair in heights.windows(2) {
        let (before, after) = (&model.after[&pair[0]], &model.after[&pair[1]]);
        let touched = model.touched.get(&pair[1]).cloned().unwrap_or_default();
        for (id, v) in after {
            let prior = before.get(id).map(|p| p.end != 0);
            if prior == Some(true) && v.end == 0 && !touched.contains(id) {
                seen.ran_out += 1;
            }
            if v.end == 0 {
                was_inactive.insert(*id);
            } else if was_inactive.remove(id) {
                seen.back += 1;
            }
        }
    }
    // The tip, unasked, is the last height.
    assert_eq!(pages.validator_set(&subnet, None).unwrap().height, last);
    seen
}

#[test]
fn l1_sets_at_every_height_follow_avalanchego() {
    let local = one_price(FeeConfig::LOCAL);
    assert!(local.disabled > 0, "{local:?}");
    assert!(
        local.with_inactive > 0 && local.without_inactive > 0,
        "{local:?}"
    );
    assert_eq!(local.removed, 2, "{local:?}");
    let expensive = one_price(FeeConfig {
        min_price: 50_000,
        ..FeeConfig::LOCAL
    });
    assert!(expensive.ran_out > 0, "{expensive:?}");
    assert!(expensive.back > 0, "{expensive:?}");
    assert!(expensive.removed > 0, "{expensive:?}");
}
