//! The legacy OpenAPI's listings on the real `metrics-api` binary on port 0, over an index
//! holding a devnet's P-Chain (built as data-api builds it) and metrics of an L1 it created:
//! `/v1/chains/network/{network}`, `/v1/subnets/network/{network}` (with and without
//! `subnetId/{subnetID}`, with `from`/`to`) and `/v1/mapping[/{subnetID}]` equal a model read
//! here from the devnet's genesis and P-Chain blocks with snowline-types' parser (genesis
//! chains at the genesis time; `CreateChainTx`, `CreateSubnetTx` at their block's time; a
//! subnet's owner after its last `TransferSubnetOwnershipTx`); each subnet's `validatorCount`
//! is the v2 staking series' latest; bad input is a 400 or 404 in the spec's shape.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use snowline_chain_evm::parse::Block;
use snowline_chain_metrics::ChainMetrics;
use snowline_derive::write_batch;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_store::WriteBatch;
use snowline_types::Id;
use snowline_types::address::format_address;
use snowline_types::container::IndexPath;
use snowline_types::evm::{Address, B256};
use snowline_types::platformvm::{UnsignedTx, parse_block};

use common::pchain::index_devnet;

/// The L1 whose metrics the index holds (the devnet creates one chain with this EVM id).
const L1: u64 = 99_999;

/// The model: chains and subnets as the legacy listings render them, and the L1's blockchain.
struct Model {
    chains: Vec<Value>,
    /// Subnet id -> (`controlKeys`, `threshold`, `timestamp`).
    subnets: BTreeMap<String, (Vec<String>, u32, u64)>,
    l1: (String, Value),
}

fn model() -> Model {
    let devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let genesis = devnet.p_genesis();
    let hrp = snowline_types::network::hrp(devnet.genesis().network.network_id);
    let records: Vec<_> = Devnet::generate(DevnetConfig::small())
        .unwrap()
        .map(|r| r.unwrap())
        .filter(|r| r.path == IndexPath::PBlock)
        .collect();
    let mut chains = Vec::new();
    let mut subnets = BTreeMap::new();
    let mut l1 = None;
    let mut chain =
        |id: Id, c: &snowline_types::platformvm::txs::subnet::CreateChainTx, time: u64| {
            let genesis: Value = serde_json::from_slice(&c.genesis_data).unwrap_or_default();
            if genesis["config"]["chainId"] == json!(L1) {
                l1 = Some((id.to_string(), json!(time)));
            }
            chains.push(json!({
                "subnetID": c.subnet_id.to_string(),
                "timestamp": time,
                "blockchainID": id.to_string(),
                "vmID": c.vm_id.to_string(),
                "chainName": c.chain_name,
            }));
        };
    for tx in &genesis.chains {
        let UnsignedTx::CreateChainTx(c) = &tx.tx.unsigned else {
            panic!("a genesis chain that is not a CreateChainTx");
        };
        chain(tx.id, c, genesis.timestamp);
    }
    let keys = |o: &snowline_types::platformvm::Owner| {
        let o = o.owners();
        let keys = o.addrs.iter().map(|a| format_address("P", hrp, a).unwrap());
        (keys.collect::<Vec<_>>(), o.threshold)
    };
    for record in &records {
        let block = parse_block(&record.bytes).unwrap().block;
        let time = block.block.timestamp().expect("Banff blocks");
        for (tx, id) in block.block.txs().into_iter().zip(&block.tx_ids) {
            match &tx.unsigned {
                UnsignedTx::CreateChainTx(c) => chain(*id, c, time),
                UnsignedTx::CreateSubnetTx(s) => {
                    let (k, t) = keys(&s.owner);
                    subnets.insert(id.to_string(), (k, t, time));
                }
                UnsignedTx::TransferSubnetOwnershipTx(s) => {
                    let (k, t) = keys(&s.owner);
                    let row = subnets.get_mut(&s.subnet_id.to_string()).unwrap();
                    (row.0, row.1) = (k, t);
                }
                _ => {}
            }
        }
    }
    chains.sort_by_key(|c| {
        (
            c["timestamp"].as_u64().unwrap(),
            c["blockchainID"].as_str().unwrap().to_owned(),
        )
    });
    Model {
        chains,
        subnets,
        l1: l1.expect("the devnet creates the L1"),
    }
}

