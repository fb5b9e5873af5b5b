//! Webhooks end to end: the real `data-api` on port 0 indexing the recorded devnet C-Chain from a
//! replay server, receivers in the test on loopback. What a webhook must receive is read from the
//! recording's JSON by hand (`RecordingModel`: each tx with its receipt, logs and call tree, the
//! transfer logs decoded from their EIP-20/721/1155 event signatures), never from the indexer's
//! code; each delivery's signatures are checked with `hmac`/`sha2` as a receiver would.
//! `validator_activity` webhooks follow a devnet's P-Chain served as a node would serve it;
//! what they must receive is read from the devnet's blocks by the test itself.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::receiver::{Delivery, Receiver};
use common::{DataApi, create_key, follow_with, request, start, upstream};
use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use snowline_evm_devnet::model::{RecordingModel, addr, hash, listed_frames, log_transfers};
use snowline_evm_devnet::{C_CHAIN_ID, recording_path};
use snowline_types::container::IndexPath;
use snowline_types::evm::Address;
use snowline_types::platformvm::{Block, UnsignedTx, parse_block};
use snowline_types::{Id, NodeId};

/// One event a webhook must receive: the tx, its block, its sender, its listed internal txs,
/// its logs as the OpenAPI's `Log` objects (all of them, but those without topics, which have
/// no `topic0`) and their first topics.
#[derive(Debug)]
struct Expected {
    tx: String,
    block: u64,
    from: Address,
    internals: usize,
    logs: Vec<Value>,
    topics0: Vec<String>,
}

/// The ERC-20 `Transfer(address,indexed address,uint256)` event's topic 0, as EIP-20
/// (eips.ethereum.org/EIPS/eip-20) and every ERC-20 contract emit it.
const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/// A receipt's log as the OpenAPI's `Log`, read from the recorded JSON.
fn log_object(log: &Value, tx_index: usize) -> Value {
    let mut x = serde_json::Map::new();
    x.insert(
        "address".into(),
        json!(addr(&log["address"]).to_checksum(None)),
    );
    for (i, t) in log["topics"].as_array().unwrap().iter().enumerate() {
        x.insert(
            format!("topic{i}"),
            json!(t.as_str().unwrap().to_lowercase()),
        );
    }
    x.insert(
        "data".into(),
        json!(log["data"].as_str().unwrap().to_lowercase()),
    );
    x.insert("transactionIndex".into(), json!(tx_index));
    let index = log["logIndex"].as_str().unwrap().trim_start_matches("0x");
    x.insert(
        "logIndex".into(),
        json!(u64::from_str_radix(index, 16).unwrap()),
    );
    x.insert("removed".into(), json!(false));
    Value::Object(x)
}

/// The txs of the recording that touch `watched`, in chain order: a tx touches an address that
/// is its sender, recipient or created contract, a log's emitter, an end of a token transfer
/// its logs record, or an end of a listed frame of its call tree.
fn expected(m: &RecordingModel, watched: &BTreeSet<Address>) -> Vec<Expected> {
    let mut out = Vec::new();
    for b in &m.blocks {
        for (i, tx) in b.block["transactions"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let r = &b.receipts[i];
            let mut touched = BTreeSet::new();
            touched.insert(addr(&tx["from"]));
            for a in [&tx["to"], &r["contractAddress"]] {
                if a.is_string() {
                    touched.insert(addr(a));
                }
            }
            for log in r["logs"].as_array().into_iter().flatten() {
                touched.insert(addr(&log["address"]));
                for t in log_transfers(log, b.number) {
                    touched.insert(t.from);
                    touched.insert(t.to);
                }
            }
            let frames = if b.traces.is_null() {
                Vec::new()
            } else {
                let at = (b.number, i as u64, hash(&tx["hash"]));
                listed_frames(&b.traces[i]["result"], at)
            };
            for f in &frames {
                touched.insert(f.from);
                touched.extend(f.to);
            }
            if touched.iter().any(|a| watched.contains(a)) {
                let logs: Vec<&Value> = r["logs"].as_array().into_iter().flatten().collect();
                let with_topics = logs.iter().filter(|l| l["topics"][0].is_string());
                out.push(Expected {
                    tx: tx["hash"].as_str().unwrap().to_owned(),
                    block: b.number,
                    from: addr(&tx["from"]),
                    internals: frames.len(),
                    logs: with_topics.clone().map(|l| log_object(l, i)).collect(),
                    topics0: with_topics
                        .map(|l| l["topics"][0].as_str().unwrap().to_lowercase())
                        .collect(),
                });
            }
        }
    }
    out
}

