//! Transaction exports end to end: the real `data-api` indexing the recorded devnet C-Chain from
//! a replay server; an export's CSV holds exactly the txs a reading of the recording's JSON
//! finds for its addresses (`RecordingModel`: the sender, recipient or created contract, either
//! end of a token transfer its logs record, either end of a listed frame of its call tree),
//! each once, in chain order; the row bound ends an export at a whole day with
//! `WarnTruncatedExport` and the day to go on from; a server killed with a job in flight
//! finishes it after a restart.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use common::{DataApi, create_key, request, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::{RecordingModel, addr, hash, listed_frames, log_transfers};
use snowline_evm_devnet::{C_CHAIN_ID, recording_path};
use snowline_types::evm::Address;

/// `YYYY-MM-DD` of Unix second `ts`, counted day by day through the calendar (the Gregorian
/// leap rule), independently of the server's arithmetic.
fn date_of(ts: u64) -> String {
    let mut days = ts / 86_400;
    let mut year = 1970u64;
    loop {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let len = if leap { 366 } else { 365 };
        if days < len {
            let months = [
                31,
                if leap { 29 } else { 28 },
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            let mut month = 0;
            while days >= months[month] {
                days -= months[month];
                month += 1;
            }
            return format!("{year:04}-{:02}-{:02}", month + 1, days + 1);
        }
        days -= len;
        year += 1;
    }
}

/// The txs of the recording the index lists for `watched`, in chain order: (hash, timestamp).
fn expected(m: &RecordingModel, watched: &BTreeSet<Address>) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    for b in &m.blocks {
        let ts = u64::from_str_radix(
            b.block["timestamp"]
                .as_str()
                .unwrap()
                .trim_start_matches("0x"),
            16,
        )
        .unwrap();
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
                for t in log_transfers(log, b.number) {
                    touched.insert(t.from);
                    touched.insert(t.to);
                }
            }
            if !b.traces.is_null() {
                let at = (b.number, i as u64, hash(&tx["hash"]));
                for f in listed_frames(&b.traces[i]["result"], at) {
                    touched.insert(f.from);
                    touched.extend(f.to);
                }
            }
            if touched.iter().any(|a| watched.contains(a)) {
                out.push((tx["hash"].as_str().unwrap().to_lowercase(), ts));
            }
        }
    }
    out
}

/// The recipient of the recording's first token transfer and the callee of its first internal
/// call.
fn watched(m: &RecordingModel) -> BTreeSet<Address> {
    let first_internal = m
        .frames()
        .into_iter()
        .find(|f| f.depth > 0 && f.to.is_some())
        .and_then(|f| f.to)
        .unwrap();
    [m.transfers()[0].to, first_internal].into_iter().collect()
}

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

/// Waits until operation `id` is no longer running; its last answer.
fn settled(api: &DataApi, key: &str, id: &str) -> Value {
    let path = format!("/v1/operations/{id}");
    let mut last = Value::Null;
    assert!(
        api.wait_until(60, |a| {
            last = call(a, key, "GET", &path, &Value::Null).json();
            last["operationStatus"] != "RUNNING"
        }),
        "{last}"
    );
    last
}

/// The CSV an operation points to, as (header, rows).
fn download(api: &DataApi, key: &str, op: &Value) -> (String, Vec<Vec<String>>) {
    let url = op["metadata"]["downloadUrl"].as_str().unwrap();
    let path = url.strip_prefix(&format!("http://{}", api.addr)).unwrap();
    let r = call(api, key, "GET", path, &Value::Null);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("content-type"), Some("text/csv"));
    let mut lines = r.body.lines();
    let header = lines.next().unwrap().to_owned();
    let rows = lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    (header, rows)
}