#[test]
fn legacy_listings_equal_the_p_chain_model() {
    let m = model();
    assert!(m.chains.len() >= 3, "{:?}", m.chains);
    assert!(!m.subnets.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let store = index_devnet(dir.path());
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
    let (l1_blockchain, l1_created) = m.l1.clone();
    let sources = dir.path().join("evm.json");
    let file = json!({"chains": [{
        "chainId": L1, "rpcUrl": "http://127.0.0.1:1", "network": "local",
        "chainName": "the l1", "blockchainId": l1_blockchain,
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
    let get = |path: &str| {
        let (status, v) = api.get(path);
        assert_eq!(status, 200, "{path}: {v}");
        assert_eq!(v["status"], 200, "{path}");
        assert!(v["lastRun"].as_u64().unwrap() > 0, "{path}");
        assert!(v.get("nextPageStartKey").is_none(), "{path}: {v}");
        v["results"].clone()
    };

    // Chains: all, by subnet, by creation time.
    assert_eq!(get("/v1/chains/network/local"), json!(m.chains));
    let subnet_of_l1 = m
        .chains
        .iter()
        .find(|c| c["blockchainID"] == json!(l1_blockchain))
        .unwrap()["subnetID"]
        .clone();
    let mut subnet_ids: Vec<String> = m.subnets.keys().cloned().collect();
    subnet_ids.push(Id::default().to_string());
    for subnet in &subnet_ids {
        let want: Vec<&Value> = m
            .chains
            .iter()
            .filter(|c| c["subnetID"] == json!(subnet))
            .collect();
        let path = format!("/v1/chains/network/local/subnetId/{subnet}");
        assert_eq!(get(&path), json!(want), "{path}");
    }
    for c in &m.chains {
        let t = c["timestamp"].as_u64().unwrap();
        let want: Vec<&Value> = m.chains.iter().filter(|c| c["timestamp"] == t).collect();
        let path = format!("/v1/chains/network/local?from={t}&to={t}");
        assert_eq!(get(&path), json!(want), "{path}");
        let later: Vec<&Value> = m
            .chains
            .iter()
            .filter(|c| c["timestamp"].as_u64().unwrap() > t)
            .collect();
        let path = format!("/v1/chains/network/local?from={}", t + 1);
        assert_eq!(get(&path), json!(later), "{path}");
    }

    // Subnets, each with the v2 staking series' latest validator count.
    let mut subnets: Vec<Value> = m
        .subnets
        .iter()
        .map(|(id, (keys, threshold, time))| {
            let (_, v2) = api.get(&format!(
                "/v2/networks/local/metrics/validatorCount?subnetId={id}&pageSize=1"
            ));
            json!({"controlKeys": keys, "threshold": threshold, "subnetID": id,
                "timestamp": time, "validatorCount": v2["results"][0]["value"]})
        })
        .collect();
    subnets.sort_by_key(|s| {
        (
            s["timestamp"].as_u64().unwrap(),
            s["subnetID"].as_str().unwrap().to_owned(),
        )
    });
    assert_eq!(get("/v1/subnets/network/local"), json!(subnets));
    for s in &subnets {
        let id = s["subnetID"].as_str().unwrap();
        let path = format!("/v1/subnets/network/local/subnetId/{id}");
        assert_eq!(get(&path), json!([s]), "{path}");
    }
    let primary = Id::default().to_string();
    let path = format!("/v1/subnets/network/local/subnetId/{primary}");
    assert_eq!(get(&path), json!([]), "{path}");
    let last = subnets.last().unwrap()["timestamp"].as_u64().unwrap();
    assert_eq!(
        get(&format!("/v1/subnets/network/local?to={}", last - 1)),
        json!(
            subnets
                .iter()
                .filter(|s| s["timestamp"].as_u64().unwrap() < last)
                .collect::<Vec<_>>()
        )
    );

    // Mapping: the served EVM chains the P-Chain created.
    let mapping = json!([{"chainID": L1, "subnetID": subnet_of_l1, "timestamp": l1_created,
        "network": "local"}]);
    assert_eq!(get("/v1/mapping"), mapping);
    let path = format!("/v1/mapping/{}", subnet_of_l1.as_str().unwrap());
    assert_eq!(get(&path), mapping);
    assert_eq!(get(&format!("/v1/mapping/{primary}")), json!([]));
    let t = l1_created.as_u64().unwrap();
    assert_eq!(get(&format!("/v1/mapping?from={}", t + 1)), json!([]));
    assert_eq!(get(&format!("/v1/mapping?from={t}&to={t}")), mapping);

    // Bad input.
    let unknown = Id::from([7; 32]);
    for (path, status) in [
        ("/v1/chains/network/mainnet".to_owned(), 404),
        ("/v1/subnets/network/fuji".to_owned(), 404),
        ("/v1/chains/network/devnet".to_owned(), 400),
        ("/v1/chains/network/local/subnetId/nope".to_owned(), 400),
        (format!("/v1/chains/network/local/subnetId/{unknown}"), 404),
        (format!("/v1/subnets/network/local/subnetId/{unknown}"), 404),
        ("/v1/mapping/nope".to_owned(), 400),
        ("/v1/mapping?from=x".to_owned(), 400),
        ("/v1/subnets/network/local?from=10&to=5".to_owned(), 400),
        ("/v1/chains/network/local?startKey=bogus".to_owned(), 400),
    ] {
        let (got, v) = api.get(&path);
        assert_eq!(got, status, "{path}: {v}");
        assert!(
            v["message"].as_array().is_some_and(|m| m.len() == 1),
            "{path}: {v}"
        );
    }
}
