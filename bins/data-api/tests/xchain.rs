//! The X-Chain endpoints end to end: a devnet served as a node would serve it, `data-api`
//! following it, and for every devnet address the Data API's UTXOs and balances equal what
//! `avm.getUTXOs` / `avm.getAllBalances` report; spent UTXOs name the tx that consumed them;
//! pages visit every UTXO exactly once in every order; tokens and parameters are checked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{DataApi, follow, local_addr, request, start, upstream};
use serde_json::{Value, json};
use snowline_types::network::NetworkInfo;

const X: &str = "/v1/networks/local/blockchains/x-chain";

/// Every page of a UTXO listing, following `nextPageToken`: the UTXOs and how many pages.
fn all_pages(api: &DataApi, query: &str) -> (Vec<Value>, usize) {
    let (utxos, sizes) = common::paged(api, &format!("{X}/utxos?{query}"), "utxos");
    (utxos, sizes.len())
}

/// `avm.getUTXOs` of one address, every page, X's own and those the P- and C-Chain exported
/// to it (`sourceChain`): the UTXO bytes (API hex).
fn node_utxos(up: &upstream::Upstream, addr: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for source in [None, Some("P"), Some("C")] {
        let mut start: Option<Value> = None;
        loop {
            let mut params = json!({"addresses": [addr], "limit": 1024, "encoding": "hex"});
            if let Some(s) = &start {
                params["startIndex"] = s.clone();
            }
            if let Some(chain) = source {
                params["sourceChain"] = json!(chain);
            }
            let r = up.avm("avm.getUTXOs", params);
            let utxos = r["utxos"].as_array().unwrap();
            out.extend(utxos.iter().map(|u| u.as_str().unwrap().to_owned()));
            if utxos.len() < 1024 {
                break;
            }
            start = Some(r["endIndex"].clone());
        }
    }
    out
}