#[test]
fn an_export_lists_each_tx_of_its_addresses_once_bounded_and_surviving_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let (_, other) = create_key(&data, "b", "org-b", "free");
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let watch = watched(&m);
    let want = expected(&m, &watch);
    assert!(want.len() >= 3, "{want:?}");
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let evm = sources(dir.path(), &urls[0].1);
    let flags = [
        "--network",
        "local",
        "--no-rate-limits",
        "--evm-config",
        &evm,
    ];
    let api = start(&data, &flags);
    assert!(api.wait_until(120, |a| a.get("/readyz").status == 200));
    let addresses: Vec<String> = watch.iter().map(|a| a.to_checksum(None)).collect();
    let first = date_of(want[0].1);
    let last = date_of(want[want.len() - 1].1);
    let body = json!({"type": "TRANSACTION_EXPORT_EVM", "firstDate": first, "lastDate": last,
                      "options": {"addresses": addresses, "includeChains": [C_CHAIN_ID.to_string()]}});

    // Bad requests name what is wrong; no key is a 401.
    for (bad, field) in [
        (
            json!({"type": "TRANSACTION_EXPORT_PRIMARY_NETWORK", "options": {"includeChains": ["p-chain"]}}),
            "addresses",
        ),
        (
            json!({"type": "TRANSACTION_EXPORT_EVM", "options": {"addresses": ["0x12"], "includeChains": ["43112"]}}),
            "addresses",
        ),
        (
            json!({"type": "TRANSACTION_EXPORT_EVM", "options": {"addresses": addresses, "includeChains": ["7"]}}),
            "includeChains",
        ),
        (
            json!({"type": "TRANSACTION_EXPORT_EVM", "firstDate": "2023-02-30",
                "options": {"addresses": addresses, "includeChains": ["43112"]}}),
            "firstDate",
        ),
        (
            json!({"type": "TRANSACTION_EXPORT_EVM", "firstDate": "2024-01-02", "lastDate": "2024-01-01",
                "options": {"addresses": addresses, "includeChains": ["43112"]}}),
            "firstDate",
        ),
    ] {
        let r = call(
            &api,
            &key,
            "POST",
            "/v1/operations/transactions:export",
            &bad,
        );
        let message = r.error(400, "Bad Request");
        assert!(message.contains(field), "{field}: {message}");
    }
    let r = request(
        &api.addr,
        "POST",
        "/v1/operations/transactions:export",
        &[],
        &body.to_string(),
    );
    r.error(401, "Unauthorized");

    // The whole export: every tx once, in chain order.
    let r = call(
        &api,
        &key,
        "POST",
        "/v1/operations/transactions:export",
        &body,
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let op = r.json();
    assert_eq!(op["operationType"], "TRANSACTION_EXPORT_EVM");
    let id = op["operationId"].as_str().unwrap().to_owned();
    let done = settled(&api, &key, &id);
    assert_eq!(done["operationStatus"], "COMPLETED", "{done}");
    assert!(done["metadata"].get("code").is_none(), "{done}");
    let (header, rows) = download(&api, &key, &done);
    assert!(header.starts_with("chainId,blockNumber,blockTimestamp,date,txHash"));
    let hashes: Vec<&str> = rows.iter().map(|r| r[4].as_str()).collect();
    let want_hashes: Vec<&str> = want.iter().map(|(h, _)| h.as_str()).collect();
    assert_eq!(hashes, want_hashes);
    assert!(rows.iter().all(|r| r[0] == C_CHAIN_ID.to_string()));
    // Another organisation sees neither the operation nor its file.
    call(
        &api,
        &other,
        "GET",
        &format!("/v1/operations/{id}"),
        &Value::Null,
    )
    .error(404, "Not Found");
    call(
        &api,
        &other,
        "GET",
        &format!("/v1/operations/{id}/download"),
        &Value::Null,
    )
    .error(404, "Not Found");
    drop(api);

    // Bounded at two rows: the export ends at a whole day (or, when the first day alone holds
    // more, at the bound) and says which day comes next.
    let mut bounded = flags.to_vec();
    bounded.extend(["--export-max-rows", "2"]);
    let api = start(&data, &bounded);
    let r = call(
        &api,
        &key,
        "POST",
        "/v1/operations/transactions:export",
        &body,
    );
    let done = settled(&api, &key, r.json()["operationId"].as_str().unwrap());
    assert_eq!(done["operationStatus"], "COMPLETED_WITH_WARNING", "{done}");
    assert_eq!(done["metadata"]["code"], "WarnTruncatedExport");
    let (_, rows) = download(&api, &key, &done);
    let kept: Vec<&str> = rows.iter().map(|r| r[4].as_str()).collect();
    let first_day_count = want.iter().filter(|(_, t)| date_of(*t) == first).count();
    let next = done["metadata"]["nextDate"].as_str().unwrap().to_owned();
    if first_day_count > 2 {
        assert_eq!(kept, &want_hashes[..2]);
        assert_eq!(next, date_of(want[0].1 + 86_400));
    } else {
        let before: Vec<&str> = want
            .iter()
            .filter(|(_, t)| date_of(*t) < next)
            .map(|(h, _)| h.as_str())
            .collect();
        assert_eq!(kept, before);
        assert!(kept.len() <= 2 && !kept.is_empty());
    }
    drop(api);

    // Killed with a job just asked for: after a restart it is complete, whole.
    let id = {
        let api = start(&data, &flags);
        let r = call(
            &api,
            &key,
            "POST",
            "/v1/operations/transactions:export",
            &body,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()["operationId"].as_str().unwrap().to_owned()
    };
    let api = start(&data, &flags);
    let done = settled(&api, &key, &id);
    assert_eq!(done["operationStatus"], "COMPLETED", "{done}");
    let (_, rows) = download(&api, &key, &done);
    let hashes: Vec<&str> = rows.iter().map(|r| r[4].as_str()).collect();
    assert_eq!(hashes, want_hashes);
}

/// A Primary Network export of two devnet addresses lists exactly the P-Chain txs the Data
/// API's address listing gives for them (itself compared with the test's replay of the chain in
/// `pchain_txs.rs`), oldest first, each once, at the heights and times of the replay's blocks;
/// the staking export lists the staking txs among them; the X- and C-Chain are refused.
#[test]
fn a_primary_network_export_lists_the_p_chain_txs_of_its_addresses() {
    let seed = 3;
    let up = common::upstream::start(seed, 0);
    let (mut devnet, _) = common::upstream::devnet(seed, 0);
    let records: Vec<_> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let m = common::pmodel::PModel::replay(&devnet, &records);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (_, key) = create_key(&data, "a", "org-a", "free");
    let api = common::follow_with(&data, &up, seed, 120, &[]);
    let addrs = common::local_addrs("P", &devnet.keys().addrs()[1..3]);
    let joined = addrs.join(",");
    let listing: Vec<Value> = common::page_bodies(
        &api,
        &format!(
            "/v1/networks/local/blockchains/p-chain/transactions?addresses={joined}\
             &sortOrder=asc&pageSize=100"
        ),
    )
    .into_iter()
    .flat_map(|v| v["transactions"].as_array().unwrap().clone())
    .collect();
    assert!(listing.len() > 5, "{} txs", listing.len());
    let p = snowline_types::network::NetworkInfo::LOCAL
        .p_chain_id
        .to_string();
    let heights: std::collections::BTreeMap<String, (u64, u64)> = m
        .blocks
        .iter()
        .flat_map(|b| {
            b.tx_ids
                .iter()
                .map(move |t| (t.to_string(), (b.height, b.ts)))
        })
        .collect();
    let row = |t: &Value| {
        let tx = t["txHash"].as_str().unwrap().to_owned();
        let (height, ts) = heights[&tx];
        vec![
            p.clone(),
            height.to_string(),
            ts.to_string(),
            date_of(ts),
            tx,
            t["txType"].as_str().unwrap().to_owned(),
        ]
    };
    let staking = [
        "AddValidatorTx",
        "AddDelegatorTx",
        "AddPermissionlessValidatorTx",
        "AddPermissionlessDelegatorTx",
        "AddSubnetValidatorTx",
        "RewardValidatorTx",
    ];
    for (kind, keep) in [
        ("TRANSACTION_EXPORT_PRIMARY_NETWORK", None),
        ("TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING", Some(&staking)),
    ] {
        let want: Vec<Vec<String>> = listing
            .iter()
            .filter(|t| keep.is_none_or(|k| k.contains(&t["txType"].as_str().unwrap())))
            .map(row)
            .collect();
        assert!(!want.is_empty(), "{kind}");
        let body = json!({"type": kind,
                          "options": {"addresses": addrs, "includeChains": ["p-chain"]}});
        let r = call(
            &api,
            &key,
            "POST",
            "/v1/operations/transactions:export",
            &body,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let op = r.json();
        assert_eq!(op["operationType"], kind);
        let done = settled(&api, &key, op["operationId"].as_str().unwrap());
        assert_eq!(done["operationStatus"], "COMPLETED", "{done}");
        let (header, rows) = download(&api, &key, &done);
        assert_eq!(
            header,
            "chainId,blockNumber,blockTimestamp,date,txHash,txType"
        );
        assert_eq!(rows, want, "{kind}");
    }
    for (chains, field) in [
        (json!(["x-chain"]), "includeChains"),
        (json!([]), "includeChains"),
    ] {
        let body = json!({"type": "TRANSACTION_EXPORT_PRIMARY_NETWORK",
                          "options": {"addresses": addrs, "includeChains": chains}});
        let r = call(
            &api,
            &key,
            "POST",
            "/v1/operations/transactions:export",
            &body,
        );
        assert!(r.error(400, "Bad Request").contains(field));
    }
    let body = json!({"type": "TRANSACTION_EXPORT_PRIMARY_NETWORK",
                      "options": {"addresses": ["P-avax1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"],
                                  "includeChains": ["p-chain"]}});
    let r = call(
        &api,
        &key,
        "POST",
        "/v1/operations/transactions:export",
        &body,
    );
    assert!(r.error(400, "Bad Request").contains("addresses"));
}
