//! The L1 validator fee metrics of a devnet's P-Chain (converted to an L1 whose validators are
//! registered, reweighted, topped up and disabled), as `PChainPages::l1_metrics` reads them,
//! equal a model computed here from the blocks' txs alone, second by second: from Etna on each
//! second raises or lowers the excess by `current − target` (saturating at 0) and costs every
//! active validator `price(excess after the second)`, paid from its balance until the balance is
//! used up; `current` is the count of active validators as of the last block, and a validator
//! whose balance is used up leaves the active set at the next block (avalanchego
//! `vms/platformvm/txs/executor/state_changes.go` `advanceValidatorFeeState`,
//! `vms/platformvm/validators/fee/fee.go`). The model's cost is checked against avalanchego's
//! `vms/platformvm/validators/fee/fee_test.go` vectors; `price` is chain-p's, checked against
//! `vms/components/gas/gas_test.go` in `l1_fee.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The devnet ingest the unit tests use too.
#[path = "../src/test_devnet.rs"]
mod test_devnet;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use snowline_chain_p::metrics::{L1Figure, L1MetricsError, L1MetricsQuery, L1Point, L1Scope};
use snowline_chain_p::pages::PChainPages;
use snowline_chain_p::{FeeConfig, l1_fee_price};
use snowline_types::Id;
use snowline_types::platformvm::{self, UnsignedTx};
use snowline_types::warp::l1::{L1Message, conversion_validation_id, registration_validation_id};
use snowline_types::warp::message::Message;
use snowline_types::warp::payload::Payload;
use test_devnet::PDevnet;

const DAY: u64 = 86_400;

/// One second of the fee state: the excess after it (`CalculateExcess` over one second).
fn next_excess(target: u64, current: u64, excess: u64) -> u64 {
    if current < target {
        excess.saturating_sub(target - current)
    } else {
        excess.saturating_add(current - target)
    }
}

/// What one validator pays over `seconds`, one second at a time.
fn model_cost(c: &FeeConfig, current: u64, mut excess: u64, seconds: u64) -> u64 {
    let mut cost = 0u64;
    for _ in 0..seconds {
        excess = next_excess(c.target, current, excess);
        cost = cost.saturating_add(l1_fee_price(
            c.min_price,
            excess,
            c.excess_conversion_constant,
        ));
    }
    cost
}

/// Every case of `fee_test.go` (`tests`): target 10,000, minPrice 2,048, K = 864,000,000 / ln 2
/// truncated.
#[test]
fn model_cost_matches_avalanchego_fee_vectors() {
    let c = FeeConfig {
        capacity: 20_000,
        target: 10_000,
        min_price: 2_048,
        excess_conversion_constant: 1_246_488_515,
    };
    let (minute, hour, day, week) = (60, 3_600, DAY, 7 * DAY);
    let k = c.excess_conversion_constant;
    let cases: [(u64, u64, u64, u64); 10] = [
        (10, 0, minute, 122_880),
        (10_000, 0, minute, 122_880),
        (10_000, 864_000_000, minute, 245_760),
        (10_000, k, minute, 334_020),
        (15_000, 0, minute, 122_880),
        (9_000, 6 * hour * 1_000, day, 177_321_939),
        (10_000, k, day, 480_988_800),
        (15_000, 0, day, 211_438_809),
        (10_000, 0, week, 1_238_630_400),
        (15_000, 0, week, 5_265_492_669),
    ];
    for (current, excess, seconds, want) in cases {
        assert_eq!(
            model_cost(&c, current, excess, seconds),
            want,
            "{current} {excess} {seconds}"
        );
    }
}

/// The AddressedCall payload a signed Warp message carries.
fn payload(signed: &[u8]) -> Vec<u8> {
    let m = Message::parse(signed).unwrap();
    match Payload::parse(&m.unsigned.payload).unwrap() {
        Payload::AddressedCall(call) => call.payload,
        Payload::Hash(_) => panic!("hash payload"),
    }
}

/// A validator of the model.
struct Val {
    subnet: Id,
    node: Vec<u8>,
    balance: u64,
    active: bool,
    created: u64,
}

/// Per-day sums of the model: fees by validation, paying validations.
#[derive(Default)]
struct Model {
    vals: BTreeMap<Id, Val>,
    /// `(day, validation) -> nAVAX paid that day`.
    paid: BTreeMap<(u64, Id), u64>,
    l1_since: Option<u64>,
    conversions: BTreeMap<Id, u64>,
    /// Validators whose balance was used up.
    ran_out: usize,
}

impl Model {
    /// Moves time from `now` to `ts`, second by second.
    fn advance(&mut self, c: &FeeConfig, excess: &mut u64, now: u64, ts: u64) {
        let current = self.vals.values().filter(|v| v.active).count() as u64;
        for t in now..ts {
            *excess = next_excess(c.target, current, *excess);
            let price = l1_fee_price(c.min_price, *excess, c.excess_conversion_constant);
            for (id, v) in self.vals.iter_mut().filter(|(_, v)| v.active) {
                let pay = price.min(v.balance);
                v.balance -= pay;
                if pay > 0 {
                    *self.paid.entry((t - t % DAY, *id)).or_default() += pay;
                }
            }
        }
        for v in self.vals.values_mut() {
            if v.active && v.balance == 0 {
                v.active = false;
                self.ran_out += 1;
            }
        }
    }

