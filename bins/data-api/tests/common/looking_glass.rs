//! What the Looking Glass tests share: the token balances a recording's transfer logs give after
//! each block (decoded by `snowline_evm_devnet::model`, nothing of the indexer's), every page of
//! a listing, and `data-api` indexing both recorded chains and serving the metrics API
//! (`--metrics-listen`).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use snowline_evm_devnet::model::{LogTransfer, RecordingModel};
use snowline_types::evm::{Address, U256};

use super::{DataApi, request, start};

/// `(holder, token, id) -> balance` after each block, from the logs: a mint (from the zero
/// address) and a burn (to it) change only the other side.
pub type Balances = BTreeMap<(Address, Address, U256), U256>;

/// The [`Balances`] after each block of `m`, block 0 first.
pub fn after_each_block(m: &RecordingModel, transfers: &[LogTransfer]) -> Vec<Balances> {
    let mut now = Balances::new();
    let mut out = Vec::new();
    for n in 0..=m.tip() {
        for t in transfers.iter().filter(|t| t.block == n && t.from != t.to) {
            if t.from != Address::ZERO {
                let b = now.entry((t.from, t.token, t.id)).or_default();
                *b = b.saturating_sub(t.value);
            }
            if t.to != Address::ZERO {
                *now.entry((t.to, t.token, t.id)).or_default() += t.value;
            }
        }
        out.push(now.clone());
    }
    out
}

/// EIP-55.
pub fn checksum(a: &Address) -> String {
    a.to_checksum(None)
}

/// Every `addresses` record of a Looking Glass listing, following `nextPageToken`; the other
/// members of the first page.
pub fn all_pages(addr: &str, path: &str) -> (Vec<(String, String)>, Value) {
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    let mut first = Value::Null;
    loop {
        let p = match &token {
            Some(t) => format!("{path}&pageToken={t}"),
            None => path.to_owned(),
        };
        let r = request(addr, "GET", &p, &[], "");
        assert_eq!(r.status, 200, "{p}: {}", r.body);
        let v = r.json();
        for a in v["addresses"].as_array().unwrap() {
            out.push((
                a["address"].as_str().unwrap().to_owned(),
                a["sortKey"].as_str().unwrap().to_owned(),
            ));
        }
        if first.is_null() {
            first = v.clone();
        }
        match v.get("nextPageToken").and_then(Value::as_str) {
            Some(t) => token = Some(t.to_owned()),
            None => return (out, first),
        }
    }
}

/// `data-api` indexing the recordings served at `urls` (the C-Chain's first, then the L1's), the
/// chains' sources changed by `edit`, with `args` added, serving the metrics API; it and the
/// metrics listener's address, once both chains are ready.
pub fn serve(
    dir: &std::path::Path,
    urls: &[(u64, String)],
    edit: impl Fn(&mut Value),
    args: &[&str],
) -> (DataApi, String) {
    let mut config = json!({"chains": [
        {"chainId": urls[0].0, "rpcUrl": urls[0].1},
        {"chainId": urls[1].0.to_string(), "rpcUrl": urls[1].1, "network": "local",
         "chainName": "Snowline L1", "blockchainId": snowline_types::Id([7; 32]).to_string(),
         "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}},
    ]});
    edit(&mut config);
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let mut all = vec![
        "--network",
        "local",
        "--evm-config",
        path.to_str().unwrap(),
        "--no-rate-limits",
        "--metrics-listen",
        "127.0.0.1:0",
    ];
    all.extend_from_slice(args);
    let api = start(&dir.join("data"), &all);
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    let line = api
        .stdout_line("metrics service listening on http://")
        .expect("the metrics listener's address");
    let metrics = line
        .split("http://")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    (api, metrics)
}
