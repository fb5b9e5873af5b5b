//! Primary Network webhooks end to end: the real `data-api` on port 0 following a devnet's
//! P-Chain from a node-shaped upstream, receivers in the test on loopback. What each webhook must
//! receive is read from the devnet by `common::pmodel`, an independent replay of the P-Chain by
//! avalanchego's rules (never `snowline_chain_p`), by `common::cmodel` (the C-Chain's atomic
//! memory) and a replay of the X-Chain's txs here (never `snowline_chain_x`), and from the
//! blocks' txs here; each delivery's
//! `x-signature` is checked with `hmac`/`sha2` as a receiver would; the event stream
//! (`GET /v1/webhooks/{id}/events`) is read as an `EventSource` would and compared with what
//! the receivers got.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::cmodel::CModel;
use common::pmodel::{Ev, Kind, PModel, RewardKind, addressed_payload};
use common::receiver::Receiver;
use common::{DataApi, create_key, follow_with, local_addrs, request, start, upstream};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use snowline_types::atomic::{SharedMove, c_container_atomic, p_block_atomic, x_exported};
use snowline_types::avm::outputs::{owners as avm_owners, produced_utxos};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{Block, UnsignedTx, parse_block};
use snowline_types::vertex::Vertex;
use snowline_types::warp::L1Message;
use snowline_types::{Id, NodeId, ShortId, avm, coreth, proposervm};

const FLAGS: [&str; 4] = [
    "--webhook-allow-private",
    "127.0.0.0/8,::1",
    "--webhook-retries",
    "20ms,40ms,80ms,160ms,320ms",
];

fn call(api: &DataApi, key: &str, method: &str, path: &str, body: &Value) -> common::Response {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    request(&api.addr, method, path, &[("x-data-api-key", key)], &body)
}

fn hmac_hex(secret: &str, data: &[u8]) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    m.update(data);
    hex::encode(m.finalize().into_bytes())
}

/// The devnet of `seed`: the served upstream, its records and the model's replay of them.
fn world(seed: u64) -> (upstream::Upstream, Vec<ContainerRecord>, PModel) {
    let up = upstream::start(seed, 0);
    let (mut devnet, _) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    let model = PModel::replay(&devnet, &records);
    (up, records, model)
}

/// Creates webhooks with `bodies` on a server of `data` (stopped after), answering each.
fn create_all(data: &std::path::Path, key: &str, bodies: &[Value]) -> Vec<Value> {
    let mut args: Vec<&str> = vec!["--network", "local"];
    args.extend_from_slice(&FLAGS);
    let api = start(data, &args);
    bodies
        .iter()
        .map(|b| {
            let r = call(&api, key, "POST", "/v1/webhooks", b);
            assert_eq!(r.status, 201, "{}", r.body);
            r.json()
        })
        .collect()
}

/// Follows the devnet until `receivers` have at least `counts` deliveries acknowledged; the
/// organisation's shared secret.
fn follow_until(
    data: &std::path::Path,
    up: &upstream::Upstream,
    seed: u64,
    key: &str,
    receivers: &[(&Receiver, usize)],
) -> (DataApi, String) {
    let api = follow_with(data, up, seed, 120, &FLAGS);
    for (r, n) in receivers {
        // Counted here; what arrived is compared with the model by the caller.
        r.wait(120, |r| r.acked().len() >= *n);
    }
    let secret = call(
        &api,
        key,
        "GET",
        "/v1/webhooks:getSharedSecret",
        &Value::Null,
    )
    .json()["secret"]
        .as_str()
        .unwrap()
        .to_owned();
    (api, secret)
}

/// The events `r` received for webhook `hook`, each checked: signed with `secret`, of the
/// webhook and event type, a `messageId` never repeated.
fn events(r: &Receiver, hook: &Value, event_type: &str, secret: &str) -> Vec<Value> {
    let mut messages = BTreeSet::new();
    r.all()
        .iter()
        .map(|d| {
            assert_eq!(
                d.headers["x-signature"],
                hmac_hex(secret, d.body.as_bytes())
            );
            let v: Value = serde_json::from_str(&d.body).unwrap();
            assert_eq!(v["webhookId"], hook["id"]);
            assert_eq!(v["eventType"], event_type);
            assert!(
                messages.insert(v["messageId"].as_str().unwrap().to_owned()),
                "a messageId twice: {v}"
            );
            v["event"].clone()
        })
        .collect()
}

/// The Data API's name of a reward UTXO's kind in these events.
fn reward_type(k: RewardKind) -> &'static str {
    match k {
        RewardKind::Validator => "validation",
        RewardKind::Delegator => "delegation",
        RewardKind::ValidatorFee => "delegatee",
    }
}

/// The reward UTXOs of staker `staker` paid by reward tx `ev`, owned by one of `addrs` (all
/// when `None`), as `(utxoId, type, amount)`.
fn payouts(
    m: &PModel,
    staker: Id,
    ev: Ev,
    addrs: Option<&BTreeSet<ShortId>>,
) -> Vec<(String, &'static str, String)> {
    let mut out: Vec<_> = m
        .rewards()
        .filter(|(u, _)| u.utxo_id.tx_id == staker && u.created == ev)
        .filter(|(u, _)| addrs.is_none_or(|a| u.owned_by(a)))
        .map(|(u, k)| (u.utxo_id, reward_type(k), u.amount().to_string()))
        .collect();
    out.sort_by_key(|(id, _, _)| id.output_index);
    out.into_iter()
        .map(|(id, k, a)| (id.id().to_string(), k, a))
        .collect()
}

