//! The C-Chain's atomic txs end to end: a devnet served as a node would serve it, `data-api`
//! following it, and `getTxByHash` of every C-Chain `ImportTx` and `ExportTx`, the chain's
//! latest txs (both orders, every page size, by type, by time window) and the txs of every
//! devnet address (bech32 owners of the UTXOs the txs move, EVM addresses they credit or debit,
//! alone and together) equal an independent model read from the devnet's own container bytes
//! (`common::cmodel`, with the P-Chain replay `common::pmodel`). Shapes are the Glacier
//! OpenAPI's `CChainImportTransaction` / `CChainExportTransaction`
//! (`glacier-data-api.json`); bad input is a 400 in the spec's error shape.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeSet;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use common::cmodel::{CModel, CTx};
use common::pmodel::PModel;
use common::{DataApi, follow, local_addr, local_addrs, upstream};
use serde_json::{Value, json};
use snowline_types::container::ContainerRecord;
use snowline_types::secp256k1::PublicKey;
use snowline_types::{Id, ShortId};

const C: &str = "/v1/networks/local/blockchains/c-chain";

struct World {
    _up: upstream::Upstream,
    api: DataApi,
    model: CModel,
    keys: Vec<ShortId>,
    /// The EVM address of each key.
    eths: Vec<[u8; 20]>,
    _dir: tempfile::TempDir,
}