    fn apply(&mut self, tx: &UnsignedTx, ts: u64) {
        match tx {
            UnsignedTx::ConvertSubnetToL1Tx(t) => {
                self.l1_since.get_or_insert(ts);
                self.conversions.insert(t.subnet_id, ts);
                for (i, v) in t.validators.iter().enumerate() {
                    let id = conversion_validation_id(&t.subnet_id, i as u32);
                    self.vals.insert(
                        id,
                        Val {
                            subnet: t.subnet_id,
                            node: v.node_id.clone(),
                            balance: v.balance,
                            active: v.balance > 0,
                            created: ts,
                        },
                    );
                }
            }
            UnsignedTx::RegisterL1ValidatorTx(t) => {
                let p = payload(&t.message);
                let Ok(L1Message::RegisterL1Validator(r)) = L1Message::parse(&p) else {
                    panic!("not a registration");
                };
                self.vals.insert(
                    registration_validation_id(&p),
                    Val {
                        subnet: r.subnet_id,
                        node: r.node_id,
                        balance: t.balance,
                        active: t.balance > 0,
                        created: ts,
                    },
                );
            }
            UnsignedTx::SetL1ValidatorWeightTx(t) => {
                let Ok(L1Message::L1ValidatorWeight(w)) = L1Message::parse(&payload(&t.message))
                else {
                    panic!("not a weight message");
                };
                if w.weight == 0 {
                    if let Some(v) = self.vals.get_mut(&w.validation_id) {
                        v.active = false;
                        v.balance = 0;
                    }
                }
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                if let Some(v) = self.vals.get_mut(&t.validation_id) {
                    v.balance += t.balance;
                    v.active = true;
                }
            }
            UnsignedTx::DisableL1ValidatorTx(t) => {
                if let Some(v) = self.vals.get_mut(&t.validation_id) {
                    v.active = false;
                    v.balance = 0;
                }
            }
            _ => {}
        }
    }

    /// The points of the validations `ids` (paying: how many paid that day) from `since`'s
    /// day to `tip`'s, newest first.
    fn points(&self, ids: &BTreeSet<Id>, figure: L1Figure, since: u64, tip: u64) -> Vec<L1Point> {
        let mut out = Vec::new();
        let mut total = 0u64;
        // Cumulative sums count every day before `since` too (nothing is paid before then).
        let mut before: u64 = 0;
        for ((d, id), paid) in &self.paid {
            if *d < since - since % DAY && ids.contains(id) {
                before += paid;
            }
        }
        total += before;
        let mut d = since - since % DAY;
        while d <= tip {
            let today: Vec<u64> = ids
                .iter()
                .filter_map(|id| self.paid.get(&(d, *id)).copied())
                .collect();
            let fees: u64 = today.iter().sum();
            total += fees;
            let value = match figure {
                L1Figure::Fees => fees,
                L1Figure::CumulativeFees => total,
                L1Figure::PayingValidators => today.len() as u64,
            };
            out.push(L1Point {
                timestamp: d,
                value,
                in_progress: tip < d + DAY,
            });
            d += DAY;
        }
        out.reverse();
        out
    }
}

/// At the local network's price (1 nAVAX/s: no balance runs out) and at 20,000 nAVAX/s (a
/// 1 AVAX balance lasts about 14 hours: validators run out between blocks and on other days
/// than the block deactivating them, and top-ups start them again).
#[test]
fn every_metric_of_every_scope_equals_the_per_second_model() {
    let expensive = FeeConfig {
        min_price: 20_000,
        ..FeeConfig::LOCAL
    };
    let mut ran_out = 0;
    for c in [FeeConfig::LOCAL, expensive] {
        ran_out += one_price(c);
    }
    assert!(ran_out > 0, "no balance ran out");
}