#[test]
fn utxos_and_balances_equal_the_nodes_for_every_address() {
    let up = upstream::start(7, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 7, 60);
    let mut checked_spent = 0;
    for a in &up.addrs {
        let addr = local_addr("X", a);
        // Unspent: the same UTXOs, byte for byte.
        let (ours, _) = all_pages(&api, &format!("addresses={addr}&pageSize=100"));
        let ours_bytes: BTreeSet<String> = ours
            .iter()
            .map(|u| u["utxoBytes"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(ours_bytes.len(), ours.len(), "{addr}: a UTXO listed twice");
        assert_eq!(ours_bytes, node_utxos(&up, &addr), "{addr}");
        for u in &ours {
            assert!(u.get("consumingTxHash").is_none());
            assert!(
                u["addresses"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|x| x == addr.as_str())
            );
        }
        // Balances: fungible totals equal getAllBalances (which counts partly owned UTXOs with
        // includePartial, locked or not); NFTs are not in the node's balances.
        let b = api.get(&format!("{X}/balances?addresses={addr}")).json();
        let mut ours_total: BTreeMap<String, u128> = BTreeMap::new();
        for bucket in ["unlocked", "locked"] {
            for e in b["balances"][bucket].as_array().unwrap() {
                if e["type"] == "secp256k1" {
                    *ours_total
                        .entry(e["assetId"].as_str().unwrap().to_owned())
                        .or_default() += e["amount"].as_str().unwrap().parse::<u128>().unwrap();
                }
            }
        }
        let node = up.avm(
            "avm.getAllBalances",
            json!({"address": addr, "includePartial": true}),
        );
        let node_total: BTreeMap<String, u128> = node["balances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["asset"].as_str().unwrap().to_owned(),
                    e["balance"].as_str().unwrap().parse::<u128>().unwrap(),
                )
            })
            .filter(|(_, v)| *v > 0)
            .collect();
        // The node names AVAX by its alias; map it to the id.
        let avax = NetworkInfo::LOCAL.avax_asset_id.to_string();
        let node_total: BTreeMap<String, u128> = node_total
            .into_iter()
            .map(|(k, v)| (if k == "AVAX" { avax.clone() } else { k }, v))
            .collect();
        assert_eq!(ours_total, node_total, "{addr}");
        // Spent: each names a consuming tx whose inputs hold it.
        let (all, _) = all_pages(
            &api,
            &format!("addresses={addr}&includeSpent=true&pageSize=100"),
        );
        assert!(all.len() >= ours.len());
        for u in all.iter().filter(|u| u.get("consumingTxHash").is_some()) {
            let tx = up.avm(
                "avm.getTx",
                json!({"txID": u["consumingTxHash"], "encoding": "json"}),
            );
            let inputs = tx["tx"]["unsignedTx"]["inputs"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let imported = tx["tx"]["unsignedTx"]["importedInputs"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let ops = tx["tx"]["unsignedTx"]["operations"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let spends = inputs.iter().chain(&imported).any(|i| {
                i["txID"] == u["creationTxHash"]
                    && i["outputIndex"].as_u64().map(|n| n.to_string()).as_deref()
                        == u["outputIndex"].as_str()
            }) || ops.iter().any(|op| {
                op["inputIDs"].as_array().is_some_and(|ids| {
                    ids.iter().any(|i| {
                        i["txID"] == u["creationTxHash"]
                            && i["outputIndex"].as_u64().map(|n| n.to_string()).as_deref()
                                == u["outputIndex"].as_str()
                    })
                })
            });
            assert!(
                spends,
                "{} is not spent by {}: {tx}",
                u["utxoId"], u["consumingTxHash"]
            );
            assert!(
                u["consumingTxTimestamp"].as_u64().unwrap() >= u["timestamp"].as_u64().unwrap()
            );
            checked_spent += 1;
        }
    }
    assert!(
        checked_spent > 50,
        "only {checked_spent} spent UTXOs checked"
    );
}

/// Every page of `getUtxosByAddressesV2` on `chain` for `addresses` (the body) with `query`.
fn v2_pages(api: &DataApi, chain: &str, addresses: &str, query: &str) -> Vec<Value> {
    let body = json!({ "addresses": addresses }).to_string();
    let mut out = Vec::new();
    let mut token = String::new();
    loop {
        let path = format!("/v1/networks/local/blockchains/{chain}/utxos?{query}{token}");
        let r = request(&api.addr, "POST", &path, &[], &body);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let v = r.json();
        out.extend(v["utxos"].as_array().unwrap().iter().cloned());
        match v.get("nextPageToken") {
            Some(t) => token = format!("&pageToken={}", t.as_str().unwrap()),
            None => return out,
        }
        assert!(out.len() < 1_000_000, "paging does not end");
    }
}

#[test]
fn utxos_v2_take_the_addresses_in_the_body_and_larger_pages() {
    let up = upstream::start(7, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 7, 60);
    // Every devnet address at once: the X-Chain's unspent UTXOs are what the node reports for
    // each, each once, in pages of up to 1024.
    let all: Vec<String> = up.addrs.iter().map(|a| local_addr("X", a)).collect();
    let mut want = BTreeSet::new();
    for a in &all {
        want.extend(node_utxos(&up, a));
    }
    for size in [1024, 7] {
        let got = v2_pages(&api, "x-chain", &all.join(","), &format!("pageSize={size}"));
        let bytes: BTreeSet<String> = got
            .iter()
            .map(|u| u["utxoBytes"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(bytes.len(), got.len(), "a UTXO listed twice");
        assert_eq!(bytes, want, "pageSize={size}");
    }
    // The P- and C-Chain: the same listing as the GET form, spent included.
    for (chain, prefix) in [("p-chain", "P"), ("c-chain", "C")] {
        let joined: Vec<String> = up.addrs.iter().map(|a| local_addr(prefix, a)).collect();
        let joined = joined.join(",");
        let query = "includeSpent=true&sortOrder=asc&pageSize=100";
        let get = common::all_pages(
            &api,
            &format!("/v1/networks/local/blockchains/{chain}/utxos?addresses={joined}&{query}"),
            "utxos",
        );
        assert!(!get.is_empty(), "{chain}");
        assert_eq!(v2_pages(&api, chain, &joined, query), get, "{chain}");
    }
    // Bad bodies and parameters: 400 naming what is wrong.
    let post = |path: &str, body: &str| request(&api.addr, "POST", path, &[], body);
    let utxos = format!("{X}/utxos");
    let many: Vec<String> = (0..257).map(|_| all[0].clone()).collect();
    for (path, body, needle) in [
        (utxos.clone(), "{".to_owned(), "addresses"),
        (utxos.clone(), "{}".to_owned(), "addresses"),
        (utxos.clone(), r#"{"addresses": 5}"#.to_owned(), "addresses"),
        (
            utxos.clone(),
            r#"{"addresses": ""}"#.to_owned(),
            "addresses",
        ),
        (
            utxos.clone(),
            json!({ "addresses": local_addr("P", &up.addrs[0]) }).to_string(),
            "addresses",
        ),
        (
            utxos.clone(),
            json!({ "addresses": many.join(",") }).to_string(),
            "256",
        ),
        (
            format!("{utxos}?pageSize=1025"),
            json!({ "addresses": all[0] }).to_string(),
            "pageSize",
        ),
    ] {
        let m = post(&path, &body).error(400, "Bad Request");
        assert!(m.contains(needle), "{path} {body}: {m}");
    }
}

#[test]
fn pages_visit_every_utxo_once_in_every_order() {
    let up = upstream::start(3, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 3, 60);
    let addrs: Vec<String> = up
        .addrs
        .iter()
        .take(12)
        .map(|a| local_addr("X", a))
        .collect();
    let joined = addrs.join(",");
    for spent in [false, true] {
        // The union of the single-address listings, each UTXO once.
        let mut expected = BTreeSet::new();
        for a in &addrs {
            let (u, _) = all_pages(
                &api,
                &format!("addresses={a}&pageSize=100&includeSpent={spent}"),
            );
            expected.extend(u.iter().map(|u| u["utxoId"].as_str().unwrap().to_owned()));
        }
        assert!(expected.len() > 30);
        for sort_by in ["timestamp", "amount"] {
            for order in ["asc", "desc"] {
                let q = format!(
                    "addresses={joined}&pageSize=7&includeSpent={spent}&sortBy={sort_by}&sortOrder={order}"
                );
                let (items, pages) = all_pages(&api, &q);
                let ids: Vec<String> = items
                    .iter()
                    .map(|u| u["utxoId"].as_str().unwrap().to_owned())
                    .collect();
                let unique: BTreeSet<String> = ids.iter().cloned().collect();
                assert_eq!(unique.len(), ids.len(), "{q}: a UTXO listed twice");
                assert_eq!(unique, expected, "{q}");
                assert_eq!(pages, items.len().div_ceil(7).max(1), "{q}");
                let keys: Vec<u128> = items
                    .iter()
                    .map(|u| {
                        if sort_by == "timestamp" {
                            u128::from(u["timestamp"].as_u64().unwrap())
                        } else {
                            u["asset"]["amount"].as_str().unwrap().parse().unwrap()
                        }
                    })
                    .collect();
                let mut sorted = keys.clone();
                sorted.sort_unstable();
                if order == "desc" {
                    sorted.reverse();
                }
                assert_eq!(keys, sorted, "{q}");
            }
        }
    }
    // Filters: assetId and minUtxoAmount keep exactly the matching UTXOs.
    let avax = NetworkInfo::LOCAL.avax_asset_id.to_string();
    let (all, _) = all_pages(&api, &format!("addresses={joined}&pageSize=100"));
    let (only_avax, _) = all_pages(
        &api,
        &format!("addresses={joined}&pageSize=9&assetId={avax}"),
    );
    let expect: Vec<&Value> = all
        .iter()
        .filter(|u| u["asset"]["assetId"] == avax.as_str())
        .collect();
    assert_eq!(only_avax.len(), expect.len());
    let min = 1_000_000_000u64;
    for (sort_by, order) in [("amount", "asc"), ("amount", "desc"), ("timestamp", "desc")] {
        let (big, _) = all_pages(
            &api,
            &format!(
                "addresses={joined}&pageSize=5&minUtxoAmount={min}&sortBy={sort_by}&sortOrder={order}"
            ),
        );
        let expect = all
            .iter()
            .filter(|u| {
                u["asset"]["amount"]
                    .as_str()
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
                    >= min
            })
            .count();
        assert_eq!(big.len(), expect, "{sort_by} {order}");
    }
}

#[test]
fn tokens_and_parameters_are_checked() {
    let up = upstream::start(5, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 5, 60);
    let a = local_addr("X", &up.addrs[1]);
    let first = api
        .get(&format!("{X}/utxos?addresses={a}&pageSize=1"))
        .json();
    let token = first["nextPageToken"].as_str().unwrap().to_owned();
    assert_eq!(
        api.get(&format!(
            "{X}/utxos?addresses={a}&pageSize=1&pageToken={token}"
        ))
        .status,
        200
    );
    // Flipped, truncated, foreign (other filters) tokens are all 400.
    let mut flipped = token.clone().into_bytes();
    flipped[5] = if flipped[5] == b'A' { b'B' } else { b'A' };
    let flipped = String::from_utf8(flipped).unwrap();
    for (bad, q) in [
        (flipped.as_str(), format!("addresses={a}&pageSize=1")),
        (
            &token[..token.len() - 3],
            format!("addresses={a}&pageSize=1"),
        ),
        (
            token.as_str(),
            format!("addresses={a}&pageSize=1&sortOrder=asc"),
        ),
        (
            token.as_str(),
            format!("addresses={a}&pageSize=1&includeSpent=true"),
        ),
        ("not-a-token", format!("addresses={a}")),
    ] {
        let m = api
            .get(&format!("{X}/utxos?{q}&pageToken={bad}"))
            .error(400, "Bad Request");
        assert!(m.contains("pageToken"), "{m}");
    }
    // Every altered or forged token, and one of another address, is refused.
    common::assert_tokens_authenticated(
        &api,
        &format!("{X}/utxos?addresses={a}&pageSize=1"),
        &format!("{X}/utxos?addresses={a}&pageSize=1&includeSpent=true"),
    );
    // A token survives a restart (the secret is kept in the data directory).
    drop(api);
    let api = follow(dir.path(), &up, 5, 60);
    assert_eq!(
        api.get(&format!(
            "{X}/utxos?addresses={a}&pageSize=1&pageToken={token}"
        ))
        .status,
        200
    );
    // Parameters.
    let bad = |path: &str, status: u16, needle: &str| {
        let r = api.get(path);
        let reason = match status {
            400 => "Bad Request",
            404 => "Not Found",
            _ => unreachable!(),
        };
        let m = r.error(status, reason);
        assert!(m.contains(needle), "{path}: {m}");
    };
    bad(
        &format!("/v1/networks/moon/blockchains/x-chain/utxos?addresses={a}"),
        400,
        "network",
    );
    bad(
        &format!("/v1/networks/fuji/blockchains/x-chain/utxos?addresses={a}"),
        404,
        "fuji",
    );
    // The C-Chain's atomic memory takes `C-` addresses.
    bad(
        &format!("/v1/networks/local/blockchains/c-chain/utxos?addresses={a}"),
        400,
        "addresses",
    );
    bad(
        &format!("/v1/networks/local/blockchains/nope/utxos?addresses={a}"),
        400,
        "blockchainId",
    );
    bad(&format!("{X}/utxos"), 400, "addresses");
    bad(
        &format!("{X}/utxos?addresses=X-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqv3nmf5"),
        400,
        "addresses",
    );
    for q in [
        "pageSize=0",
        "pageSize=101",
        "pageSize=x",
        "sortBy=size",
        "sortOrder=up",
        "includeSpent=yes",
        "minUtxoAmount=-1",
        "assetId=zzz",
    ] {
        let name = q.split('=').next().unwrap();
        bad(&format!("{X}/utxos?addresses={a}&{q}"), 400, name);
    }
    bad(
        &format!("{X}/balances?addresses={a}&blockTimestamp=-5"),
        400,
        "blockTimestamp",
    );
    bad(
        "/v1/networks/local/blockchains/c-chain/vertices:listByHeight?vertexHeight=1",
        400,
        "blockchainId",
    );
    bad(&format!("{X}/vertices:listByHeight"), 400, "vertexHeight");
    bad(
        &format!("{X}/vertices:listByHeight?vertexHeight=-1"),
        400,
        "vertexHeight",
    );
    bad(
        &format!(
            "/v1/networks/local/blockchains/{}",
            "2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY"
        ),
        404,
        "not known",
    );
}

#[test]
fn vertices_balances_in_time_and_blockchains() {
    let up = upstream::start(9, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 9, 60);
    // Every vertex of the devnet at its height, paged one at a time, in both orders.
    let mut by_height: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    for r in up
        .records
        .iter()
        .filter(|r| r.path == snowline_types::container::IndexPath::XVtx)
    {
        let v = snowline_types::vertex::Vertex::parse(&r.bytes).unwrap();
        by_height
            .entry(v.vertex.height)
            .or_default()
            .push(r.id.to_string());
    }
    assert!(!by_height.is_empty());
    for (h, ids) in &by_height {
        for order in ["asc", "desc"] {
            let mut got = Vec::new();
            let mut token = String::new();
            loop {
                let v = api
                    .get(&format!("{X}/vertices:listByHeight?vertexHeight={h}&pageSize=1&sortOrder={order}{token}"))
                    .json();
                for x in v["vertices"].as_array().unwrap() {
                    assert_eq!(x["vertexHeight"], *h);
                    assert_eq!(
                        x["txCount"].as_u64().unwrap() as usize,
                        x["transactions"].as_array().unwrap().len()
                    );
                    got.push(x["vertexHash"].as_str().unwrap().to_owned());
                }
                match v.get("nextPageToken") {
                    Some(t) => token = format!("&pageToken={}", t.as_str().unwrap()),
                    None => break,
                }
            }
            let mut want = ids.clone();
            let mut got_sorted = got.clone();
            want.sort();
            got_sorted.sort();
            assert_eq!(got_sorted, want, "height {h} {order}");
        }
    }
    // Every vertex by hash, and the latest first, against the records' own bytes: the id is
    // sha256 of the vertex bytes, each tx id sha256 of the tx's bytes (avalanchego
    // `vms/avm/txs/tx.go` `Initialize`, `snow/engine/avalanche/vertex/stateless_vertex.go`
    // `hashing.ComputeHash256Array`), the index its position in `X/vtx`, the time its acceptance.
    let sha = |b: &[u8]| {
        use sha2::Digest as _;
        snowline_types::Id(sha2::Sha256::digest(b).into()).to_string()
    };
    let mut latest = Vec::new();
    for (index, r) in up
        .records
        .iter()
        .filter(|r| r.path == snowline_types::container::IndexPath::XVtx)
        .enumerate()
    {
        let v = snowline_types::vertex::Vertex::parse(&r.bytes)
            .unwrap()
            .vertex;
        let want = json!({
            "vertexHash": sha(&r.bytes),
            "parentHashes": v.parent_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "vertexHeight": v.height,
            "vertexIndex": index,
            "vertexTimestamp": r.timestamp_ns / 1_000_000_000,
            "txCount": v.txs.len(),
            "transactions": v.txs.iter().map(|t| sha(t.as_slice())).collect::<Vec<_>>(),
            "vertexSizeBytes": r.bytes.len(),
        });
        assert_eq!(
            want["vertexHash"],
            json!(r.id.to_string()),
            "the record's id"
        );
        let path = format!("{X}/vertices/{}", r.id);
        let got = api.get(&path);
        assert_eq!(got.status, 200, "{path}: {}", got.body);
        assert_eq!(got.json(), want, "{path}");
        latest.push(want);
    }
    latest.reverse();
    for size in [1, 7, 100] {
        let mut got = Vec::new();
        let mut token = String::new();
        loop {
            let v = api
                .get(&format!("{X}/vertices?pageSize={size}{token}"))
                .json();
            assert_eq!(
                v["chainInfo"],
                json!({"chainName": "x-chain", "network": "local"})
            );
            got.extend(v["vertices"].as_array().unwrap().iter().cloned());
            match v.get("nextPageToken") {
                Some(t) => token = format!("&pageToken={}", t.as_str().unwrap()),
                None => break,
            }
        }
        assert_eq!(got, latest, "latest vertices, pageSize={size}");
    }
    let unknown = snowline_types::Id([9; 32]);
    assert_eq!(api.get(&format!("{X}/vertices/{unknown}")).status, 404);
    assert_eq!(api.get(&format!("{X}/vertices/zz")).status, 400);
    assert_eq!(api.get(&format!("{X}/vertices?pageSize=101")).status, 400);
    assert_eq!(
        api.get("/v1/networks/local/blockchains/p-chain/vertices")
            .status,
        400
    );
    // Balances as of before any container: only what genesis gave.
    let a = local_addr("X", &up.addrs[1]);
    let early = api
        .get(&format!(
            "{X}/balances?addresses={a}&blockTimestamp=1600000000"
        ))
        .json();
    assert_eq!(early["balances"]["unlocked"], json!([]), "{early}");
    let now = api.get(&format!("{X}/balances?addresses={a}")).json();
    assert_ne!(now["balances"]["unlocked"], json!([]));
    assert_eq!(
        now["chainInfo"],
        json!({"chainName": "x-chain", "network": "local"})
    );
    // The primary chains.
    for (alias, name) in [
        ("p-chain", "P-Chain"),
        ("x-chain", "X-Chain"),
        ("c-chain", "C-Chain"),
    ] {
        let b = api
            .get(&format!("/v1/networks/local/blockchains/{alias}"))
            .json();
        assert_eq!(b["blockchainName"], name);
        assert_eq!(b["subnetId"], "11111111111111111111111111111111LpoYY");
        let by_id = api.get(&format!(
            "/v1/networks/local/blockchains/{}",
            b["blockchainId"].as_str().unwrap()
        ));
        assert_eq!(by_id.json(), b);
    }
    assert_eq!(
        api.get("/v1/networks/local/blockchains/c-chain").json()["evmChainId"],
        43112
    );
}

/// UTXOs of every devnet address, spent included: how much of the chain the Data API shows.
fn utxo_count(api: &DataApi, up: &upstream::Upstream) -> usize {
    up.addrs
        .iter()
        .map(|a| {
            all_pages(
                api,
                &format!(
                    "addresses={}&includeSpent=true&pageSize=100",
                    local_addr("X", a)
                ),
            )
            .0
            .len()
        })
        .sum()
}

#[test]
fn new_upstream_containers_appear_and_outages_show_in_readyz_and_metrics() {
    // The upstream starts without its last 24 X-Chain containers (linear-era blocks) and the
    // P-Chain blocks interleaved with and after them.
    let up = upstream::start_partial(11, 0, usize::MAX);
    let x_at: Vec<usize> = (0..up.records.len())
        .filter(|&i| snowline_chain_x::X_PATHS.contains(&up.records[i].path))
        .collect();
    let (cut, mid) = (x_at[x_at.len() - 24], x_at[x_at.len() - 12]);
    drop(up);
    let up = upstream::start_partial(11, 0, cut);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 11, 60);
    // The ingest gauges are refreshed every second.
    assert!(api.wait_until(10, |a| {
        let m = a.get("/metrics").body;
        m.contains("snowline_ingest_upstream_up 1")
            && m.contains("snowline_ingest_behind_containers 0")
    }));
    // The store's memory is shown too: what was indexed sits in memtables.
    let m = api.get("/metrics").body;
    let memtables = m.lines().find_map(|l| {
        l.strip_prefix("snowline_store_memtable_bytes ")?
            .parse::<u64>()
            .ok()
    });
    assert!(memtables.is_some_and(|b| b > 0), "{m}");
    assert!(m.contains("\nsnowline_store_block_cache_bytes "), "{m}");
    let before = utxo_count(&api, &up);
    // The node accepts the rest: it shows up without a restart.
    let accepted = std::time::Instant::now();
    upstream::append(&up.store, &up.records[cut..mid]);
    assert!(api.wait_until(30, |a| utxo_count(a, &up) > before));
    let after_append = utxo_count(&api, &up);
    eprintln!(
        "new containers visible through the Data API {} ms after the upstream accepted them",
        accepted.elapsed().as_millis()
    );
    // The upstream goes away: readiness and metrics say so; what is indexed is still served.
    let up_addr = up.url.clone();
    drop(up);
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 503));
    let r = api.get("/readyz");
    assert!(r.body.contains("ingest"), "{}", r.body);
    assert!(api.wait_until(10, |a| {
        a.get("/metrics")
            .body
            .contains("snowline_ingest_upstream_up 0")
    }));
    assert_eq!(
        api.get(&format!("{X}/vertices:listByHeight?vertexHeight=0"))
            .status,
        200
    );
    // It comes back where it was, with the last 12 containers accepted meanwhile: ingestion
    // resumes by itself, picks them up, and readiness returns.
    let up = upstream::start_at(11, 0, usize::MAX, up_addr.trim_start_matches("http://"));
    assert!(api.wait_until(60, |a| a.get("/readyz").status == 200));
    assert!(api.wait_until(10, |a| {
        a.get("/metrics")
            .body
            .contains("snowline_ingest_upstream_up 1")
    }));
    assert!(api.wait_until(30, |a| utxo_count(a, &up) > after_append));
}

#[test]
fn an_imported_file_serves_what_following_serves() {
    // `fixtures/devnet` is the small devnet of seed 1 (docs/devnet.md).
    let up = upstream::start(1, 0);
    let followed_dir = tempfile::tempdir().unwrap();
    let followed = follow(followed_dir.path(), &up, 1, 60);
    let want = common::view(&followed, &up.addrs);
    drop(followed);
    let dir = tempfile::tempdir().unwrap();
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/devnet/containers.jsonl"
    );
    let d = dir.path().to_str().unwrap();
    let (ok, out, err) = common::run(&["import", "--data-dir", d, "--genesis", "devnet", fixture]);
    assert!(ok, "{err}");
    let lines = std::fs::read_to_string(fixture).unwrap().lines().count();
    assert!(
        out.contains(&format!("imported {lines} containers")),
        "{out}"
    );
    assert!(
        err.contains(&format!("{lines} / {lines} containers imported (100%)")),
        "progress line: {err}"
    );
    let served = start(dir.path(), &["--no-rate-limits"]);
    let got = common::view(&served, &up.addrs);
    assert_eq!(got.len(), want.len());
    for ((q, w), (_, g)) in want.iter().zip(&got) {
        assert_eq!(g, w, "{q}");
    }
    // A second import of the same file adds nothing.
    drop(served);
    let (ok, out, _) = common::run(&["import", "--data-dir", d, "--genesis", "devnet", fixture]);
    assert!(
        ok && out.contains(&format!("imported 0 containers ({lines} already present)")),
        "{out}"
    );
}