fn world(seed: u64) -> World {
    let up = upstream::start(seed, 0);
    let (mut devnet, _) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    let p = PModel::replay(&devnet, &records);
    let model = CModel::replay(&devnet, &records, &p);
    assert!(
        model.txs.values().any(|t| t.export) && model.txs.values().any(|t| !t.export),
        "the devnet has C-Chain imports and exports"
    );
    let keys = devnet.keys().addrs().to_vec();
    let eths = (0..keys.len())
        .map(|i| {
            let key = devnet.keys().key(u32::try_from(i).unwrap()).unwrap();
            key.public_key().eth_address()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    // Caught up: every C-Chain tx listed, with every UTXO it moved, consumed as the model says.
    let all: BTreeSet<Id> = model.txs.keys().copied().collect();
    assert!(
        api.wait_until(120, |a| {
            listed(a, &format!("{C}/transactions?pageSize=100")) == all
                && model.txs.values().all(|t| settled(a, &model, t))
        }),
        "the C-Chain's atomic txs never all showed"
    );
    World {
        _up: up,
        api,
        model,
        keys,
        eths,
        _dir: dir,
    }
}

/// Whether tx `t` shows with every UTXO it moved, each consumed as the model says.
fn settled(api: &DataApi, m: &CModel, t: &CTx) -> bool {
    let r = api.get(&format!("{C}/transactions/{}", t.id));
    if r.status != 200 {
        return false;
    }
    let v = r.json();
    let key = if t.export {
        "emittedUtxos"
    } else {
        "consumedUtxos"
    };
    let Some(utxos) = v[key].as_array() else {
        return false;
    };
    utxos.len() == t.utxos.len()
        && utxos.iter().zip(&t.utxos).all(|(u, id)| {
            let consumer = m.utxos[id].consumed.map(|e| e.tx.to_string());
            u["consumingTxHash"].as_str() == consumer.as_deref()
        })
}

/// The tx ids of every page of `path`, each page checked for its chain info.
fn pages(api: &DataApi, path: &str) -> Vec<Id> {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut out = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let p = match &token {
            Some(t) => format!("{path}{sep}pageToken={t}"),
            None => path.to_owned(),
        };
        let r = api.get(&p);
        assert_eq!(r.status, 200, "{p}: {}", r.body);
        let v = r.json();
        assert_eq!(
            v["chainInfo"],
            json!({"chainName": "c-chain", "network": "local"}),
            "{p}"
        );
        for t in v["transactions"].as_array().unwrap() {
            out.push(t["txHash"].as_str().unwrap().parse().unwrap());
        }
        match v.get("nextPageToken").and_then(Value::as_str) {
            Some(t) => token = Some(t.to_owned()),
            None => return out,
        }
        assert!(out.len() < 100_000, "{path}: paging does not end");
    }
}

/// The set of txs `path` lists, each exactly once.
fn listed(api: &DataApi, path: &str) -> BTreeSet<Id> {
    let ids = pages(api, path);
    let set: BTreeSet<Id> = ids.iter().copied().collect();
    assert_eq!(set.len(), ids.len(), "{path}: a tx listed twice");
    set
}

fn avax(m: &CModel, amount: u128) -> Value {
    json!({
        "assetId": m.net.avax_asset_id.to_string(),
        "name": "Avalanche",
        "symbol": "AVAX",
        "denomination": 9,
        "type": "secp256k1",
        "amount": amount.to_string(),
    })
}

fn sum(amounts: impl Iterator<Item = u64>) -> u128 {
    amounts.map(u128::from).sum()
}

/// `0x` and the lower-case hex of an EVM address.
fn evm(a: &[u8; 20]) -> String {
    format!("0x{}", hex_lower(a))
}

fn hex_lower(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Checks a served credential: the model's signature, and a public key that verifies it over
/// the tx's preimage and whose address `signer` accepts.
fn check_credential(t: &CTx, served: &Value, sig: &[u8; 65], signer: impl Fn(&PublicKey) -> bool) {
    let got = STANDARD_NO_PAD
        .decode(served["signature"].as_str().unwrap())
        .unwrap();
    assert_eq!(got, sig.to_vec(), "tx {}: signature", t.id);
    let key = STANDARD_NO_PAD
        .decode(served["publicKey"].as_str().unwrap())
        .unwrap();
    let key = PublicKey::from_bytes(&key).unwrap();
    assert!(key.verify(&t.unsigned, sig), "tx {}: key verifies", t.id);
    assert!(signer(&key), "tx {}: the key is the signer's", t.id);
}

/// `getTxByHash` of `t` equals the model's record.
fn check_tx(w: &World, t: &CTx) {
    let m = &w.model;
    let path = format!("{C}/transactions/{}", t.id);
    let r = w.api.get(&path);
    assert_eq!(r.status, 200, "{path}: {}", r.body);
    let v = r.json();
    let (c, other) = (m.net.c_chain_id.to_string(), t.other.to_string());
    let (source, destination) = if t.export { (&c, &other) } else { (&other, &c) };
    for (k, want) in [
        ("txHash", json!(t.id.to_string())),
        (
            "txType",
            json!(if t.export { "ExportTx" } else { "ImportTx" }),
        ),
        ("blockHeight", json!(t.number)),
        ("blockHash", json!(format!("0x{}", hex_lower(&t.hash)))),
        ("timestamp", json!(t.ts)),
        ("memo", json!("0x")),
        ("sourceChain", json!(source)),
        ("destinationChain", json!(destination)),
    ] {
        assert_eq!(v[k], want, "{path}: {k}");
    }
    let evm_total = avax(m, sum(t.evm.iter().map(|(_, a)| *a)));
    let moved_total = avax(m, sum(t.moved.iter().copied()));
    let (unlocked, created) = if t.export {
        (&evm_total, &moved_total)
    } else {
        (&moved_total, &evm_total)
    };
    assert_eq!(v["amountUnlocked"], json!([unlocked]), "{path}");
    assert_eq!(v["amountCreated"], json!([created]), "{path}");
    let (evm_key, utxo_key, absent) = if t.export {
        ("evmInputs", "emittedUtxos", ["evmOutputs", "consumedUtxos"])
    } else {
        ("evmOutputs", "consumedUtxos", ["evmInputs", "emittedUtxos"])
    };
    for k in absent {
        assert!(v.get(k).is_none(), "{path}: {k} on a {}", v["txType"]);
    }
    let served_evm = v[evm_key].as_array().unwrap();
    assert_eq!(served_evm.len(), t.evm.len(), "{path}: {evm_key}");
    for (i, (e, (addr, amount))) in served_evm.iter().zip(&t.evm).enumerate() {
        let key = if t.export { "fromAddress" } else { "toAddress" };
        let served = e[key].as_str().unwrap();
        assert_eq!(served.to_lowercase(), evm(addr), "{path}: {key}");
        assert_ne!(served, evm(addr), "{path}: {key} is EIP-55 mixed case");
        assert_eq!(e["asset"], avax(m, u128::from(*amount)), "{path}");
        if t.export {
            let creds = e["credentials"].as_array().unwrap();
            assert_eq!(
                creds.len(),
                t.sigs[i].len(),
                "{path}: credentials of input {i}"
            );
            for (c, sig) in creds.iter().zip(&t.sigs[i]) {
                check_credential(t, c, sig, |k| k.eth_address() == *addr);
            }
        }
    }
    let utxos = v[utxo_key].as_array().unwrap();
    let ids: Vec<Id> = utxos
        .iter()
        .map(|u| u["utxoId"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, t.utxos, "{path}: {utxo_key}");
    for (i, (u, id)) in utxos.iter().zip(&t.utxos).enumerate() {
        let mu = &m.utxos[id];
        assert_eq!(
            u["addresses"],
            json!(local_addrs("C", &mu.out.owners.addrs))
        );
        assert_eq!(u["asset"], avax(m, u128::from(mu.out.amount)), "{path}");
        assert_eq!(u["creationTxHash"], json!(mu.created.tx.to_string()));
        assert_eq!(u["createdOnChainId"], json!(mu.created_on.to_string()));
        assert_eq!(u["consumedOnChainId"], json!(mu.consumed_on.to_string()));
        let consumer = mu.consumed.map(|e| e.tx.to_string());
        assert_eq!(u["consumingTxHash"].as_str(), consumer.as_deref(), "{path}");
        if !t.export {
            assert_eq!(
                consumer,
                Some(t.id.to_string()),
                "{path}: the import consumed it"
            );
            let owners: BTreeSet<ShortId> = mu.out.owners.addrs.iter().copied().collect();
            let creds = u["credentials"].as_array().unwrap();
            assert_eq!(
                creds.len(),
                t.sigs[i].len(),
                "{path}: credentials of input {i}"
            );
            for (c, sig) in creds.iter().zip(&t.sigs[i]) {
                check_credential(t, c, sig, |k| owners.contains(&k.address()));
            }
        }
    }
}

/// The model's txs in `(time, id)` order, those `keep` accepts.
fn ordered(m: &CModel, keep: impl Fn(&CTx) -> bool) -> Vec<Id> {
    let mut txs: Vec<(u64, Id)> = m
        .txs
        .values()
        .filter(|t| keep(t))
        .map(|t| (t.ts, t.id))
        .collect();
    txs.sort();
    txs.into_iter().map(|(_, id)| id).collect()
}

/// Every page size and both orders of `base` list `want` (ascending)
/// exactly, in order.
fn check_listing(api: &DataApi, base: &str, want: &[Id]) {
    let sep = if base.contains('?') { '&' } else { '?' };
    for size in [1, 3, 100] {
        let asc = pages(api, &format!("{base}{sep}pageSize={size}&sortOrder=asc"));
        assert_eq!(asc, want, "{base} pageSize={size} asc");
        let mut desc = pages(api, &format!("{base}{sep}pageSize={size}&sortOrder=desc"));
        desc.reverse();
        assert_eq!(desc, want, "{base} pageSize={size} desc");
    }
}

#[test]
fn atomic_txs_by_hash_latest_and_by_address_equal_the_model() {
    let w = world(32);
    let m = &w.model;
    for t in m.txs.values() {
        check_tx(&w, t);
    }
    // The chain's latest, by type and by time window.
    check_listing(&w.api, &format!("{C}/transactions"), &ordered(m, |_| true));
    for (ty, export) in [("ExportTx", true), ("ImportTx", false)] {
        check_listing(
            &w.api,
            &format!("{C}/transactions?txTypes={ty}"),
            &ordered(m, |t| t.export == export),
        );
    }
    let times: Vec<u64> = ordered(m, |_| true).iter().map(|id| m.txs[id].ts).collect();
    let (lo, hi) = (times[times.len() / 4], times[3 * times.len() / 4]);
    check_listing(
        &w.api,
        &format!("{C}/transactions?startTimestamp={lo}&endTimestamp={hi}"),
        &ordered(m, |t| (lo..hi).contains(&t.ts)),
    );
    // Every devnet address: as an owner (C- prefix or none), as an EVM address, and both.
    let mut with_txs = 0;
    for (key, e) in w.keys.iter().zip(&w.eths) {
        let owner = ordered(m, |t| m.tx_owners(&t.id).contains(key));
        let as_evm = ordered(m, |t| t.evm.iter().any(|(a, _)| a == e));
        with_txs += usize::from(!owner.is_empty()) + usize::from(!as_evm.is_empty());
        let c_addr = local_addr("C", key);
        check_listing(
            &w.api,
            &format!("{C}/transactions?addresses={c_addr}"),
            &owner,
        );
        let bare = c_addr.trim_start_matches("C-").to_owned();
        assert_eq!(
            pages(
                &w.api,
                &format!("{C}/transactions?addresses={bare}&pageSize=100&sortOrder=asc")
            ),
            owner,
            "{bare}"
        );
        let upper = format!("0x{}", hex_lower(e).to_uppercase());
        check_listing(
            &w.api,
            &format!("{C}/transactions?addresses={upper}"),
            &as_evm,
        );
        let imports = ordered(m, |t| {
            !t.export && (m.tx_owners(&t.id).contains(key) || t.evm.iter().any(|(a, _)| a == e))
        });
        let path = format!(
            "{C}/transactions?addresses={c_addr},{}&txTypes=ImportTx",
            evm(e)
        );
        check_listing(&w.api, &path, &imports);
    }
    assert!(
        with_txs >= 2,
        "some devnet addresses take part in atomic txs"
    );
    // All owners at once: every tx with an owner, each once.
    let every: BTreeSet<ShortId> = w.keys.iter().copied().collect();
    let joined = local_addrs("C", &w.keys).join(",");
    check_listing(
        &w.api,
        &format!("{C}/transactions?addresses={joined}"),
        &ordered(m, |t| !m.tx_owners(&t.id).is_disjoint(&every)),
    );
}

#[test]
fn bad_input_is_a_400_and_an_unknown_tx_a_404() {
    let dir = tempfile::tempdir().unwrap();
    let api = common::start(dir.path(), &["--no-rate-limits"]);
    for (query, param) in [
        ("txTypes=AddValidatorTx", "txTypes"),
        ("txTypes=BaseTx", "txTypes"),
        ("addresses=0x12", "addresses"),
        (
            "addresses=P-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq",
            "addresses",
        ),
        ("addresses=", "addresses"),
        ("pageSize=101", "pageSize"),
        ("sortOrder=up", "sortOrder"),
        ("startTimestamp=9&endTimestamp=3", "startTimestamp"),
    ] {
        let path = format!("{C}/transactions?{query}");
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(param), "{path}: {msg}");
    }
    let many: Vec<String> = (0..65u8).map(|i| evm(&[i; 20])).collect();
    let path = format!("{C}/transactions?addresses={}", many.join(","));
    let msg = api.get(&path).error(400, "Bad Request");
    assert!(msg.contains("addresses"), "{msg}");
    let msg = api
        .get(&format!("{C}/transactions/xyz"))
        .error(400, "Bad Request");
    assert!(msg.contains("txHash"), "{msg}");
    let unknown = Id([7; 32]);
    api.get(&format!("{C}/transactions/{unknown}"))
        .error(404, "Not Found");
    // Nothing indexed: an empty listing, no token.
    let r = api.get(&format!("{C}/transactions?addresses={}", evm(&[1; 20])));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json(),
        json!({"transactions": [], "chainInfo": {"chainName": "c-chain", "network": "local"}})
    );
}