fn listed(e: &Value) -> Vec<(String, &'static str, String)> {
    e["rewards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let k = match r["rewardType"].as_str().unwrap() {
                "validation" => "validation",
                "delegation" => "delegation",
                "delegatee" => "delegatee",
                other => panic!("reward type {other}"),
            };
            (
                r["utxoId"].as_str().unwrap().to_owned(),
                k,
                r["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// An L1 validator event the blocks say happened: sub-event, tx (none when its balance ran
/// out), validation id, height.
#[derive(Debug, Clone, PartialEq)]
struct L1Seen {
    sub_event: &'static str,
    tx: Option<Id>,
    validation_id: Id,
    height: u64,
}

/// Read from the blocks (ACP-77, avalanchego `vms/platformvm/txs`): an
/// `IncreaseL1ValidatorBalanceTx` raises a balance, a `DisableL1ValidatorTx` disables, a
/// `SetL1ValidatorWeightTx` whose `L1ValidatorWeight` message says 0 removes; and before a
/// block's txs, each validator active after the previous block whose `EndAccumulatedFee` the
/// block's accrued fees reach is deactivated (`advanceValidatorFeeState`), by increasing
/// `EndAccumulatedFee`, then validation id, as the fee heap orders them.
fn l1_events(records: &[ContainerRecord], m: &PModel) -> Vec<L1Seen> {
    let mut out = Vec::new();
    for r in records.iter().filter(|r| r.path == IndexPath::PBlock) {
        let b = parse_block(&r.bytes).unwrap().block;
        let height = b.block.height();
        let accrued = m
            .blocks
            .iter()
            .find(|x| x.height == height)
            .unwrap()
            .accrued;
        if let Some(before) = m.l1_after.get(&(height - 1)) {
            let mut ran_out: Vec<(u64, Id)> = before
                .iter()
                .filter(|(_, v)| v.active() && v.end_fee <= accrued)
                .map(|(id, v)| (v.end_fee, *id))
                .collect();
            ran_out.sort();
            out.extend(ran_out.into_iter().map(|(_, id)| L1Seen {
                sub_event: "l1_validator_disabled",
                tx: None,
                validation_id: id,
                height,
            }));
        }
        let txs: Vec<_> = match &b.block {
            Block::BanffStandard { txs, .. } | Block::BanffProposal { txs, .. } => {
                txs.iter().collect()
            }
            _ => Vec::new(),
        };
        for (t, id) in txs.into_iter().zip(&b.tx_ids) {
            let (sub_event, vid) = match &t.unsigned {
                UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                    ("l1_validator_balance_increased", t.validation_id)
                }
                UnsignedTx::DisableL1ValidatorTx(t) => ("l1_validator_disabled", t.validation_id),
                UnsignedTx::SetL1ValidatorWeightTx(t) => {
                    let Ok(L1Message::L1ValidatorWeight(w)) =
                        L1Message::parse(&addressed_payload(&t.message))
                    else {
                        panic!("not an L1ValidatorWeight message")
                    };
                    if w.weight != 0 {
                        continue;
                    }
                    ("l1_validator_removed", w.validation_id)
                }
                _ => continue,
            };
            out.push(L1Seen {
                sub_event,
                tx: Some(*id),
                validation_id: vid,
                height,
            });
        }
    }
    out
}

#[test]
fn validator_activity_reports_rewards_and_l1_changes_once_in_order() {
    let seed = 2;
    let (up, records, m) = world(seed);
    let primary = Id::EMPTY;
    // The node with the most settled primary-network stakers, and their settlements in order.
    let mut by_node: BTreeMap<NodeId, usize> = BTreeMap::new();
    for s in m.stakers.values().filter(|s| s.settled.is_some()) {
        *by_node.entry(s.node).or_default() += 1;
    }
    let (&node, _) = by_node.iter().max_by_key(|(_, n)| **n).expect("rewards");
    let mut rewards: Vec<_> = m
        .stakers
        .values()
        .filter(|s| s.node == node)
        .filter_map(|s| s.settled.map(|(ev, commit)| (ev, commit, s)))
        .collect();
    rewards.sort_by_key(|(ev, _, _)| ev.height);
    assert!(rewards.len() > 1, "{rewards:?}");
    // The L1 with the most events.
    let l1 = l1_events(&records, &m);
    let mut by_subnet: BTreeMap<Id, usize> = BTreeMap::new();
    for e in &l1 {
        *by_subnet.entry(m.l1[&e.validation_id].subnet).or_default() += 1;
    }
    let (&subnet, _) = by_subnet
        .iter()
        .max_by_key(|(_, n)| **n)
        .expect("L1 events");
    let want_l1: Vec<&L1Seen> = l1
        .iter()
        .filter(|e| m.l1[&e.validation_id].subnet == subnet)
        .collect();
    let kinds: BTreeSet<_> = want_l1.iter().map(|e| e.sub_event).collect();
    assert!(kinds.len() >= 2, "{want_l1:?}");

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let (_, other) = create_key(&data, "b", "org-b", "free");
    let (on_rewards, on_l1) = (Receiver::start(), Receiver::start());
    let hooks = create_all(
        &data,
        &key,
        &[
            json!({"eventType": "validator_activity", "url": on_rewards.url(), "network": "local",
                   "metadata": {"keyType": "nodeId", "keys": [node.to_string()],
                                "subnetIds": [primary.to_string()],
                                "subEvents": {"validatorActivitySubEvents": ["reward_distribution"]}}}),
            json!({"eventType": "validator_activity", "url": on_l1.url(), "network": "local",
                   "metadata": {"keyType": "subnetId", "keys": [subnet.to_string()],
                                "subEvents": {"validatorActivitySubEvents": [
                                    "l1_validator_balance_increased", "l1_validator_disabled",
                                    "l1_validator_removed"]}}}),
        ],
    );
    let (api, secret) = follow_until(
        &data,
        &up,
        seed,
        &key,
        &[(&on_rewards, rewards.len()), (&on_l1, want_l1.len())],
    );

    let got = events(&on_rewards, &hooks[0], "validator_activity", &secret);
    assert_eq!(got.len(), rewards.len(), "each settlement once");
    for (e, (ev, commit, s)) in got.iter().zip(&rewards) {
        assert_eq!(e["subEventType"], "reward_distribution", "{e}");
        assert_eq!(e["txHash"], ev.tx.to_string(), "{e}");
        assert_eq!(e["blockNumber"], ev.height.to_string(), "{e}");
        assert_eq!(e["stakingTxHash"], s.tx_id.to_string(), "{e}");
        assert_eq!(e["nodeId"], node.to_string(), "{e}");
        assert_eq!(e["rewarded"], *commit, "{e}");
        let staker = if s.validator {
            "validator"
        } else {
            "delegator"
        };
        assert_eq!(e["stakerType"], staker, "{e}");
        assert_eq!(e["amountStaked"], s.weight.to_string(), "{e}");
        assert_eq!(listed(e), payouts(&m, s.tx_id, *ev, None), "{e}");
    }

    let got = events(&on_l1, &hooks[1], "validator_activity", &secret);
    assert_eq!(got.len(), want_l1.len(), "each change once");
    for (e, w) in got.iter().zip(&want_l1) {
        assert_eq!(e["subEventType"], w.sub_event, "{e}");
        assert_eq!(e["validationId"], w.validation_id.to_string(), "{e}");
        assert_eq!(e["subnetId"], subnet.to_string(), "{e}");
        assert_eq!(e["blockNumber"], w.height.to_string(), "{e}");
        match w.tx {
            Some(tx) => assert_eq!(e["txHash"], tx.to_string(), "{e}"),
            None => {
                assert!(e.get("txHash").is_none(), "{e}");
                assert_eq!(e["reason"], "balance_exhausted", "{e}");
            }
        }
    }

    // The same events as Server-Sent Events, read three at a time, each read resuming after
    // the last id seen: exactly the bodies the receiver got, in order, none twice.
    for (hook, receiver) in [(&hooks[0], &on_rewards), (&hooks[1], &on_l1)] {
        let delivered: Vec<String> = receiver.acked().into_iter().map(|d| d.body).collect();
        let path = format!("/v1/webhooks/{}/events", hook["id"].as_str().unwrap());
        let (streamed, ids) = read_stream(&api, &key, &path, 3);
        assert_eq!(streamed, delivered);
        let first = ids.first().copied().unwrap();
        assert_eq!(ids, (first..first + ids.len() as u64).collect::<Vec<_>>());
        // Resumed from any point, by the query parameter too.
        let mid = ids[ids.len() / 2];
        let r = call(
            &api,
            &key,
            "GET",
            &format!("{path}?lastEventId={mid}&pageSize=100"),
            &Value::Null,
        );
        assert_eq!(parse_sse(&r.body).1, ids[ids.len() / 2 + 1..].to_vec());
    }
    let path = format!("/v1/webhooks/{}/events", hooks[1]["id"].as_str().unwrap());
    let r = request(
        &api.addr,
        "GET",
        &path,
        &[("x-data-api-key", &key), ("last-event-id", "x")],
        "",
    );
    assert!(r.error(400, "Bad Request").contains("Last-Event-ID"));
    let r = call(&api, &other, "GET", &path, &Value::Null);
    r.error(404, "Not Found");
    let r = request(&api.addr, "GET", &path, &[], "");
    assert_eq!(r.status, 401, "{}", r.body);
}

/// An event-stream response's `data` fields and `id`s, checking its shape: a `retry` first,
/// then events of one `id` and one `data` line each.
fn parse_sse(body: &str) -> (Vec<String>, Vec<u64>) {
    let mut blocks = body.split("\n\n").filter(|b| !b.is_empty());
    assert!(blocks.next().unwrap().starts_with("retry: "), "{body}");
    let mut data = Vec::new();
    let mut ids = Vec::new();
    for b in blocks {
        let (id, d) = b.split_once('\n').unwrap();
        ids.push(id.strip_prefix("id: ").unwrap().parse().unwrap());
        data.push(d.strip_prefix("data: ").unwrap().to_owned());
    }
    (data, ids)
}

/// Reads the event stream at `path` `page` events at a time as an `EventSource` would, sending
/// the last id seen as `Last-Event-ID`, until a read brings nothing new.
fn read_stream(api: &DataApi, key: &str, path: &str, page: usize) -> (Vec<String>, Vec<u64>) {
    let (mut data, mut ids) = (Vec::new(), Vec::<u64>::new());
    loop {
        let last = ids.last().map(u64::to_string);
        let mut headers = vec![("x-data-api-key", key)];
        if let Some(l) = &last {
            headers.push(("last-event-id", l));
        }
        let r = request(
            &api.addr,
            "GET",
            &format!("{path}?pageSize={page}"),
            &headers,
            "",
        );
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(
            r.header("content-type")
                .unwrap()
                .starts_with("text/event-stream")
        );
        let (d, i) = parse_sse(&r.body);
        assert!(d.len() <= page);
        if d.is_empty() {
            return (data, ids);
        }
        data.extend(d);
        ids.extend(i);
    }
}

/// One address's movement of one asset in a tx, as `balance_change` lists it.
#[derive(Debug, Default, Clone, PartialEq)]
struct Moved {
    consumed: u128,
    produced: u128,
    staked: u128,
    exported: u128,
}

/// Movements per (address, asset).
type Moves = BTreeMap<(ShortId, Id), Moved>;

/// A `primary_network_address_activity` event the model says `addrs` must get: the tx, and
/// either its movements per (address, asset) or the reward UTXOs it paid them.
#[derive(Debug, Clone, PartialEq)]
enum Activity {
    Balance(Id, Moves),
    Reward(Id, Vec<(String, &'static str, String)>),
}

/// From the model: every P-Chain tx that consumed (a P-Chain UTXO, or an import from atomic
/// memory) or created (an output, a stake, an export, a reward, an L1 refund) a UTXO one of
/// `addrs` owns, in chain order (height, then the tx's place in its block); a reward tx's
/// balance change comes before its reward event.
fn activity(m: &PModel, addrs: &BTreeSet<ShortId>) -> Vec<Activity> {
    let p = NetworkInfo::LOCAL.p_chain_id;
    let mut moves: BTreeMap<Id, (Ev, Moves)> = BTreeMap::new();
    let mut touch = |ev: Ev, u: &common::pmodel::MUtxo, f: &dyn Fn(&mut Moved, u128)| {
        for a in u.owners().addrs.iter().filter(|a| addrs.contains(a)) {
            let entry = moves.entry(ev.tx).or_insert((ev, BTreeMap::new()));
            f(
                entry.1.entry((*a, u.asset)).or_default(),
                u128::from(u.amount()),
            );
        }
    };
    for u in m.utxos.values() {
        if u.created.height > 0 {
            match u.kind {
                Kind::Output | Kind::Reward(_) => touch(u.created, u, &|m, a| m.produced += a),
                Kind::Stake => touch(u.created, u, &|m, a| m.staked += a),
                Kind::Exported => touch(u.created, u, &|m, a| m.exported += a),
            }
        }
        if let Some(c) = u.consumed.filter(|_| u.kind != Kind::Exported) {
            touch(c, u, &|m, a| m.consumed += a);
        }
    }
    for u in m.x_to_p.values() {
        if let Some(c) = u.consumed {
            assert_eq!(u.consumed_on, p);
            touch(c, u, &|m, a| m.consumed += a);
        }
    }
    let place = |ev: &Ev| {
        let b = m.blocks.iter().find(|b| b.height == ev.height).unwrap();
        let i = b.tx_ids.iter().position(|t| *t == ev.tx).unwrap_or(0);
        (ev.height, i)
    };
    let mut out: Vec<((u64, usize), u8, Activity)> = moves
        .into_iter()
        .map(|(tx, (ev, m))| (place(&ev), 0, Activity::Balance(tx, m)))
        .collect();
    for s in m.stakers.values() {
        if let Some((ev, _)) = s.settled {
            let paid = payouts(m, s.tx_id, ev, Some(addrs));
            if !paid.is_empty() {
                out.push((place(&ev), 1, Activity::Reward(ev.tx, paid)));
            }
        }
    }
    out.sort_by_key(|(at, order, _)| (*at, *order));
    out.into_iter().map(|(_, _, a)| a).collect()
}

#[test]
fn primary_network_address_activity_reports_each_balance_change_and_reward_once_in_order() {
    let seed = 2;
    let (up, _records, m) = world(seed);
    let net = NetworkInfo::LOCAL;
    // The two addresses with the most reward UTXOs (rewards go to few owners), so both kinds of
    // events are there.
    let mut by_owner: BTreeMap<ShortId, usize> = BTreeMap::new();
    for (u, _) in m.rewards() {
        for a in &u.owners().addrs {
            *by_owner.entry(*a).or_default() += 1;
        }
    }
    let mut owners: Vec<(usize, ShortId)> = by_owner.into_iter().map(|(a, n)| (n, a)).collect();
    owners.sort();
    let watched: Vec<ShortId> = owners.iter().rev().take(2).map(|(_, a)| *a).collect();
    let set: BTreeSet<ShortId> = watched.iter().copied().collect();
    let want = activity(&m, &set);
    let rewards = want
        .iter()
        .filter(|a| matches!(a, Activity::Reward(..)))
        .count();
    assert!(rewards > 0 && want.len() > rewards, "{want:?}");

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let receiver = Receiver::start();
    let keys = local_addrs("P", &watched);
    let metadata = |subs: &[&str]| {
        json!({"keyType": "addresses", "keys": keys,
               "subEvents": {"addressActivitySubEvents": subs}})
    };
    let body = |chain: &str, metadata: Value| {
        json!({"eventType": "primary_network_address_activity", "url": receiver.url(),
               "network": "local", "chainId": chain, "metadata": metadata})
    };
    let p = net.p_chain_id.to_string();
    {
        let mut args: Vec<&str> = vec!["--network", "local"];
        args.extend_from_slice(&FLAGS);
        let api = start(&data, &args);
        // Refused with the reason: no chain of the Primary Network, a sub-event not derived yet, a key
        // of another network, a key type other than the OpenAPI's.
        let mainnet = snowline_types::address::format_bech32("avax", &watched[0]).unwrap();
        for (bad, field) in [
            (
                body(&Id([7; 32]).to_string(), metadata(&["balance_change"])),
                "chainId",
            ),
            (
                body(&p, metadata(&["balance_threshold"])),
                "balance_threshold",
            ),
            (
                body(
                    &p,
                    json!({"keyType": "addresses", "keys": [mainnet],
                           "subEvents": {"addressActivitySubEvents": ["balance_change"]}}),
                ),
                "keys",
            ),
            (
                body(
                    &p,
                    json!({"keyType": "nodeId", "keys": keys,
                           "subEvents": {"addressActivitySubEvents": ["balance_change"]}}),
                ),
                "keyType",
            ),
        ] {
            let r = call(&api, &key, "POST", "/v1/webhooks", &bad);
            let message = r.error(400, "Bad Request");
            assert!(message.contains(field), "{field}: {message}");
        }
    }
    let hooks = create_all(
        &data,
        &key,
        &[body(
            &p,
            metadata(&["balance_change", "reward_distribution"]),
        )],
    );
    let hook = &hooks[0];
    // The OpenAPI's `PrimaryNetworkAddressActivityResponse`: the chain, the metadata with the
    // keys in bech32.
    assert_eq!(hook["eventType"], "primary_network_address_activity");
    assert_eq!(hook["chainId"], p);
    let bech: Vec<String> = keys
        .iter()
        .map(|k| k.strip_prefix("P-").unwrap().to_owned())
        .collect();
    assert_eq!(hook["metadata"]["keys"], json!(bech));
    let (api, secret) = follow_until(&data, &up, seed, &key, &[]);
    let path = format!("/v1/webhooks/{}/addresses", hook["id"].as_str().unwrap());
    let r = call(&api, &key, "PATCH", &path, &json!({"addresses": []}));
    assert!(r.error(400, "Bad Request").contains("metadata.keys"));

    // An import derived before the export it spends (the follower had the X- or C-Chain
    // behind the P-Chain) gets that consumption in a second event, `late`, when the export's
    // container is derived: merged per tx, the events say exactly what the model says.
    let wanted: BTreeMap<(Id, bool), Activity> = want
        .iter()
        .map(|a| match a {
            Activity::Balance(tx, _) => ((*tx, false), a.clone()),
            Activity::Reward(tx, _) => ((*tx, true), a.clone()),
        })
        .collect();
    let text = |a: &ShortId| snowline_types::address::format_bech32(net.hrp, a).unwrap();
    let merge = |got: &[Value]| {
        let mut merged: BTreeMap<(Id, bool), Activity> = BTreeMap::new();
        for e in got {
            assert_eq!(e["chainId"], p, "{e}");
            let tx: Id = e["txHash"].as_str().unwrap().parse().unwrap();
            match e["subEventType"].as_str().unwrap() {
                "balance_change" => {
                    let entry = merged
                        .entry((tx, false))
                        .or_insert_with(|| Activity::Balance(tx, BTreeMap::new()));
                    let Activity::Balance(_, moves) = entry else {
                        unreachable!()
                    };
                    for c in e["balanceChanges"].as_array().unwrap() {
                        let a = watched
                            .iter()
                            .find(|a| text(a) == c["address"].as_str().unwrap())
                            .unwrap();
                        let asset: Id = c["assetId"].as_str().unwrap().parse().unwrap();
                        let n = |f: &str| c[f].as_str().unwrap().parse::<u128>().unwrap();
                        let m = moves.entry((*a, asset)).or_default();
                        m.consumed += n("consumed");
                        m.produced += n("produced");
                        m.staked += n("staked");
                        m.exported += n("exported");
                    }
                }
                "reward_distribution" => {
                    let old = merged.insert((tx, true), Activity::Reward(tx, listed(e)));
                    assert!(old.is_none(), "a reward twice: {e}");
                }
                other => panic!("sub-event {other}"),
            }
        }
        merged
    };
    receiver.wait(120, |r| {
        merge(&events(
            r,
            hook,
            "primary_network_address_activity",
            &secret,
        )) == wanted
    });
    let got = events(&receiver, hook, "primary_network_address_activity", &secret);
    assert_eq!(merge(&got), wanted, "every tx and reward, nothing else");
    // In chain order, each (but the late parts) once.
    let key_of = |e: &Value| {
        let tx: Id = e["txHash"].as_str().unwrap().parse().unwrap();
        (tx, e["subEventType"] == "reward_distribution")
    };
    let in_block: Vec<(Id, bool)> = got
        .iter()
        .filter(|e| e.get("late").is_none())
        .map(key_of)
        .collect();
    let order: Vec<(Id, bool)> = want
        .iter()
        .map(|a| match a {
            Activity::Balance(tx, _) => (*tx, false),
            Activity::Reward(tx, _) => (*tx, true),
        })
        .filter(|k| in_block.contains(k))
        .collect();
    assert_eq!(in_block, order, "in chain order, once each");
    let heights: BTreeMap<Id, u64> = m
        .blocks
        .iter()
        .flat_map(|b| b.tx_ids.iter().map(move |t| (*t, b.height)))
        .collect();
    for e in got.iter().filter(|e| e.get("late").is_some()) {
        let (tx, _) = key_of(e);
        assert_eq!(e["blockNumber"], heights[&tx].to_string(), "{e}");
        assert_eq!(e["txType"], "ImportTx", "{e}");
    }
}

/// Each tx's UTXO moves: `(owners, asset, amount, what)`, `what` one of `consumed`,
/// `produced`, `exported`.
type TxMoves = BTreeMap<Id, Vec<(Vec<ShortId>, Id, u64, &'static str)>>;

/// A UTXO as an X-Chain balance counts it (the Data API's X-Chain balances, avalanchego
/// `vms/avm`'s outputs): a secp256k1fx transfer by its amount, an NFT as 1, mint rights and
/// property outputs as 0.
fn x_amount(o: &avm::Output) -> u64 {
    match o {
        avm::Output::Secp256k1Transfer(t) => t.amount,
        avm::Output::NftTransfer(_) => 1,
        _ => 0,
    }
}

/// The Go type name of an X-Chain tx (avalanchego `vms/avm/txs`).
fn x_type(tx: &avm::UnsignedTx) -> &'static str {
    match tx {
        avm::UnsignedTx::Base(_) => "BaseTx",
        avm::UnsignedTx::CreateAsset(_) => "CreateAssetTx",
        avm::UnsignedTx::Operation(_) => "OperationTx",
        avm::UnsignedTx::Import(_) => "ImportTx",
        avm::UnsignedTx::Export(_) => "ExportTx",
    }
}

/// What each X-Chain tx did to UTXOs, replayed from the devnet's container bytes with the
/// types crate's parsers (never `snowline_chain_x`): every tx once, at its first acceptance
/// (`X/tx`, a vertex or a block), consuming its inputs (imports from atomic memory included,
/// their owners those of the outputs, genesis allocations and P- and C-Chain exports that made
/// them) and producing its outputs and exports (`vms/avm/txs/executor`: exports at the indexes
/// after the outputs).
struct XReplay {
    /// The txs in chain order, with their type.
    order: Vec<(Id, &'static str)>,
    /// Each tx's moves.
    moves: TxMoves,
}

fn x_replay(genesis: &avm::XGenesisState, records: &[ContainerRecord]) -> XReplay {
    let x = NetworkInfo::LOCAL.x_chain_id;
    let mut known: BTreeMap<Id, (Vec<ShortId>, Id, u64)> = BTreeMap::new();
    let mut know = |u: &avm::Utxo| {
        let v = (avm_owners(&u.output), u.asset_id, x_amount(&u.output));
        known.insert(u.id(), v);
    };
    let emitted = |tx: &avm::Tx, id: &Id| {
        let produced = produced_utxos(tx, id);
        let exported = match &tx.unsigned {
            avm::UnsignedTx::Export(e) => x_exported(e, *id),
            _ => Vec::new(),
        };
        (produced, exported)
    };
    for t in &genesis.txs {
        let (p, e) = emitted(&t.tx, &t.id);
        p.iter().chain(&e).for_each(&mut know);
    }
    for (_, u) in &genesis.atomic_utxos {
        know(u);
    }
    let mut txs: Vec<(Id, avm::Tx)> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut see = |id: Id, tx: &avm::Tx| {
        if seen.insert(id) {
            txs.push((id, tx.clone()));
        }
    };
    for r in records {
        match r.path {
            IndexPath::XTx => {
                let t = avm::Tx::parse(&r.bytes).unwrap();
                see(t.id, &t.tx);
            }
            IndexPath::XVtx => {
                for raw in &Vertex::parse(&r.bytes).unwrap().vertex.txs {
                    let t = avm::Tx::parse(raw).unwrap();
                    see(t.id, &t.tx);
                }
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::decode(&r.bytes).unwrap();
                let b = avm::StandardBlock::parse_vec(outer.into_inner()).unwrap();
                for (t, id) in b.block.txs.iter().zip(&b.tx_ids) {
                    see(*id, t);
                }
            }
            IndexPath::PBlock => {
                let b = parse_block(&r.bytes).unwrap();
                for m in p_block_atomic::<avm::Utxo>(&b, r.timestamp_ns).moves_for(x) {
                    if let SharedMove::Arrives { utxo, .. } = m {
                        know(utxo);
                    }
                }
            }
            IndexPath::CBlock => {
                if let Some(a) = c_container_atomic::<avm::Utxo>(r, None).unwrap() {
                    for m in a.moves_for(x) {
                        if let SharedMove::Arrives { utxo, .. } = m {
                            know(utxo);
                        }
                    }
                }
            }
        }
    }
    for (id, tx) in &txs {
        let (p, e) = emitted(tx, id);
        p.iter().chain(&e).for_each(&mut know);
    }
    let mut moves: BTreeMap<Id, Vec<_>> = BTreeMap::new();
    for (id, tx) in &txs {
        let m = moves.entry(*id).or_default();
        for i in tx.unsigned.input_utxos() {
            if let Some((owners, asset, amount)) = known.get(&i.id()) {
                m.push((owners.clone(), *asset, *amount, "consumed"));
            }
        }
        let (p, e) = emitted(tx, id);
        for (utxos, what) in [(p, "produced"), (e, "exported")] {
            for u in utxos {
                let owners = avm_owners(&u.output);
                m.push((owners, u.asset_id, x_amount(&u.output), what));
            }
        }
    }
    let order = txs
        .iter()
        .map(|(id, t)| (*id, x_type(&t.unsigned)))
        .collect();
    XReplay { order, moves }
}

/// What `addrs` must get from `moves`, per tx in
/// `order`, leaving out the txs that touch none of them.
fn expected(
    order: &[(Id, &'static str)],
    moves: &TxMoves,
    addrs: &BTreeSet<ShortId>,
) -> Vec<(Id, Moves)> {
    let mut out = Vec::new();
    for (tx, _) in order {
        let mut mv = Moves::new();
        for (owners, asset, amount, what) in moves.get(tx).into_iter().flatten() {
            for a in owners.iter().filter(|a| addrs.contains(a)) {
                let m = mv.entry((*a, *asset)).or_default();
                let n = u128::from(*amount);
                match *what {
                    "consumed" => m.consumed += n,
                    "produced" => m.produced += n,
                    _ => m.exported += n,
                }
            }
        }
        if !mv.is_empty() {
            out.push((*tx, mv));
        }
    }
    out
}

/// The C-Chain's atomic txs with X's and P's atomic memory (`common::cmodel`, read from the
/// container bytes): each tx in chain order (block number, then its place in the block) with
/// its type, and what it moved: an `ExportTx` exports UTXOs to their owners, an `ImportTx`
/// consumes the ones it takes (coreth `plugin/evm/atomic/{export,import}_tx.go`); its EVM
/// inputs and outputs are EVM accounts, no Primary Network address.
fn c_replay(cm: &CModel, records: &[ContainerRecord]) -> (Vec<(Id, &'static str)>, TxMoves) {
    let net = NetworkInfo::LOCAL;
    let mut order = Vec::new();
    for r in records.iter().filter(|r| r.path == IndexPath::CBlock) {
        let b = coreth::AtomicBlock::from_container(&r.bytes, net.network_id).unwrap();
        for t in &b.txs {
            let kind = if cm.txs[&t.id].export {
                "ExportTx"
            } else {
                "ImportTx"
            };
            order.push((t.id, kind));
        }
    }
    let mut moves: BTreeMap<Id, Vec<_>> = BTreeMap::new();
    for u in cm.utxos.values() {
        let v = |what| (u.out.owners.addrs.clone(), u.asset, u.out.amount, what);
        if u.created_on == net.c_chain_id {
            moves.entry(u.created.tx).or_default().push(v("exported"));
        }
        if let (true, Some(ev)) = (u.consumed_on == net.c_chain_id, u.consumed) {
            moves.entry(ev.tx).or_default().push(v("consumed"));
        }
    }
    (order, moves)
}

/// The two addresses that take part in the most of `moves`' txs.
fn busiest(moves: &TxMoves) -> Vec<ShortId> {
    let mut count: BTreeMap<ShortId, usize> = BTreeMap::new();
    for m in moves.values() {
        let owners: BTreeSet<ShortId> = m.iter().flat_map(|(o, ..)| o.iter().copied()).collect();
        for a in owners {
            *count.entry(a).or_default() += 1;
        }
    }
    let mut ranked: Vec<(usize, ShortId)> = count.into_iter().map(|(a, n)| (n, a)).collect();
    ranked.sort();
    ranked.iter().rev().take(2).map(|(_, a)| *a).collect()
}

/// `got`'s `balance_change` events merged per tx (a late part added to its tx), each checked to
/// be of chain `chain`; and the txs of the events that are not late, in the order received,
/// with their `txType`.
fn merged(
    got: &[Value],
    chain: &Id,
    watched: &[ShortId],
) -> (BTreeMap<Id, Moves>, Vec<(Id, String)>) {
    let text = |a: &ShortId| snowline_types::address::format_bech32("local", a).unwrap();
    let mut merged: BTreeMap<Id, Moves> = BTreeMap::new();
    let mut in_order = Vec::new();
    for e in got {
        assert_eq!(e["chainId"], chain.to_string(), "{e}");
        assert_eq!(e["subEventType"], "balance_change", "{e}");
        let tx: Id = e["txHash"].as_str().unwrap().parse().unwrap();
        if e.get("late").is_none() {
            in_order.push((tx, e["txType"].as_str().unwrap_or_default().to_owned()));
        } else {
            assert_eq!(e["txType"], "ImportTx", "{e}");
        }
        let moves = merged.entry(tx).or_default();
        for c in e["balanceChanges"].as_array().unwrap() {
            let a = watched
                .iter()
                .find(|a| text(a) == c["address"].as_str().unwrap())
                .unwrap();
            let asset: Id = c["assetId"].as_str().unwrap().parse().unwrap();
            let n = |f: &str| c[f].as_str().unwrap().parse::<u128>().unwrap();
            let m = moves.entry((*a, asset)).or_default();
            m.consumed += n("consumed");
            m.produced += n("produced");
            m.staked += n("staked");
            m.exported += n("exported");
        }
    }
    (merged, in_order)
}

/// A devnet with what the X- and C-Chain webhooks on its busiest addresses must get.
struct XcWorld {
    records: Vec<ContainerRecord>,
    /// An X-Chain address, a threshold (the middle of the values its balance takes) and its
    /// crossings from the genesis on.
    threshold: (ShortId, u128, Vec<Crossing>),
    /// Every X- and C-Chain tx's type.
    types: BTreeMap<Id, &'static str>,
    /// Per chain (X, then C): the watched addresses and what they must get.
    chains: [Watched; 2],
    /// Each C-Chain atomic tx's block: its number and EVM hash (keccak-256 of the header RLP).
    c_blocks: BTreeMap<Id, (u64, [u8; 32])>,
}

/// A chain, its addresses' prefix, the addresses watched and what they must get, per tx in
/// chain order.
type Watched = (Id, &'static str, Vec<ShortId>, Vec<(Id, Moves)>);

fn xc_world(seed: u64) -> XcWorld {
    let net = NetworkInfo::LOCAL;
    let (mut devnet, genesis) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let pm = PModel::replay(&devnet, &records);
    let cm = CModel::replay(&devnet, &records, &pm);
    let xr = x_replay(&genesis, &records);
    let (c_order, c_moves) = c_replay(&cm, &records);
    let x_watched = busiest(&xr.moves);
    let c_watched = busiest(&c_moves);
    let x_want = expected(&xr.order, &xr.moves, &x_watched.iter().copied().collect());
    let c_want = expected(&c_order, &c_moves, &c_watched.iter().copied().collect());
    assert!(
        x_want.len() > 2 && c_want.len() > 1,
        "{x_want:?} {c_want:?}"
    );
    // Both directions of the C-Chain's atomic txs are there.
    for kind in ["ImportTx", "ExportTx"] {
        assert!(
            c_want.iter().any(|(tx, _)| c_order.contains(&(*tx, kind))),
            "no C-Chain {kind}"
        );
    }
    let types = xr.order.iter().chain(&c_order).copied().collect();
    let (first, series) = x_unlocked_series(&genesis, &records, &x_watched[0]);
    let mut values: Vec<u128> = series.iter().map(|(_, b)| *b).collect();
    let changes = values.clone();
    values.sort();
    let threshold = values[values.len() / 2];
    let crossed = crossings(first, &changes, threshold);
    assert!(crossed.len() >= 2, "{crossed:?}");
    let c_blocks = cm
        .txs
        .iter()
        .map(|(id, t)| (*id, (t.number, t.hash)))
        .collect();
    XcWorld {
        c_blocks,
        threshold: (x_watched[0], threshold, crossed),
        records,
        types,
        chains: [
            (net.x_chain_id, "X", x_watched, x_want),
            (net.c_chain_id, "C", c_watched, c_want),
        ],
    }
}

/// The `balance_change` webhooks of `w` delivering to `receivers`.
fn xc_bodies(w: &XcWorld, receivers: [&Receiver; 2]) -> Vec<Value> {
    w.chains
        .iter()
        .zip(receivers)
        .map(|((chain, alias, addrs, _), r)| {
            json!({"eventType": "primary_network_address_activity", "url": r.url(),
                   "network": "local", "chainId": chain.to_string(),
                   "metadata": {"keyType": "addresses", "keys": local_addrs(alias, addrs),
                                "subEvents": {"addressActivitySubEvents": ["balance_change"]}}})
        })
        .collect()
}

/// The events `r` received for webhook `hook` once each: every delivery signed with `secret`,
/// of the webhook; a `messageId` delivered again (a delivery whose answer a kill lost) with the
/// same body.
fn distinct_events(r: &Receiver, hook: &Value, secret: &str) -> Vec<Value> {
    let mut bodies: BTreeMap<String, String> = BTreeMap::new();
    let mut out = Vec::new();
    for d in r.all() {
        assert_eq!(
            d.headers["x-signature"],
            hmac_hex(secret, d.body.as_bytes())
        );
        let v: Value = serde_json::from_str(&d.body).unwrap();
        assert_eq!(v["webhookId"], hook["id"]);
        let id = v["messageId"].as_str().unwrap().to_owned();
        match bodies.get(&id) {
            Some(b) => assert_eq!(*b, d.body, "a messageId with another body"),
            None => {
                bodies.insert(id, d.body.clone());
                out.push(v["event"].clone());
            }
        }
    }
    out
}

/// Checks what the X- and C-Chain webhooks `hooks` got through `receivers` (read by `read`)
/// against `w`: merged per tx, exactly the replays' moves; in chain order, each tx once (late
/// parts aside), with its type.
fn xc_check(
    w: &XcWorld,
    receivers: [&Receiver; 2],
    hooks: &[Value],
    read: impl Fn(&Receiver, &Value) -> Vec<Value>,
) {
    for (((chain, _, watched, want), r), hook) in w.chains.iter().zip(receivers).zip(hooks) {
        let wanted: BTreeMap<Id, Moves> = want.iter().cloned().collect();
        r.wait(120, |r| merged(&read(r, hook), chain, watched).0 == wanted);
        let got = read(r, hook);
        let (moves, in_order) = merged(&got, chain, watched);
        assert_eq!(moves, wanted, "every tx of {chain}, nothing else");
        let late = got.iter().filter(|e| e.get("late").is_some()).count();
        eprintln!(
            "{chain}: {} txs, {} events, {late} late parts",
            wanted.len(),
            got.len()
        );
        let order: Vec<(Id, String)> = want
            .iter()
            .map(|(tx, _)| (*tx, w.types[tx].to_owned()))
            .filter(|k| in_order.contains(k))
            .collect();
        assert_eq!(in_order, order, "in chain order, once each");
        if *chain == NetworkInfo::LOCAL.c_chain_id {
            // Glacier's C-Chain atomic txs give the EVM block's hash, `0x` and 64 hex digits
            // (glacier-data-api.json, `CChainExportTransaction.blockHash`, example
            // "0x57a5cb77…"), not the container's CB58 id; the model reads it from the header.
            for e in got.iter().filter(|e| e.get("late").is_none()) {
                let tx: Id = e["txHash"].as_str().unwrap().parse().unwrap();
                let (number, hash) = w.c_blocks[&tx];
                assert_eq!(e["blockNumber"], number.to_string(), "{e}");
                assert_eq!(e["blockHash"], format!("0x{}", hex::encode(hash)), "{e}");
            }
        }
    }
}

#[test]
fn x_and_c_chain_address_activity_reports_each_balance_change_once_in_order() {
    let seed = 2;
    let w = xc_world(seed);
    let up = upstream::start(seed, 0);
    assert!(w.records == up.records, "the upstream serves this devnet");
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let receivers = [&Receiver::start(), &Receiver::start()];
    let hooks = create_all(&data, &key, &xc_bodies(&w, receivers));
    for (hook, (chain, ..)) in hooks.iter().zip(&w.chains) {
        assert_eq!(hook["chainId"], chain.to_string());
    }
    let (_api, secret) = follow_until(&data, &up, seed, &key, &[]);
    // Each messageId once and every signature verified (`events`).
    let kind = "primary_network_address_activity";
    xc_check(&w, receivers, &hooks, |r, h| events(r, h, kind, &secret));
}

#[test]
fn x_and_c_chain_address_activity_survives_kill_9_mid_ingest() {
    let seed = 2;
    let w = xc_world(seed);
    let n = w.records.len();
    let up = upstream::start_partial(seed, 0, n / 3);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let receivers = [&Receiver::start(), &Receiver::start()];
    let rt = Receiver::start();
    let (addr, threshold, crossed) = &w.threshold;
    let mut bodies = xc_bodies(&w, receivers);
    bodies.push(
        json!({"eventType": "primary_network_address_activity", "url": rt.url(),
        "network": "local", "chainId": NetworkInfo::LOCAL.x_chain_id.to_string(),
        "metadata": {"keyType": "addresses", "keys": local_addrs("X", &[*addr]),
            "subEvents": {"addressActivitySubEvents": ["balance_threshold"]},
            "balanceThresholdFilter": {"balanceType": "unlocked",
                                       "balanceThreshold": threshold.to_string()}}}),
    );
    let hooks = create_all(&data, &key, &bodies);
    let delivered = || receivers.iter().map(|r| r.all().len()).sum::<usize>();
    // Twice: follow, append the next third of the chain, and kill -9 the server as soon as a
    // delivery arrives after the append (the batches of the new containers being derived,
    // written or delivered).
    let mut held = n / 3;
    for next in [2 * n / 3, n] {
        let api = follow_with(&data, &up, seed, 120, &FLAGS);
        let before = delivered();
        upstream::append(&up.store, &w.records[held..next]);
        assert!(receivers[0].wait(120, |_| delivered() > before));
        drop(api);
        held = next;
    }
    let api = follow_with(&data, &up, seed, 120, &FLAGS);
    let secret = call(
        &api,
        &key,
        "GET",
        "/v1/webhooks:getSharedSecret",
        &Value::Null,
    )
    .json()["secret"]
        .as_str()
        .unwrap()
        .to_owned();
    // Nothing lost, nothing invented: the same events as without the kills, each messageId
    // with one body; the balance a threshold watches, read again from the rows at each restart,
    // crosses it exactly as the replay says.
    xc_check(&w, receivers, &hooks, |r, h| distinct_events(r, h, &secret));
    let seen = |r: &Receiver| -> Vec<Crossing> {
        distinct_events(r, &hooks[2], &secret)
            .iter()
            .map(|e| {
                let n = |f: &str| e[f].as_str().unwrap().parse::<u128>().unwrap();
                let way = e["crossed"].as_str().unwrap().to_owned();
                (n("previousBalance"), n("balance"), way)
            })
            .collect()
    };
    rt.wait(120, |r| seen(r).len() >= crossed.len());
    assert_eq!(&seen(&rt), crossed);
}

/// The primary network's start in avalanchego `genesis/genesis_local.json` (`startTime`): when
/// the X-Chain's genesis UTXOs were created.
const GENESIS_START: u64 = 1_599_696_000;

/// `addr`'s `unlocked` X-Chain balance after the genesis, and after each X-Chain container that
/// changed it (with the container's place in `records`), replayed from the container bytes with the types crate's
/// parsers: the AVAX of the unspent UTXOs the X-Chain's txs (genesis included) created that it
/// owns, alone or with others, unlocked when created (a locktime not after the creating tx's
/// container time); imports and exports (atomic memory) are not counted. Each tx counts once,
/// in the first container that holds it.
fn x_unlocked_series(
    genesis: &avm::XGenesisState,
    records: &[ContainerRecord],
    addr: &ShortId,
) -> (u128, Vec<(usize, u128)>) {
    let avax = NetworkInfo::LOCAL.avax_asset_id;
    // Each native UTXO's count for `addr`: 0 when it is not its own, AVAX, unlocked.
    let mut native: BTreeMap<Id, u128> = BTreeMap::new();
    let count = |u: &avm::Utxo, ts: u64| {
        let avm::Output::Secp256k1Transfer(o) = &u.output else {
            return 0;
        };
        let own = o.owners.addrs.contains(addr) && u.asset_id == avax;
        if own && o.owners.locktime <= ts {
            u128::from(o.amount)
        } else {
            0
        }
    };
    let mut balance = 0u128;
    for t in &genesis.txs {
        for u in produced_utxos(&t.tx, &t.id) {
            let n = count(&u, GENESIS_START);
            balance += n;
            native.insert(u.id(), n);
        }
    }
    let first = balance;
    let mut seen = BTreeSet::new();
    let mut series = Vec::new();
    for (at, r) in records.iter().enumerate() {
        let ts = u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap();
        let txs: Vec<(Id, avm::Tx)> = match r.path {
            IndexPath::XTx => {
                let t = avm::Tx::parse(&r.bytes).unwrap();
                vec![(t.id, t.tx)]
            }
            IndexPath::XVtx => Vertex::parse(&r.bytes)
                .unwrap()
                .vertex
                .txs
                .iter()
                .map(|raw| {
                    let t = avm::Tx::parse(raw).unwrap();
                    (t.id, t.tx)
                })
                .collect(),
            IndexPath::XBlock => x_block_txs(r),
            _ => continue,
        };
        let before = balance;
        for (id, tx) in txs.iter().filter(|(id, _)| seen.insert(*id)) {
            for i in tx.unsigned.input_utxos() {
                balance -= native.remove(&i.id()).unwrap_or(0);
            }
            for u in produced_utxos(tx, id) {
                let n = count(&u, ts);
                balance += n;
                native.insert(u.id(), n);
            }
        }
        if balance != before {
            series.push((at, balance));
        }
    }
    (first, series)
}

/// The txs of an `X/block` container, with their ids.
fn x_block_txs(r: &ContainerRecord) -> Vec<(Id, avm::Tx)> {
    let outer = proposervm::Block::decode(&r.bytes).unwrap();
    let b = avm::StandardBlock::parse_vec(outer.into_inner()).unwrap();
    b.tx_ids.iter().copied().zip(b.block.txs).collect()
}

/// A threshold crossed: the balance before and after, `above` or `below`.
type Crossing = (u128, u128, String);

/// The crossings of `threshold` by a balance going from `first` through `series`.
fn crossings(first: u128, series: &[u128], threshold: u128) -> Vec<Crossing> {
    let mut out = Vec::new();
    let mut before = first;
    for b in series {
        match (before >= threshold, *b >= threshold) {
            (false, true) => out.push((before, *b, "above".to_owned())),
            (true, false) => out.push((before, *b, "below".to_owned())),
            _ => {}
        }
        before = *b;
    }
    out
}

#[test]
fn balance_threshold_reports_each_crossing_of_an_x_chain_balance_once_in_order() {
    let seed = 2;
    let net = NetworkInfo::LOCAL;
    let (mut devnet, genesis) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    // The webhook is made once the index holds the X-Chain's containers up to a cut (past the
    // DAG's, which come on their own paths), so that the balance it starts from is read from
    // the index's rows; the cut, the address and the threshold (the middle of the values the
    // balance takes after the cut) are chosen for a balance above 0 at the cut and the most
    // crossings after it.
    let dag_end = records
        .iter()
        .rposition(|r| matches!(r.path, IndexPath::XTx | IndexPath::XVtx))
        .map_or(0, |i| i + 1);
    let xr = x_replay(&genesis, &records);
    let mut best: Option<(usize, ShortId, u128, Vec<Crossing>)> = None;
    for a in busiest(&xr.moves) {
        let (_, series) = x_unlocked_series(&genesis, &records, &a);
        for (i, (at, balance)) in series.iter().enumerate() {
            let rest: Vec<u128> = series[i + 1..].iter().map(|(_, b)| *b).collect();
            if *at < dag_end || *balance == 0 || rest.len() < 2 {
                continue;
            }
            let mut values = rest.clone();
            values.sort();
            let threshold = values[values.len() / 2];
            let want = crossings(*balance, &rest, threshold);
            if best.as_ref().is_none_or(|b| want.len() > b.3.len()) {
                best = Some((*at + 1, a, threshold, want));
            }
        }
    }
    let (cut, addr, threshold, want) = best.unwrap();
    assert!(want.len() >= 2, "{want:?}");
    eprintln!(
        "cut at {cut} of {}: {} crossings",
        records.len(),
        want.len()
    );

    let up = upstream::start_partial(seed, 0, cut);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let r = Receiver::start();
    let metadata = json!({"keyType": "addresses", "keys": local_addrs("X", &[addr]),
        "subEvents": {"addressActivitySubEvents": ["balance_threshold"]},
        "balanceThresholdFilter": {"balanceType": "unlocked",
                                   "balanceThreshold": threshold.to_string()}});
    let body = |chain: &Id, metadata: &Value| {
        json!({"eventType": "primary_network_address_activity", "url": r.url(),
               "network": "local", "chainId": chain.to_string(), "metadata": metadata})
    };
    let api = follow_with(&data, &up, seed, 120, &FLAGS);
    // The X-Chain's containers before the cut are all indexed once the last block's txs are.
    let last = records[..cut]
        .iter()
        .rev()
        .find(|r| r.path == IndexPath::XBlock)
        .map(x_block_txs)
        .unwrap();
    let path = format!(
        "/v1/networks/local/blockchains/x-chain/transactions/{}",
        last.last().unwrap().0
    );
    assert!(api.wait_until(120, |a| a.get(&path).status == 200));
    // The C-Chain keeps no balance of its own; the OpenAPI's other balance types are not
    // derived; the filter is required.
    let mut locked = metadata.clone();
    locked["balanceThresholdFilter"]["balanceType"] = json!("lockedStaked");
    let mut bare = metadata.clone();
    bare.as_object_mut()
        .unwrap()
        .remove("balanceThresholdFilter");
    for (bad, field) in [
        (body(&net.c_chain_id, &metadata), "C-Chain"),
        (body(&net.x_chain_id, &locked), "balanceType"),
        (body(&net.x_chain_id, &bare), "balanceThresholdFilter"),
    ] {
        let resp = call(&api, &key, "POST", "/v1/webhooks", &bad);
        let message = resp.error(400, "Bad Request");
        assert!(message.contains(field), "{field}: {message}");
    }
    let resp = call(
        &api,
        &key,
        "POST",
        "/v1/webhooks",
        &body(&net.x_chain_id, &metadata),
    );
    assert_eq!(resp.status, 201, "{}", resp.body);
    let hook = resp.json();
    assert_eq!(
        hook["metadata"]["balanceThresholdFilter"],
        metadata["balanceThresholdFilter"]
    );
    let secret = call(
        &api,
        &key,
        "GET",
        "/v1/webhooks:getSharedSecret",
        &Value::Null,
    )
    .json()["secret"]
        .as_str()
        .unwrap()
        .to_owned();
    upstream::append(&up.store, &records[cut..]);
    let kind = "primary_network_address_activity";
    let seen = |got: &[Value]| -> Vec<Crossing> {
        got.iter()
            .map(|e| {
                assert_eq!(e["subEventType"], "balance_threshold", "{e}");
                assert_eq!(e["chainId"], net.x_chain_id.to_string(), "{e}");
                assert_eq!(e["assetId"], net.avax_asset_id.to_string(), "{e}");
                assert_eq!(e["balanceThreshold"], threshold.to_string(), "{e}");
                let n = |f: &str| e[f].as_str().unwrap().parse::<u128>().unwrap();
                (
                    n("previousBalance"),
                    n("balance"),
                    e["crossed"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    r.wait(120, |r| {
        seen(&events(r, &hook, kind, &secret)).len() >= want.len()
    });
    // Each crossing once, in order, signed, each messageId once (`events`).
    assert_eq!(seen(&events(&r, &hook, kind, &secret)), want);
}

/// `addr`'s `unlocked` P-Chain balance after the genesis and after each P-Chain block that
/// changed it, from `common::pmodel`'s replay: the AVAX of the UTXOs the P-Chain created
/// (genesis outputs, tx outputs, stakes, rewards; not its exports) that it owns, alone or with
/// others, not yet consumed, unlocked when created (no locktime, nor stakeable lock, after the
/// creating tx's time; avalanchego `vms/platformvm/stakeable`).
fn p_unlocked_series(m: &PModel, addr: &ShortId) -> (u128, Vec<u128>) {
    let avax = NetworkInfo::LOCAL.avax_asset_id;
    let counted: Vec<&common::pmodel::MUtxo> = m
        .utxos
        .values()
        .filter(|u| u.kind != Kind::Exported && u.asset == avax)
        .filter(|u| u.owners().addrs.contains(addr))
        .filter(|u| {
            let ts = u.created.ts;
            u.owners().locktime <= ts && u.out.stakeable_locktime() <= ts
        })
        .collect();
    let at = |h: u64| -> u128 {
        counted
            .iter()
            .filter(|u| u.created.height <= h && u.consumed.is_none_or(|c| c.height > h))
            .map(|u| u128::from(u.amount()))
            .sum()
    };
    let first = at(0);
    let mut series = Vec::new();
    let mut last = first;
    for b in m.blocks.iter().filter(|b| b.height > 0) {
        let now = at(b.height);
        if now != last {
            series.push(now);
            last = now;
        }
    }
    (first, series)
}

#[test]
fn balance_threshold_reports_each_crossing_of_a_p_chain_balance_once_in_order() {
    let seed = 2;
    let net = NetworkInfo::LOCAL;
    let (up, _records, m) = world(seed);
    // Of the addresses the P-Chain's UTXOs belong to, the one with the most crossings of the
    // middle of the values its balance takes, preferring one the genesis funds (its starting
    // balance then read from the index's rows).
    let owners: BTreeSet<ShortId> = m
        .utxos
        .values()
        .flat_map(|u| u.owners().addrs.iter().copied())
        .collect();
    let (addr, first, threshold, want) = owners
        .iter()
        .filter_map(|a| {
            let (first, series) = p_unlocked_series(&m, a);
            let mut values = series.clone();
            values.sort();
            let threshold = *values.get(values.len() / 2)?;
            Some((*a, first, threshold, crossings(first, &series, threshold)))
        })
        .max_by_key(|(_, first, _, want)| (*first > 0, want.len()))
        .unwrap();
    assert!(want.len() >= 2, "{want:?}");
    eprintln!("from {first}: {} crossings of {threshold}", want.len());

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let r = Receiver::start();
    let body = json!({"eventType": "primary_network_address_activity", "url": r.url(),
        "network": "local", "chainId": net.p_chain_id.to_string(),
        "metadata": {"keyType": "addresses", "keys": local_addrs("P", &[addr]),
            "subEvents": {"addressActivitySubEvents": ["balance_threshold"]},
            "balanceThresholdFilter": {"balanceType": "unlocked",
                                       "balanceThreshold": threshold.to_string()}}});
    let hooks = create_all(&data, &key, &[body]);
    let (_api, secret) = follow_until(&data, &up, seed, &key, &[(&r, want.len())]);
    let kind = "primary_network_address_activity";
    let seen = |r: &Receiver| -> Vec<Crossing> {
        events(r, &hooks[0], kind, &secret)
            .iter()
            .map(|e| {
                assert_eq!(e["chainId"], net.p_chain_id.to_string(), "{e}");
                let n = |f: &str| e[f].as_str().unwrap().parse::<u128>().unwrap();
                let way = e["crossed"].as_str().unwrap().to_owned();
                (n("previousBalance"), n("balance"), way)
            })
            .collect()
    };
    r.wait(120, |r| seen(r).len() >= want.len());
    // Each crossing once, in chain order, signed, each messageId once (`events`).
    assert_eq!(seen(&r), want);
}