/// Two addresses the recording's txs touch in different ways: the recipient of its first token
/// transfer and the callee of its first internal call.
fn watched(m: &RecordingModel) -> BTreeSet<Address> {
    let first_transfer = m.transfers()[0].to;
    let first_internal = m
        .frames()
        .into_iter()
        .find(|f| f.depth > 0 && f.to.is_some())
        .and_then(|f| f.to)
        .unwrap();
    [first_transfer, first_internal].into_iter().collect()
}

fn hmac_hex(secret: &str, data: &[u8]) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    m.update(data);
    hex::encode(m.finalize().into_bytes())
}

/// Asserts `got` are exactly the `want` events of webhook `id`, in order, each once, signed
/// with `secret`, listing the internal txs and the logs only if asked.
fn check(got: &[Delivery], want: &[Expected], id: &str, secret: &str, internals: bool) {
    check_logs(got, want, id, secret, internals, false);
}

fn check_logs(
    got: &[Delivery],
    want: &[Expected],
    id: &str,
    secret: &str,
    internals: bool,
    logs: bool,
) {
    let txs: Vec<&str> = got
        .iter()
        .map(|d| serde_json::from_str::<Value>(&d.body).unwrap())
        .map(|v| {
            v["event"]["transaction"]["txHash"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .map(|s| &*Box::leak(s.into_boxed_str()))
        .collect();
    let want_txs: Vec<&str> = want.iter().map(|e| e.tx.as_str()).collect();
    assert_eq!(txs, want_txs, "webhook {id}: the txs, in order, each once");
    let mut messages = BTreeSet::new();
    for (d, e) in got.iter().zip(want) {
        let v: Value = serde_json::from_str(&d.body).unwrap();
        assert_eq!(v["webhookId"], id);
        assert_eq!(v["eventType"], "address_activity");
        assert!(messages.insert(v["messageId"].as_str().unwrap().to_owned()));
        let t = &v["event"]["transaction"];
        assert_eq!(t["blockNumber"], e.block.to_string(), "{t}");
        assert_eq!(t["from"], e.from.to_checksum(None), "{t}");
        assert_eq!(t["chainId"], C_CHAIN_ID.to_string());
        match t.get("internalTransactions") {
            Some(list) => {
                assert!(internals, "{t}");
                assert_eq!(list.as_array().unwrap().len(), e.internals, "{t}");
            }
            None => assert!(!internals, "{t}"),
        }
        assert!(t.as_object().unwrap().values().all(|x| !x.is_null()), "{t}");
        match v["event"].get("logs") {
            Some(list) => {
                assert!(logs, "{v}");
                assert_eq!(list.as_array().unwrap(), &e.logs, "{}", e.tx);
            }
            None => assert!(!logs, "{v}"),
        }
        // Glacier's signature over the body, and ours over `TIMESTAMP.BODY`.
        assert_eq!(
            d.headers["x-signature"],
            hmac_hex(secret, d.body.as_bytes())
        );
        let ts = &d.headers["x-snowline-timestamp"];
        assert_eq!(
            d.headers["x-snowline-signature"],
            format!(
                "v1={}",
                hmac_hex(secret, format!("{ts}.{}", d.body).as_bytes())
            )
        );
        let age = common::now_secs().abs_diff(ts.parse::<u64>().unwrap());
        assert!(age < 600, "timestamp {ts}");
    }
}

/// The flags of every start but the first: loopback receivers allowed, retries quick.
const ALLOW: [&str; 6] = [
    "--network",
    "local",
    "--no-rate-limits",
    "--webhook-allow-private",
    "127.0.0.0/8,::1",
    "--webhook-retries",
];
const RETRIES: &str = "20ms,40ms,80ms,160ms,320ms";

fn start_allowing(data: &std::path::Path, more: &[&str]) -> DataApi {
    let mut args: Vec<&str> = ALLOW.to_vec();
    args.push(RETRIES);
    args.extend_from_slice(more);
    start(data, &args)
}

/// The sources file of the recorded C-Chain (its genesis funds the accounts the recording reads
/// at block 0), served from `url`; its path.
fn sources(dir: &std::path::Path, url: &str) -> String {
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let genesis: Vec<&str> = m
        .lines
        .iter()
        .filter(|l| l["method"] == "eth_getBalance" && l["params"][1] == "0x0")
        .map(|l| l["params"][0].as_str().unwrap())
        .collect();
    let config = json!({"chains": [
        {"chainId": C_CHAIN_ID, "rpcUrl": url, "genesisAccounts": genesis},
    ]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

fn call(api: &DataApi, key: &str, method: &str, path: &str, body: &Value) -> common::Response {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    request(&api.addr, method, path, &[("x-data-api-key", key)], &body)
}

fn create(
    api: &DataApi,
    key: &str,
    url: &str,
    watched: &BTreeSet<Address>,
    internals: bool,
) -> Value {
    let addresses: Vec<String> = watched.iter().map(|a| a.to_checksum(None)).collect();
    let body = json!({
        "eventType": "address_activity", "url": url, "chainId": C_CHAIN_ID.to_string(),
        "name": "watch", "metadata": {"addresses": addresses},
        "includeInternalTxs": internals,
    });
    let r = call(api, key, "POST", "/v1/webhooks", &body);
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

#[test]
fn webhooks_get_every_event_of_the_recorded_chain_once_in_order_signed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key_a) = create_key(&data, "a", "org-a", "free");
    let (_, key_b) = create_key(&data, "b", "org-b", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    assert!(want.len() >= 3, "{want:?}");
    let good = Receiver::start();
    let flaky = Receiver::start();
    flaky.fail_next(3);
    let off = Receiver::start();

    // Without the operator's allowance, a receiver on loopback is refused, by address and by name.
    {
        let api = start(&data, &["--network", "local", "--no-rate-limits"]);
        let port = good.addr.rsplit(':').next().unwrap();
        for url in [good.url(), format!("http://localhost:{port}/hook")] {
            let body = json!({"eventType": "address_activity", "url": url, "chainId": "43112",
                              "metadata": {"addresses": []}});
            let r = call(&api, &key_a, "POST", "/v1/webhooks", &body);
            let message = r.error(400, "Bad Request");
            assert!(message.contains("--webhook-allow-private"), "{message}");
        }
    }

    // With it, the webhooks are made before the chain is indexed; another organisation sees
    // none of them.
    let (a, b) = {
        let api = start_allowing(&data, &[]);
        let a = create(&api, &key_a, &good.url(), &watch, true);
        let b = create(&api, &key_a, &flaky.url(), &watch, false);
        // A deactivated webhook queues and sends nothing.
        let c = create(&api, &key_a, &off.url(), &watch, false);
        let path = format!("/v1/webhooks/{}", c["id"].as_str().unwrap());
        let r = call(&api, &key_a, "DELETE", &path, &Value::Null);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["status"], "inactive");
        let id = a["id"].as_str().unwrap();
        assert_eq!(
            call(
                &api,
                &key_a,
                "GET",
                &format!("/v1/webhooks/{id}"),
                &Value::Null
            )
            .json(),
            a
        );
        for (method, path, body) in [
            ("GET", format!("/v1/webhooks/{id}"), Value::Null),
            (
                "PATCH",
                format!("/v1/webhooks/{id}"),
                json!({"name": "mine"}),
            ),
            ("DELETE", format!("/v1/webhooks/{id}"), Value::Null),
            ("GET", format!("/v1/webhooks/{id}/addresses"), Value::Null),
            (
                "PATCH",
                format!("/v1/webhooks/{id}/addresses"),
                json!({"addresses": []}),
            ),
        ] {
            call(&api, &key_b, method, &path, &body).error(404, "Not Found");
        }
        let theirs = call(&api, &key_b, "GET", "/v1/webhooks", &Value::Null).json();
        assert_eq!(theirs, json!({"webhooks": []}));
        let ours = call(&api, &key_a, "GET", "/v1/webhooks?pageSize=1", &Value::Null).json();
        assert_eq!(ours["webhooks"][0]["id"], a["id"]);
        let token = ours["nextPageToken"].as_str().unwrap();
        let next = call(
            &api,
            &key_a,
            "GET",
            &format!("/v1/webhooks?pageSize=1&pageToken={token}"),
            &Value::Null,
        )
        .json();
        assert_eq!(next["webhooks"][0]["id"], b["id"]);
        // The third page holds the deactivated one; a token is bound to its status filter.
        assert!(next.get("nextPageToken").is_some(), "{next}");
        let path = format!("/v1/webhooks?pageSize=1&status=active&pageToken={token}");
        call(&api, &key_a, "GET", &path, &Value::Null).error(400, "Bad Request");
        let active = call(
            &api,
            &key_a,
            "GET",
            "/v1/webhooks?status=active",
            &Value::Null,
        )
        .json();
        assert_eq!(active["webhooks"].as_array().unwrap().len(), 2, "{active}");
        // A token is bound to its organisation.
        call(
            &api,
            &key_b,
            "GET",
            &format!("/v1/webhooks?pageToken={token}"),
            &Value::Null,
        )
        .error(400, "Bad Request");
        (a, b)
    };

    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let api = start_allowing(&data, &["--evm-config", &evm]);
    let n = want.len();
    assert!(
        good.wait(120, |r| r.acked().len() >= n) && flaky.wait(120, |r| r.acked().len() >= n),
        "good {} flaky {} of {n}",
        good.acked().len(),
        flaky.acked().len()
    );
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
    let secret = call(
        &api,
        &key_a,
        "GET",
        "/v1/webhooks:getSharedSecret",
        &Value::Null,
    )
    .json()["secret"]
        .as_str()
        .unwrap()
        .to_owned();
    check(
        &good.acked(),
        &want,
        a["id"].as_str().unwrap(),
        &secret,
        true,
    );
    assert_eq!(good.all().len(), n, "nothing but the events, once");
    // The flaky receiver's first three answers were 500: the first event came four times, then
    // every event once.
    check(
        &flaky.acked(),
        &want,
        b["id"].as_str().unwrap(),
        &secret,
        false,
    );
    assert_eq!(flaky.all().len(), n + 3);
    assert!(
        flaky.all()[..4]
            .iter()
            .all(|d| d.body == flaky.all()[0].body)
    );
    assert!(
        off.all().is_empty(),
        "a deactivated webhook sent {:?}",
        off.all()
    );
}

/// The txs a receiver got for webhook `id`, in arrival order.
fn txs_of(got: &[Delivery], id: &str) -> Vec<String> {
    got.iter()
        .map(|d| serde_json::from_str::<Value>(&d.body).unwrap())
        .filter(|v| v["webhookId"] == id)
        .map(|v| {
            v["event"]["transaction"]["txHash"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[test]
fn deliveries_in_flight_stay_under_the_cap_in_order_taking_turns_on_kept_connections() {
    const CAP: usize = 3;
    const HOOKS: usize = 8;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    let n = want.len();
    assert!(n >= 3, "{want:?}");
    // Each delivery held unanswered a while, so deliveries overlap whenever the cap lets them.
    let receiver = Receiver::start();
    receiver.hold(std::time::Duration::from_millis(40));
    receiver.keep_alive();
    let ids: Vec<String> = {
        let api = start_allowing(&data, &[]);
        (0..HOOKS)
            .map(|_| {
                create(&api, &key, &receiver.url(), &watch, false)["id"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let cap = CAP.to_string();
    let _api = start_allowing(
        &data,
        &["--evm-config", &evm, "--webhook-concurrency", &cap],
    );
    assert!(
        receiver.wait(120, |r| r.acked().len() >= HOOKS * n),
        "{} of {}",
        receiver.acked().len(),
        HOOKS * n
    );
    let got = receiver.all();
    assert_eq!(got.len(), HOOKS * n, "nothing but the events, once");
    // Never more than the cap at once, and the cap reached: deliveries did run side by side.
    assert_eq!(receiver.max_in_flight(), CAP);
    // Connections kept alive: never more open than deliveries in flight, for all the events.
    assert!(
        receiver.connections() <= CAP,
        "{} connections for {} deliveries",
        receiver.connections(),
        got.len()
    );
    // Each webhook's events in chain order, each once.
    let want_txs: Vec<String> = want.iter().map(|e| e.tx.clone()).collect();
    for id in &ids {
        assert_eq!(txs_of(&got, id), want_txs, "webhook {id}");
    }
    // Turns: all eight have the same events, so at every point of the arrival order no webhook
    // is far ahead of one that still has events to get. One turn each a round, but a round's
    // order changes when a batch wakes them and requests in flight are recorded out of turn, so
    // the spread drifts by a few (5 seen under load); taking a whole backlog first would put one
    // n ahead, so a quarter of n still tells turns from a queue per webhook.
    let mut counts = vec![0usize; HOOKS];
    for (i, d) in got.iter().enumerate() {
        let v: Value = serde_json::from_str(&d.body).unwrap();
        let w = ids.iter().position(|id| v["webhookId"] == *id).unwrap();
        counts[w] += 1;
        let ahead = counts.iter().max().unwrap();
        let behind = counts.iter().filter(|c| **c < n).min().unwrap_or(ahead);
        assert!(
            ahead - behind <= n / 4,
            "after {} deliveries: {counts:?}",
            i + 1
        );
    }
}

#[test]
fn a_killed_server_resumes_delivery_at_the_acknowledged_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    let n = want.len();
    assert!(n >= 3, "{want:?}");
    let receiver = Receiver::start();
    let held = n / 2;
    receiver.stall_at(held);
    let a = {
        let api = start_allowing(&data, &[]);
        create(&api, &key, &receiver.url(), &watch, false)
    };
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    {
        let mut api = start_allowing(&data, &["--evm-config", &evm]);
        // The receiver holds delivery `held` unanswered: kill -9 while it waits.
        assert!(
            receiver.wait(120, |r| r.all().len() > held),
            "{}",
            receiver.all().len()
        );
        assert!(api.running());
    }
    receiver.release();
    let api = start_allowing(&data, &["--evm-config", &evm]);
    assert!(
        receiver.wait(120, |r| r.acked().len() >= n),
        "{} of {n}",
        receiver.acked().len()
    );
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
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
    // Every event acknowledged exactly once, in order; the one unanswered at the kill came again.
    check(
        &receiver.acked(),
        &want,
        a["id"].as_str().unwrap(),
        &secret,
        false,
    );
    let all = receiver.all();
    assert_eq!(all.len(), n + 1);
    assert_eq!(all[held].answered, 0);
    assert_eq!(all[held].body, all[held + 1].body);
}

#[test]
fn deliveries_to_a_refused_address_deactivate_the_webhook_and_resume_when_reactivated() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    let receiver = Receiver::start();
    let a = {
        let api = start_allowing(&data, &[]);
        create(&api, &key, &receiver.url(), &watch, false)
    };
    let path = format!("/v1/webhooks/{}", a["id"].as_str().unwrap());
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    {
        // Without the allowance the receiver's address is checked again at each attempt and
        // refused; when the schedule runs out the webhook is deactivated.
        let api = start(
            &data,
            &[
                "--network",
                "local",
                "--no-rate-limits",
                "--evm-config",
                &evm,
                "--webhook-retries",
                "10ms,10ms",
            ],
        );
        assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
        assert!(api.wait_until(60, |api| {
            call(api, &key, "GET", &path, &Value::Null).json()["status"] == "inactive"
        }));
    }
    assert!(receiver.all().is_empty(), "{:?}", receiver.all());
    // Reactivated where the receiver is allowed: what was queued before the deactivation
    // arrives, in order, once each: the first events of the chain, nothing else.
    let api = start_allowing(&data, &["--evm-config", &evm]);
    let r = call(&api, &key, "PATCH", &path, &json!({"status": "active"}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(receiver.wait(60, |r| !r.acked().is_empty()));
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
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
    // Delivery goes on while the check runs: take what has arrived, then compare it as a prefix.
    let got = receiver.acked();
    check(
        &got,
        &want[..got.len()],
        a["id"].as_str().unwrap(),
        &secret,
        false,
    );
}

#[test]
fn a_receiver_too_far_behind_deactivates_its_webhook_with_its_queue_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    let max = 5;
    assert!(want.len() > max, "{want:?}");
    // The receiver answers nothing, so no event is ever acknowledged while the chain is indexed.
    let receiver = Receiver::start();
    receiver.stall_at(0);
    let a = {
        let api = start_allowing(&data, &[]);
        create(&api, &key, &receiver.url(), &watch, false)
    };
    let path = format!("/v1/webhooks/{}", a["id"].as_str().unwrap());
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let queued = max.to_string();
    let more = ["--evm-config", &evm, "--webhook-max-queued", &queued];
    let api = start_allowing(&data, &more);
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
    assert!(api.wait_until(60, |api| {
        call(api, &key, "GET", &path, &Value::Null).json()["status"] == "inactive"
    }));
    // Reactivated with the receiver answering: exactly the events queued before the bound.
    receiver.release();
    let r = call(&api, &key, "PATCH", &path, &json!({"status": "active"}));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(receiver.wait(60, |r| r.acked().len() >= max));
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
    check(
        &receiver.acked(),
        &want[..max],
        a["id"].as_str().unwrap(),
        &secret,
        false,
    );
}

#[test]
fn redirects_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    // The first receiver redirects every delivery to the second: a delivery that followed it
    // could be sent anywhere the first chose, a private address included.
    let target = Receiver::start();
    let redirecting = Receiver::start();
    redirecting.redirect_to(&target.url());
    let a = {
        let api = start_allowing(&data, &[]);
        create(&api, &key, &redirecting.url(), &watch, false)
    };
    let path = format!("/v1/webhooks/{}", a["id"].as_str().unwrap());
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let api = start_allowing(&data, &["--evm-config", &evm]);
    // Each attempt is a failure: the schedule runs out and the webhook is deactivated.
    assert!(api.wait_until(60, |api| {
        call(api, &key, "GET", &path, &Value::Null).json()["status"] == "inactive"
    }));
    let attempts = redirecting.all();
    assert_eq!(
        attempts.len(),
        RETRIES.split(',').count() + 1,
        "{attempts:?}"
    );
    assert!(attempts.iter().all(|d| d.body == attempts[0].body));
    assert!(target.all().is_empty(), "{:?}", target.all());
}

#[test]
fn logs_are_listed_when_asked_and_event_signatures_filter_the_txs() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    // The txs among them with an ERC-20/721 Transfer log: a strict, non-empty subset.
    let transfers: Vec<Expected> = expected(&m, &watch)
        .into_iter()
        .filter(|e| e.topics0.iter().any(|t| t == TRANSFER_TOPIC))
        .collect();
    assert!(
        !transfers.is_empty() && transfers.len() < want.len(),
        "{} of {}",
        transfers.len(),
        want.len()
    );
    assert!(want.iter().any(|e| !e.logs.is_empty()), "{want:?}");
    let logged = Receiver::start();
    let filtered = Receiver::start();
    let addresses: Vec<String> = watch.iter().map(|a| a.to_checksum(None)).collect();
    let (with_logs, with_filter) = {
        let api = start_allowing(&data, &[]);
        let body = |url: String, logs: bool, sigs: &[&str]| {
            json!({
                "eventType": "address_activity", "url": url, "chainId": C_CHAIN_ID.to_string(),
                "metadata": {"addresses": addresses, "eventSignatures": sigs},
                "includeLogs": logs,
            })
        };
        // A signature that is not a 32-byte topic is refused, naming the field.
        for bad in ["0x1234", "Transfer(address,address,uint256)"] {
            let r = call(
                &api,
                &key,
                "POST",
                "/v1/webhooks",
                &body(logged.url(), true, &[bad]),
            );
            let message = r.error(400, "Bad Request");
            assert!(message.contains("eventSignatures"), "{message}");
        }
        let a = call(
            &api,
            &key,
            "POST",
            "/v1/webhooks",
            &body(logged.url(), true, &[]),
        );
        assert_eq!(a.status, 201, "{}", a.body);
        let upper = TRANSFER_TOPIC.to_uppercase().replacen("0X", "0x", 1);
        let b = call(
            &api,
            &key,
            "POST",
            "/v1/webhooks",
            &body(filtered.url(), false, &[&upper]),
        );
        assert_eq!(b.status, 201, "{}", b.body);
        let (a, b) = (a.json(), b.json());
        assert_eq!(a["includeLogs"], true);
        assert!(a["metadata"].get("eventSignatures").is_none(), "{a}");
        assert_eq!(b["metadata"]["eventSignatures"], json!([TRANSFER_TOPIC]));
        (a, b)
    };
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let api = start_allowing(&data, &["--evm-config", &evm]);
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
    assert!(
        logged.wait(120, |r| r.acked().len() >= want.len())
            && filtered.wait(120, |r| r.acked().len() >= transfers.len()),
        "logged {} of {}, filtered {} of {}",
        logged.acked().len(),
        want.len(),
        filtered.acked().len(),
        transfers.len()
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
    check_logs(
        &logged.acked(),
        &want,
        with_logs["id"].as_str().unwrap(),
        &secret,
        false,
        true,
    );
    check(
        &filtered.acked(),
        &transfers,
        with_filter["id"].as_str().unwrap(),
        &secret,
        false,
    );
}

/// A staking tx of the devnet as a `validator_activity` webhook must report it: sub-event, tx,
/// node, subnet, weight, block height. Read here from the blocks: the decision txs of standard
/// and Banff proposal blocks (avalanchego `vms/platformvm/block`: a proposal block's
/// `Txs()` are its decision txs then its proposal), each staking type's validator field.
#[derive(Debug, Clone, PartialEq)]
struct StakeSeen {
    sub_event: &'static str,
    tx: String,
    node: NodeId,
    subnet: Id,
    weight: u64,
    height: u64,
}

fn stakes_of(records: &[snowline_types::container::ContainerRecord]) -> Vec<StakeSeen> {
    let mut out = Vec::new();
    for r in records.iter().filter(|r| r.path == IndexPath::PBlock) {
        let b = parse_block(&r.bytes).unwrap().block;
        let txs: Vec<_> = match &b.block {
            Block::ApricotStandard { txs, .. }
            | Block::BanffStandard { txs, .. }
            | Block::BanffProposal { txs, .. } => txs.iter().collect(),
            _ => Vec::new(),
        };
        for (tx, id) in txs.into_iter().zip(&b.tx_ids) {
            let (sub_event, v, subnet) = match &tx.unsigned {
                UnsignedTx::AddValidatorTx(t) => ("validator_stake", &t.validator, Id::EMPTY),
                UnsignedTx::AddPermissionlessValidatorTx(t) => {
                    ("validator_stake", &t.validator, t.subnet_id)
                }
                UnsignedTx::AddSubnetValidatorTx(t) => (
                    "validator_stake",
                    &t.validator.validator,
                    t.validator.subnet_id,
                ),
                UnsignedTx::AddDelegatorTx(t) => ("delegator_stake", &t.validator, Id::EMPTY),
                UnsignedTx::AddPermissionlessDelegatorTx(t) => {
                    ("delegator_stake", &t.validator, t.subnet_id)
                }
                _ => continue,
            };
            out.push(StakeSeen {
                sub_event,
                tx: id.to_string(),
                node: v.node_id,
                subnet,
                weight: v.weight,
                height: b.block.height(),
            });
        }
    }
    out
}

#[test]
fn validator_activity_reports_each_stake_of_the_watched_node_once_in_order() {
    let seed = 2;
    let up = upstream::start(seed, 0);
    let all = stakes_of(&up.records);
    // The node with the most stakes, validators' and delegators' both.
    let mut counts: std::collections::BTreeMap<NodeId, (usize, usize)> = Default::default();
    for s in &all {
        let c = counts.entry(s.node).or_default();
        if s.sub_event == "validator_stake" {
            c.0 += 1;
        } else {
            c.1 += 1;
        }
    }
    let (&node, _) = counts
        .iter()
        .filter(|(_, c)| c.0 > 0 && c.1 > 0)
        .max_by_key(|(_, c)| c.0 + c.1)
        .expect("a node with a validator and a delegator");
    let want: Vec<&StakeSeen> = all.iter().filter(|s| s.node == node).collect();
    let delegations: Vec<&StakeSeen> = want
        .iter()
        .copied()
        .filter(|s| s.sub_event == "delegator_stake")
        .collect();
    assert!(
        want.len() > delegations.len() && want.len() < all.len(),
        "{want:?}"
    );

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let both = Receiver::start();
    let only_delegations = Receiver::start();
    let metadata = |subs: &[&str]| {
        json!({"keyType": "nodeId", "keys": [node.to_string()],
               "subEvents": {"validatorActivitySubEvents": subs}})
    };
    let body = |url: String, subs: &[&str]| {
        json!({"eventType": "validator_activity", "url": url, "network": "local",
               "name": "stakes", "metadata": metadata(subs)})
    };
    let (a, b) = {
        let api = start_allowing(&data, &[]);
        // Refused with the reason: another network, a sub-event not derived, two keys, a bad
        // node id, addresses for a validator webhook.
        for (bad, field) in [
            (
                json!({"eventType": "validator_activity", "url": both.url(), "network": "mainnet",
                       "metadata": metadata(&["validator_stake"])}),
                "network",
            ),
            (
                body(both.url(), &["l1_validator_balance_threshold"]),
                "l1_validator_balance_threshold",
            ),
            (
                json!({"eventType": "validator_activity", "url": both.url(), "network": "local",
                       "metadata": {"keyType": "nodeId", "keys": [node.to_string(), node.to_string()],
                                    "subEvents": {"validatorActivitySubEvents": ["validator_stake"]}}}),
                "keys",
            ),
            (
                json!({"eventType": "validator_activity", "url": both.url(), "network": "local",
                       "metadata": {"keyType": "nodeId", "keys": ["NodeID-nope"],
                                    "subEvents": {"validatorActivitySubEvents": ["validator_stake"]}}}),
                "keys",
            ),
        ] {
            let r = call(&api, &key, "POST", "/v1/webhooks", &bad);
            let message = r.error(400, "Bad Request");
            assert!(message.contains(field), "{field}: {message}");
        }
        let a = call(
            &api,
            &key,
            "POST",
            "/v1/webhooks",
            &body(both.url(), &["validator_stake", "delegator_stake"]),
        );
        assert_eq!(a.status, 201, "{}", a.body);
        let b = call(
            &api,
            &key,
            "POST",
            "/v1/webhooks",
            &body(only_delegations.url(), &["delegator_stake"]),
        );
        assert_eq!(b.status, 201, "{}", b.body);
        let (a, b) = (a.json(), b.json());
        // The OpenAPI's `ValidatorActivityResponse`: the P-Chain's id, the metadata as given.
        assert_eq!(a["eventType"], "validator_activity");
        assert_eq!(a["chainId"], "11111111111111111111111111111111LpoYY");
        assert_eq!(
            a["metadata"],
            metadata(&["validator_stake", "delegator_stake"])
        );
        assert!(a.get("includeLogs").is_none(), "{a}");
        let path = format!("/v1/webhooks/{}/addresses", a["id"].as_str().unwrap());
        let r = call(&api, &key, "PATCH", &path, &json!({"addresses": []}));
        assert!(r.error(400, "Bad Request").contains("validator_activity"));
        (a, b)
    };
    let flags = [
        "--webhook-allow-private",
        "127.0.0.0/8,::1",
        "--webhook-retries",
        RETRIES,
    ];
    let api = follow_with(&data, &up, seed, 120, &flags);
    assert!(
        both.wait(120, |r| r.acked().len() >= want.len())
            && only_delegations.wait(120, |r| r.acked().len() >= delegations.len()),
        "both {} of {}, delegations {} of {}",
        both.acked().len(),
        want.len(),
        only_delegations.acked().len(),
        delegations.len()
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
    for (receiver, hook, want) in [(&both, &a, &want), (&only_delegations, &b, &delegations)] {
        let got = receiver.all();
        assert_eq!(got.len(), want.len(), "nothing but the stakes, once each");
        let mut messages = BTreeSet::new();
        for (d, s) in got.iter().zip(want.iter()) {
            assert_eq!(
                d.headers["x-signature"],
                hmac_hex(&secret, d.body.as_bytes())
            );
            let v: Value = serde_json::from_str(&d.body).unwrap();
            assert_eq!(v["webhookId"], hook["id"]);
            assert_eq!(v["eventType"], "validator_activity");
            assert!(messages.insert(v["messageId"].as_str().unwrap().to_owned()));
            let e = &v["event"];
            assert_eq!(e["subEventType"], s.sub_event, "{e}");
            assert_eq!(e["txHash"], s.tx.as_str(), "{e}");
            assert_eq!(e["nodeId"], s.node.to_string(), "{e}");
            assert_eq!(e["subnetId"], s.subnet.to_string(), "{e}");
            assert_eq!(e["amountStaked"], s.weight.to_string(), "{e}");
            assert_eq!(e["blockNumber"], s.height.to_string(), "{e}");
        }
    }
}
