//! The Looking Glass's flags on the `metrics-api` binary over a data-api index (a RocksDB
//! secondary): `--bridged-token` names the L1's bridged token, whose net minted amounts equal
//! those summed from the recorded `Transfer` logs (`snowline_evm_devnet::model`); the composite
//! query's ERC-20 holders equal the logs' too; `--looking-glass-max-rows` turns both into a 400
//! once they would read more rows. The token-holder routes answer over the secondary too (it has
//! no snapshots). (`bins/data-api/tests/evm_looking_glass.rs` and `evm_holders.rs` check every
//! sub-query kind and the holders against the recordings.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use common::evm::{index, open_index, runtime, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::RecordingModel;
use snowline_evm_devnet::{L1_CHAIN_ID, recording_path};
use snowline_test_support::http::request;
use snowline_types::evm::{Address, U256};

#[test]
fn the_flags_name_the_bridged_token_and_cap_the_rows_read() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    let store = open_index(dir.path());
    index(&rt, &store, L1_CHAIN_ID, u64::MAX);
    drop(store);

    // From the logs: each ERC-20 holder's balance now, and the net minted amounts.
    let transfers = RecordingModel::load(&recording_path(L1_CHAIN_ID)).transfers();
    // The ERC-20 moved most.
    let erc20 = transfers.iter().filter(|t| t.standard == 20);
    let token = erc20
        .clone()
        .map(|t| t.token)
        .max_by_key(|a| erc20.clone().filter(|t| t.token == *a).count())
        .unwrap();
    let mut balance: BTreeMap<Address, U256> = BTreeMap::new();
    let mut minted: BTreeMap<Address, U256> = BTreeMap::new();
    for t in transfers
        .iter()
        .filter(|t| t.token == token && t.from != t.to)
    {
        if t.from == Address::ZERO {
            *minted.entry(t.to).or_default() += t.value;
        } else {
            let b = balance.entry(t.from).or_default();
            *b = b.saturating_sub(t.value);
        }
        if t.to != Address::ZERO {
            *balance.entry(t.to).or_default() += t.value;
        }
    }
    assert!(!minted.is_empty());
    let holders: Vec<String> = balance
        .iter()
        .filter(|(_, v)| !v.is_zero())
        .map(|(a, _)| a.to_checksum(None))
        .collect();
    let bridged: Vec<Value> = minted
        .iter()
        .map(|(a, v)| json!({"address": a.to_checksum(None), "sortKey": v.to_string()}))
        .collect();

    let flag = format!("{L1_CHAIN_ID}={}", token.to_checksum(None));
    let composite = json!({"operator": "AND", "queries": [{"id": "h", "type": "LatestBalance",
        "params": {"evmChainId": L1_CHAIN_ID.to_string(), "tokenType": "ERC20",
                   "contractAddress": token.to_checksum(None), "minBalance": "1"}}]})
    .to_string();
    let bridged_path = format!("/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses?threshold=1");
    {
        let api = start(dir.path(), &["--no-rate-limits", "--bridged-token", &flag]);
        let r = request(
            &api.addr,
            "POST",
            "/v2/lookingGlass/compositeQuery",
            &[],
            &composite,
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        assert_eq!(v["addresses"], json!(holders));
        assert_eq!(v["subQueryCounts"], json!({"h": holders.len()}));
        let (status, v) = api.get(&bridged_path);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["addresses"], json!(bridged));
        let t = token.to_checksum(None);
        let (status, v) = api.get(&format!(
            "/v2/chains/{L1_CHAIN_ID}/contracts/{t}/balances?threshold=1&startTimestamp=0"
        ));
        assert_eq!(status, 200, "{v}");
        assert!(!v["addresses"].as_array().unwrap().is_empty(), "{v}");
        let nft = transfers.iter().find(|t| t.standard != 20).unwrap().token;
        let (status, v) = api.get(&format!(
            "/v2/chains/{L1_CHAIN_ID}/contracts/{}/nfts:listHolders",
            nft.to_checksum(None)
        ));
        assert_eq!(status, 200, "{v}");
        assert!(v["totalHolders"].as_u64().unwrap() > 0, "{v}");
    }
    // Fewer rows allowed than either reads: a 400 saying so, in the spec's shape.
    let api = start(
        dir.path(),
        &[
            "--no-rate-limits",
            "--bridged-token",
            &flag,
            "--looking-glass-max-rows",
            "3",
        ],
    );
    let r = request(
        &api.addr,
        "POST",
        "/v2/lookingGlass/compositeQuery",
        &[],
        &composite,
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.json()["message"][0]
            .as_str()
            .unwrap()
            .contains("more than 3 index rows")
    );
    let (status, v) = api.get(&bridged_path);
    assert_eq!(status, 400, "{v}");
    assert!(
        v["message"][0]
            .as_str()
            .unwrap()
            .contains("more than 3 index rows")
    );
}
