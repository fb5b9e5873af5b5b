//! Primary Network webhooks end to end: the real `data-api` on port 0 following a devnet's
//! P-Chain from a node-shaped upstream, receivers in the test on loopback. What each webhook must
//! receive is read from the devnet by `common::pmodel`, an independent replay of the P-Chain by
//! avalanchego's rules (never `snowline_chain_p`), and from the blocks' txs here; each delivery's
//! `x-signature` is checked with `hmac`/`sha2` as a receiver would; the event stream
//! (`GET /v1/webhooks/{id}/events`) is read as an `EventSource` would and compared with what
//! the receivers got.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::pmodel::{Ev, Kind, PModel, RewardKind, addressed_payload};
use common::receiver::Receiver;
use common::{DataApi, create_key, follow_with, local_addrs, request, start, upstream};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{Block, UnsignedTx, parse_block};
use snowline_types::warp::L1Message;
use snowline_types::{Id, NodeId, ShortId};

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
        // Refused with the reason: a chain not derived yet, a sub-event not derived yet, a key
        // of another network, a key type other than the OpenAPI's.
        let mainnet = snowline_types::address::format_bech32("avax", &watched[0]).unwrap();
        for (bad, field) in [
            (
                body(&net.x_chain_id.to_string(), metadata(&["balance_change"])),
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
