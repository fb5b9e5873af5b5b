//! The real `metrics-api` binary on port 0 over an index holding a devnet's P-Chain (built here
//! as data-api builds it: the genesis applied, the P-Chain blocks ingested through `PChain`),
//! opened as a secondary: every staking metric over HTTP, page by page, equals the daily points
//! `PChainPages::staking_metrics` reads (itself checked against a model of the txs in
//! `chain-p`), in v2's form and the legacy v1 form (`StakingInformationResponse`), and the errors
//! are the spec's shape: 400 for bad parameters, 404 for another
//! network or an unknown subnet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use serde_json::{Value, json};
use snowline_chain_evm::parse::Block;
use snowline_chain_metrics::ChainMetrics;
use snowline_chain_p::metrics::{StakingFigures, StakingQuery};
use snowline_chain_p::pages::PChainPages;
use snowline_derive::write_batch;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_store::WriteBatch;
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::evm::{Address, B256};
use snowline_types::platformvm::{UnsignedTx, parse_block};

use common::pchain::{index_devnet, start};

/// A metric's value among the figures.
type Figure = fn(&StakingFigures) -> u128;

#[test]
fn staking_metrics_over_http_equal_the_p_chain_reads() {
    let dir = tempfile::tempdir().unwrap();
    let store = index_devnet(dir.path());
    let pages = PChainPages::new(Arc::clone(&store));
    let days = pages
        .staking_metrics(&StakingQuery {
            subnet: Id::default(),
            from: 0,
            to: u64::MAX,
            page_size: 2_160,
        })
        .unwrap()
        .points;
    assert!(days.len() >= 2, "{} days", days.len());
    let api = start(dir.path());

    let metrics: [(&str, Figure); 4] = [
        ("validatorCount", |f| u128::from(f.validator_count)),
        ("validatorWeight", |f| f.validator_weight),
        ("delegatorCount", |f| u128::from(f.delegator_count)),
        ("delegatorWeight", |f| f.delegator_weight),
    ];
    for (metric, value) in metrics {
        let want: Vec<Value> = days
            .iter()
            .map(|p| {
                let mut v = json!({"timestamp": p.timestamp, "value": value(&p.figures)});
                if p.in_progress {
                    v["inProgress"] = json!(true);
                }
                v
            })
            .collect();
        for network in ["local"] {
            for size in [1, 2, 100] {
                let path = format!("/v2/networks/{network}/metrics/{metric}?pageSize={size}");
                assert_eq!(api.series(&path), want, "{path}");
            }
        }
        // The primary network's id as subnetId is the default.
        let path = format!(
            "/v2/networks/local/metrics/{metric}?subnetId=11111111111111111111111111111111LpoYY"
        );
        assert_eq!(api.series(&path), want, "{path}");
        // A range: the days from the one holding startTimestamp up to endTimestamp.
        let last = days[0].timestamp;
        let path = format!(
            "/v2/networks/local/metrics/{metric}?startTimestamp={}&endTimestamp={}",
            last + 5,
            last + 10
        );
        assert_eq!(api.series(&path), want[..1], "{path}");

        // The legacy route: the same points with their subnet, `from`/`to`, `startKey`.
        let (who, what) = match metric {
            "validatorCount" => ("validators", "count"),
            "validatorWeight" => ("validators", "weight"),
            "delegatorCount" => ("delegators", "count"),
            _ => ("delegators", "weight"),
        };
        let primary = "11111111111111111111111111111111LpoYY";
        let legacy = format!("/v1/{who}/network/local/subnetId/{primary}/{what}");
        let with_subnet: Vec<Value> = want
            .iter()
            .map(|p| {
                let mut p = p.clone();
                p["subnetID"] = json!(primary);
                p
            })
            .collect();
        let (status, v) = api.get(&legacy);
        assert_eq!(status, 200, "{legacy}: {v}");
        assert_eq!(v["status"], 200);
        assert_eq!(v["lastRun"], json!(pages.tip().unwrap().chain_time), "{v}");
        assert_eq!(v["results"], json!(with_subnet), "{legacy}");
        assert!(v.get("nextPageStartKey").is_none(), "{v}");
        let path = format!("{legacy}?from={}&to={}", last + 5, last + 10);
        let (_, v) = api.get(&path);
        assert_eq!(v["results"], json!(with_subnet[..1]), "{path}");
        let path = format!("{legacy}?to={}", last - 1);
        let (_, v) = api.get(&path);
        assert_eq!(v["results"], json!(with_subnet[1..]), "{path}");
    }
    assert!(days.iter().any(|p| p.figures.validator_count > 0));
    let primary = "11111111111111111111111111111111LpoYY";
    for (path, status) in [
        (
            format!("/v1/validators/network/devnet/subnetId/{primary}/count"),
            400,
        ),
        (
            format!("/v1/validators/network/mainnet/subnetId/{primary}/count"),
            404,
        ),
        (
            format!("/v1/delegators/network/fuji/subnetId/{primary}/weight"),
            404,
        ),
        (
            "/v1/validators/network/local/subnetId/nope/weight".to_owned(),
            400,
        ),
        (
            format!(
                "/v1/delegators/network/local/subnetId/{}/count",
                Id::from([7; 32])
            ),
            404,
        ),
        (
            format!("/v1/validators/network/local/subnetId/{primary}/count?from=x"),
            400,
        ),
        (
            format!("/v1/validators/network/local/subnetId/{primary}/count?from=10&to=5"),
            400,
        ),
        (
            format!("/v1/validators/network/local/subnetId/{primary}/count?startKey=bogus"),
            400,
        ),
    ] {
        let (got, v) = api.get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
    }

    // Errors: the spec's shape with an array message.
    let unknown_subnet = format!(
        "/v2/networks/local/metrics/validatorCount?subnetId={}",
        Id::from([7; 32])
    );
    let cases = [
        ("/v2/networks/local/metrics/stakerCount", 400),
        ("/v2/networks/devnet/metrics/validatorCount", 400),
        ("/v2/networks/mainnet/metrics/validatorCount", 404),
        ("/v2/networks/fuji/metrics/validatorCount", 404),
        ("/v2/networks/testnet/metrics/validatorCount", 404),
        (
            "/v2/networks/local/metrics/validatorCount?subnetId=nope",
            400,
        ),
        (unknown_subnet.as_str(), 404),
        ("/v2/networks/local/metrics/validatorCount?pageSize=0", 400),
        (
            "/v2/networks/local/metrics/validatorCount?pageSize=2161",
            400,
        ),
        (
            "/v2/networks/local/metrics/validatorCount?startTimestamp=-1",
            400,
        ),
        (
            "/v2/networks/local/metrics/validatorCount?startTimestamp=10&endTimestamp=5",
            400,
        ),
        (
            "/v2/networks/local/metrics/validatorCount?pageToken=bogus",
            400,
        ),
    ];
    for (path, status) in cases {
        let (got, v) = api.get(path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
        assert_eq!(v["statusCode"], json!(status), "{path}: {v}");
    }
    // A token sent with another query is refused.
    let (_, first) = api.get("/v2/networks/local/metrics/validatorCount?pageSize=1");
    let token = first["nextPageToken"].as_str().unwrap();
    let (status, v) = api.get(&format!(
        "/v2/networks/local/metrics/delegatorCount?pageSize=1&pageToken={token}"
    ));
    assert_eq!(status, 400, "{v}");
}

/// The small devnet's P-Chain blocks.
fn p_blocks() -> Vec<ContainerRecord> {
    let devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    devnet
        .map(|r| r.unwrap())
        .filter(|r| r.path == IndexPath::PBlock)
        .collect()
}

/// The `CreateChainTx`s whose genesis names EVM chain `evm_chain_id` in `blocks`: (blockchain
/// id, subnet id), read with snowline-types' P-Chain block parser.
fn created_chains(blocks: &[ContainerRecord], evm_chain_id: u64) -> Vec<(Id, Id)> {
    let mut out = Vec::new();
    for record in blocks {
        let block = parse_block(&record.bytes).unwrap().block;
        for (tx, id) in block.block.txs().into_iter().zip(&block.tx_ids) {
            if let UnsignedTx::CreateChainTx(c) = &tx.unsigned {
                let genesis: Value = serde_json::from_slice(&c.genesis_data).unwrap_or_default();
                if genesis["config"]["chainId"] == json!(evm_chain_id) {
                    out.push((*id, c.subnet_id));
                }
            }
        }
    }
    out
}

/// The OpenAPI's `Chain` requires `subnetId`: an L1 a sources file describes by its blockchain
/// id only gets the subnet its `CreateChainTx` names, from the P-Chain index.
#[test]
fn a_chain_listed_without_its_subnet_gets_the_p_chain_s() {
    const L1: u64 = 99_999;
    let created = created_chains(&p_blocks(), L1);
    assert_eq!(created.len(), 1, "one chain {L1} created: {created:?}");
    let (blockchain, subnet) = created[0];
    assert_ne!(subnet, Id::default(), "an L1's own subnet");

    let dir = tempfile::tempdir().unwrap();
    let store = index_devnet(dir.path());
    // One block of the L1 in the metrics tables: the chain has metrics.
    let mut metrics = ChainMetrics::open(&store, L1).unwrap();
    let block = Block {
        number: 0,
        hash: B256::with_last_byte(1),
        parent: B256::ZERO,
        timestamp: 1_700_000_000,
        miner: Address::ZERO,
        gas_limit: 8_000_000,
        gas_used: 0,
        base_fee: None,
        block_gas_cost: None,
        txs: Vec::new(),
    };
    metrics.add(&store, &block).unwrap();
    write_batch(&store, &mut metrics, &mut WriteBatch::new()).unwrap();
    drop(store);
    let sources = dir.path().join("evm.json");
    let file = json!({"chains": [{
        "chainId": L1,
        "rpcUrl": "http://127.0.0.1:1",
        "network": "local",
        "chainName": "the l1",
        "blockchainId": blockchain.to_string(),
        "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18},
    }]});
    std::fs::write(&sources, file.to_string()).unwrap();
    let api = common::start(
        dir.path(),
        &[
            "--network",
            "local",
            "--no-rate-limits",
            "--evm-config",
            sources.to_str().unwrap(),
        ],
    );
    let want = json!({
        "evmChainId": L1,
        "chainName": "the l1",
        "blockchainId": blockchain.to_string(),
        "subnetId": subnet.to_string(),
        "network": "testnet",
    });
    for path in ["/v2/chains/99999", &format!("/v2/chains/{blockchain}")] {
        let (status, v) = api.get(path);
        assert_eq!((status, &v), (200, &want), "{path}");
    }
    let (status, v) = api.get("/v2/chains");
    assert_eq!((status, v), (200, json!({"chains": [want]})));
}