/// Checks every series at fee configuration `c`; returns how many validators ran out.
fn one_price(c: FeeConfig) -> usize {
    let devnet = PDevnet::generate();
    let p_genesis = &devnet.p_genesis;
    assert!(
        ![1, 5].contains(&devnet.net.network_id),
        "the model assumes Etna from genesis"
    );
    let pages = PChainPages::new(Arc::clone(&devnet.store));
    let q = |scope: L1Scope, figure| L1MetricsQuery {
        scope,
        figure,
        from: 0,
        to: u64::MAX,
    };
    assert!(matches!(
        pages.l1_metrics(&q(L1Scope::Total, L1Figure::Fees)),
        Err(L1MetricsError::NotIndexed)
    ));
    let p_records = devnet.p_blocks();
    // Small batches, so blocks' rows meet the store's in every order.
    devnet.deriver(Some(c)).ingest(&p_records, 3);

    let mut model = Model::default();
    let mut excess = 0u64;
    let mut now = p_genesis.timestamp;
    let mut kinds = BTreeSet::new();
    for r in &p_records {
        let parsed = platformvm::parse_block(&r.bytes).unwrap().block;
        let ts = parsed
            .block
            .timestamp()
            .unwrap_or((r.timestamp_ns / 1_000_000_000) as u64);
        if ts > now {
            model.advance(&c, &mut excess, now, ts);
            now = ts;
        }
        // A proposal block's tx takes effect with its option; L1 txs are standard ones.
        for t in parsed.block.txs() {
            kinds.insert(t.unsigned.type_name());
            model.apply(&t.unsigned, ts);
        }
    }
    let tip = now;
    for k in [
        "ConvertSubnetToL1Tx",
        "RegisterL1ValidatorTx",
        "SetL1ValidatorWeightTx",
        "IncreaseL1ValidatorBalanceTx",
        "DisableL1ValidatorTx",
    ] {
        assert!(kinds.contains(k), "the devnet has no {k}");
    }
    let all: BTreeSet<Id> = model.vals.keys().copied().collect();
    assert!(all.len() > 3, "{} validations", all.len());
    let days: BTreeSet<u64> = model.paid.keys().map(|(d, _)| *d).collect();
    assert!(days.len() >= 2, "fees paid over {} days", days.len());

    let check = |scope: L1Scope, ids: &BTreeSet<Id>, since: u64, figures: &[L1Figure]| {
        for figure in figures {
            let want = model.points(ids, *figure, since, tip);
            let got = pages.l1_metrics(&q(scope.clone(), *figure)).unwrap();
            assert_eq!(got, want, "{scope:?} {figure:?}");
            // A range keeps the days starting in it.
            if want.len() > 2 {
                let (to, from) = (want[0].timestamp - 1, want[want.len() - 1].timestamp + 1);
                let got = pages
                    .l1_metrics(&L1MetricsQuery {
                        from,
                        to,
                        ..q(scope.clone(), *figure)
                    })
                    .unwrap();
                assert_eq!(got, want[1..want.len() - 1], "{scope:?} {figure:?} range");
            }
        }
    };
    let fees = [L1Figure::Fees, L1Figure::CumulativeFees];
    let curve = [
        L1Figure::Fees,
        L1Figure::CumulativeFees,
        L1Figure::PayingValidators,
    ];
    for (id, v) in &model.vals {
        check(
            L1Scope::Validation(*id),
            &BTreeSet::from([*id]),
            v.created,
            &fees,
        );
    }
    let nodes: BTreeSet<Vec<u8>> = model.vals.values().map(|v| v.node.clone()).collect();
    for node in &nodes {
        let ids: BTreeSet<Id> = model
            .vals
            .iter()
            .filter(|(_, v)| v.node == *node)
            .map(|(id, _)| *id)
            .collect();
        let since = ids.iter().map(|id| model.vals[id].created).min().unwrap();
        check(L1Scope::Node(node.clone()), &ids, since, &fees);
    }
    for (subnet, since) in &model.conversions {
        let ids: BTreeSet<Id> = model
            .vals
            .iter()
            .filter(|(_, v)| v.subnet == *subnet)
            .map(|(id, _)| *id)
            .collect();
        check(L1Scope::Subnet(*subnet), &ids, *since, &curve);
    }
    check(L1Scope::Total, &all, model.l1_since.unwrap(), &curve);

    // Paying validators change: some validators stop paying during the run.
    let paying = model.points(
        &all,
        L1Figure::PayingValidators,
        model.l1_since.unwrap(),
        tip,
    );
    let distinct: BTreeSet<u64> = paying.iter().map(|p| p.value).collect();
    assert!(!paying.is_empty() && paying[0].in_progress);
    assert!(distinct.len() > 1, "{paying:?}");

    // Unknown scopes are refused; per validation there is no paying count.
    let unknown = Id::from([7; 32]);
    for scope in [
        L1Scope::Validation(unknown),
        L1Scope::Subnet(unknown),
        L1Scope::Node(vec![7; 20]),
    ] {
        assert!(matches!(
            pages.l1_metrics(&q(scope, L1Figure::Fees)),
            Err(L1MetricsError::Unknown(_))
        ));
    }
    let some = *all.iter().next().unwrap();
    assert!(matches!(
        pages.l1_metrics(&q(L1Scope::Validation(some), L1Figure::PayingValidators)),
        Err(L1MetricsError::Unsupported(_))
    ));
    // A subnet never converted has no points.
    let plain = p_records
        .iter()
        .flat_map(|r| {
            let parsed = platformvm::parse_block(&r.bytes).unwrap().block;
            parsed
                .block
                .txs()
                .into_iter()
                .zip(parsed.tx_ids.clone())
                .filter(|(t, _)| matches!(t.unsigned, UnsignedTx::CreateSubnetTx(_)))
                .map(|(_, id)| id)
                .collect::<Vec<_>>()
        })
        .find(|id| !model.conversions.contains_key(id));
    if let Some(plain) = plain {
        assert!(
            pages
                .l1_metrics(&q(L1Scope::Subnet(plain), L1Figure::Fees))
                .unwrap()
                .is_empty()
        );
    }
    model.ran_out
}
