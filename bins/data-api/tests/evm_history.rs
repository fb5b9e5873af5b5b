//! An address's EVM history, transactions by hash and by block, and the latest transactions and
//! blocks of one chain and of all, end to end: both recorded devnet chains served by replay
//! servers, indexed by the real `data-api`, and every answer compared with what the recorded
//! JSON-RPC answers say, read here as JSON (blocks, receipts, and the transfers, call frames and
//! creations `snowline_evm_devnet::model` decodes from them with nothing of the indexer's code).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
#[path = "../../../crates/types/tests/openapi_check/mod.rs"]
mod openapi_check;

use std::collections::{BTreeMap, BTreeSet};

use common::{DataApi, all_pages, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::{Frame, LogTransfer, RecordingModel, addr, hash, q, u};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, B256, U256};

fn checksum(a: &Address) -> String {
    a.to_checksum(None)
}

/// `data-api` indexing both recorded chains; waits until both are caught up.
fn serve(dir: &std::path::Path) -> (tokio::runtime::Runtime, DataApi) {
    let (rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let config = json!({"chains": [
        {"chainId": urls[0].0, "rpcUrl": urls[0].1},
        {"chainId": urls[1].0.to_string(), "rpcUrl": urls[1].1, "network": "local",
         "chainName": "Snowline L1", "blockchainId": snowline_types::Id([7; 32]).to_string(),
         "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}},
    ]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let api = start(
        &dir.join("data"),
        &[
            "--network",
            "local",
            "--evm-config",
            path.to_str().unwrap(),
            "--no-rate-limits",
        ],
    );
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    (rt, api)
}

/// One recorded tx, as its block and receipt say.
#[derive(Debug, Clone)]
struct RecTx {
    block: u64,
    index: u64,
    hash: B256,
    from: Address,
    to: Option<Address>,
    /// The contract a successful creation made.
    created: Option<Address>,
    timestamp: u64,
    tx: Value,
    receipt: Value,
    block_hash: Value,
}

/// The recording read as txs, with who each one touched.
struct Model {
    chain: u64,
    m: RecordingModel,
    txs: Vec<RecTx>,
    transfers: Vec<LogTransfer>,
    frames: Vec<Frame>,
}

impl Model {
    fn load(chain: u64) -> Self {
        let m = RecordingModel::load(&recording_path(chain));
        let mut txs = Vec::new();
        for b in &m.blocks {
            for (i, t) in b.block["transactions"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                let r = &b.receipts[i];
                let ok = r["status"] != "0x0";
                txs.push(RecTx {
                    block: b.number,
                    index: i as u64,
                    hash: hash(&t["hash"]),
                    from: addr(&t["from"]),
                    to: t.get("to").filter(|v| !v.is_null()).map(addr),
                    created: r
                        .get("contractAddress")
                        .filter(|v| !v.is_null() && ok)
                        .map(addr),
                    timestamp: q(&b.block["timestamp"]),
                    tx: t.clone(),
                    receipt: r.clone(),
                    block_hash: b.block["hash"].clone(),
                });
            }
        }
        let (transfers, frames) = (m.transfers(), m.frames());
        Self {
            chain,
            m,
            txs,
            transfers,
            frames,
        }
    }

    /// Whether `a` sent tx `t`, received it, or is the contract it created.
    fn native_party(a: &Address, t: &RecTx) -> bool {
        t.from == *a || t.to == Some(*a) || t.created == Some(*a)
    }

    /// Whether `a` took part in `t` at all: natively, in one of its token transfers or in one of
    /// its listed internal transactions.
    fn party(&self, a: &Address, t: &RecTx) -> bool {
        Self::native_party(a, t)
            || self
                .transfers
                .iter()
                .any(|x| x.tx_hash == t.hash && (x.from == *a || x.to == *a))
            || self
                .frames
                .iter()
                .any(|f| f.tx_hash == t.hash && (f.from == *a || f.to == Some(*a)))
    }

    /// Every address some tx touched, busiest first.
    fn addresses(&self) -> Vec<(Address, usize)> {
        let mut all: BTreeSet<Address> = BTreeSet::new();
        for t in &self.txs {
            all.extend([Some(t.from), t.to, t.created].into_iter().flatten());
        }
        for x in &self.transfers {
            all.extend([x.from, x.to]);
        }
        for f in &self.frames {
            all.extend([Some(f.from), f.to].into_iter().flatten());
        }
        let mut counted: Vec<(Address, usize)> = all
            .into_iter()
            .map(|a| (a, self.txs.iter().filter(|t| self.party(&a, t)).count()))
            .collect();
        counted.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
        counted
    }

    /// `NativeTransaction` of `t`, from the recorded block, tx and receipt.
    fn native(&self, t: &RecTx) -> Value {
        let recipient = t.to.or(t.created).unwrap_or(Address::ZERO);
        let r = &t.receipt;
        json!({
            "blockNumber": t.block.to_string(),
            "blockTimestamp": t.timestamp,
            "blockHash": t.block_hash,
            "chainId": self.chain.to_string(),
            "blockIndex": t.index,
            "txHash": format!("{:#x}", t.hash),
            "txStatus": if r["status"] == "0x0" { "0" } else { "1" },
            "txType": q(&t.tx["type"]),
            "gasLimit": q(&t.tx["gas"]).to_string(),
            "gasUsed": q(&r["gasUsed"]).to_string(),
            "gasPrice": u(&r["effectiveGasPrice"]).to_string(),
            "nonce": q(&t.tx["nonce"]).to_string(),
            "from": {"address": checksum(&t.from)},
            "to": {"address": checksum(&recipient)},
            "value": u(&t.tx["value"]).to_string(),
        })
    }

    /// The transfers of `t` that `only` (any when `None`) sent or received, as (standard, log
    /// index, from, to, amount or id).
    fn transfers_of(&self, t: &RecTx, only: Option<&Address>) -> Vec<(u16, Value)> {
        self.transfers
            .iter()
            .filter(|x| x.tx_hash == t.hash)
            .filter(|x| only.is_none_or(|a| x.from == *a || x.to == *a))
            .map(|x| (x.standard, transfer_json(x)))
            .collect()
    }

    /// The listed frames of `t` that `only` (any when `None`) called or was called by.
    fn frames_of(&self, t: &RecTx, only: Option<&Address>) -> Vec<Value> {
        self.frames
            .iter()
            .filter(|f| f.tx_hash == t.hash)
            .filter(|f| only.is_none_or(|a| f.from == *a || f.to == Some(*a)))
            .map(|f| {
                json!({
                    "from": checksum(&f.from),
                    "to": checksum(&f.to.unwrap_or(Address::ZERO)),
                    "internalTxType": f.kind,
                    "value": f.value.to_string(),
                    "isReverted": f.reverted,
                })
            })
            .collect()
    }
}

/// What a transfer record must say, by its standard.
fn transfer_json(x: &LogTransfer) -> Value {
    let amount = match x.standard {
        721 => x.id.to_string(),
        1155 => format!("{}:{}", x.id, x.value),
        _ => x.value.to_string(),
    };
    json!({
        "logIndex": x.log_index,
        "from": checksum(&x.from),
        "to": checksum(&x.to),
        "amount": amount,
    })
}

/// The same members of a served transfer record.
fn served_transfer(standard: u16, g: &Value) -> Value {
    let amount = match standard {
        721 => g["erc721Token"]["tokenId"].as_str().unwrap().to_owned(),
        1155 => format!(
            "{}:{}",
            g["erc1155Token"]["tokenId"].as_str().unwrap(),
            g["value"].as_str().unwrap()
        ),
        _ => g["value"].as_str().unwrap().to_owned(),
    };
    json!({
        "logIndex": g["logIndex"],
        "from": g["from"]["address"],
        "to": g["to"]["address"],
        "amount": amount,
    })
}

/// A served native transaction without `method` (asserted present, then left out).
fn without_method(g: &Value) -> Value {
    assert!(g["method"]["callType"].is_string(), "{g}");
    let mut g = g.clone();
    let o = g.as_object_mut().unwrap();
    o.remove("method");
    for k in [
        "input",
        "baseFeePerGas",
        "maxFeePerGas",
        "maxPriorityFeePerGas",
    ] {
        o.remove(k);
    }
    g
}

/// The served transfers of one standard, as [`transfer_json`] writes them; an absent list is
/// empty.
fn served_list(v: &Value, member: &str, standard: u16) -> Vec<(u16, Value)> {
    v.get(member)
        .map(|l| {
            let l = l.as_array().unwrap();
            assert!(!l.is_empty(), "an empty {member} is omitted: {v}");
            l.iter()
                .map(|g| (standard, served_transfer(standard, g)))
                .collect()
        })
        .unwrap_or_default()
}

/// The served internal transactions, as [`Model::frames_of`] writes them.
fn served_frames(v: &Value, omit_empty: bool) -> Vec<Value> {
    let Some(l) = v.get("internalTransactions") else {
        return Vec::new();
    };
    let l = l.as_array().unwrap();
    assert!(
        !omit_empty || !l.is_empty(),
        "an empty list is omitted: {v}"
    );
    l.iter()
        .map(|g| {
            json!({
                "from": g["from"]["address"],
                "to": g["to"]["address"],
                "internalTxType": g["internalTxType"],
                "value": g["value"],
                "isReverted": g["isReverted"],
            })
        })
        .collect()
}

/// All of a served tx's transfers, standard by standard.
fn served_transfers(v: &Value) -> Vec<(u16, Value)> {
    let mut all = served_list(v, "erc20Transfers", 20);
    all.extend(served_list(v, "erc721Transfers", 721));
    all.extend(served_list(v, "erc1155Transfers", 1155));
    all
}

/// The model's transfers grouped the way [`served_transfers`] lists them.
fn by_standard(mut l: Vec<(u16, Value)>) -> Vec<(u16, Value)> {
    l.sort_by_key(|(s, _)| *s);
    l
}

#[test]
fn address_history_transactions_and_latest_blocks_are_the_recordings() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, api) = serve(dir.path());
    let models = [Model::load(C_CHAIN_ID), Model::load(L1_CHAIN_ID)];
    for model in &models {
        history(&api, model);
        transfers_by_standard(&api, model);
        transactions(&api, model);
        latest(&api, model);
    }
    all_chains(&api, &models);
    errors(&api, &models[0]);
    conformance(&api, &models);
}

/// Every operation's answers satisfy its response schema in the Glacier OpenAPI (required
/// members, no member it does not name, types, enumerations; `null` only where it allows it).
fn conformance(api: &DataApi, models: &[Model]) {
    let doc: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../crates/data-api/openapi/glacier-data-api.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let all = doc["components"]["schemas"].as_object().unwrap();
    let schema_of = |template: &str| -> Value {
        doc["paths"][template]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
            .clone()
    };
    let mut checked = BTreeSet::new();
    let mut check = |template: &str, path: String| {
        let r = api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        let errors = openapi_check::check(all, &schema_of(template), &r.json(), &path);
        assert!(errors.is_empty(), "{path}: {errors:#?}");
        checked.insert(template.to_owned());
    };
    for model in models {
        let c = model.chain;
        for (a, _) in model.addresses().iter().take(8) {
            let a = checksum(a);
            for (template, suffix) in [
                ("/v1/chains/{chainId}/addresses/{address}/transactions", ""),
                (
                    "/v1/chains/{chainId}/addresses/{address}/transactions:listNative",
                    ":listNative",
                ),
                (
                    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc20",
                    ":listErc20",
                ),
                (
                    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc721",
                    ":listErc721",
                ),
                (
                    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc1155",
                    ":listErc1155",
                ),
            ] {
                check(
                    template,
                    format!("/v1/chains/{c}/addresses/{a}/transactions{suffix}?pageSize=100"),
                );
            }
            check(
                "/v2/chains/{chainId}/addresses/{address}/transactions",
                format!("/v2/chains/{c}/addresses/{a}/transactions?pageSize=100"),
            );
            check(
                "/v1/address/{address}/chains",
                format!("/v1/address/{a}/chains"),
            );
        }
        for t in model.txs.iter().step_by(7) {
            check(
                "/v1/chains/{chainId}/transactions/{txHash}",
                format!("/v1/chains/{c}/transactions/{:#x}", t.hash),
            );
        }
        for b in model.m.blocks.iter().step_by(5) {
            check(
                "/v1/chains/{chainId}/blocks/{blockId}/transactions",
                format!("/v1/chains/{c}/blocks/{}/transactions", b.number),
            );
        }
        check(
            "/v1/chains/{chainId}/transactions",
            format!("/v1/chains/{c}/transactions?pageSize=100"),
        );
        check(
            "/v1/chains/{chainId}/blocks",
            format!("/v1/chains/{c}/blocks?pageSize=100"),
        );
    }
    check(
        "/v1/transactions",
        "/v1/transactions?pageSize=100".to_owned(),
    );
    check("/v1/blocks", "/v1/blocks?pageSize=100".to_owned());
    assert_eq!(checked.len(), 13, "{checked:?}");
}

/// Every address's history, in both orders, at every page size, and within block windows.
fn history(api: &DataApi, model: &Model) {
    let chain = model.chain;
    let addresses = model.addresses();
    assert!(addresses.len() > 10, "{} addresses", addresses.len());
    // An address reached only through a token transfer or an internal transaction is listed.
    assert!(addresses.iter().any(|(a, _)| {
        model.txs.iter().any(|t| model.party(a, t))
            && !model.txs.iter().any(|t| Model::native_party(a, t))
    }));
    for (rank, (a, count)) in addresses.iter().enumerate() {
        let want: Vec<&RecTx> = model
            .txs
            .iter()
            .rev()
            .filter(|t| model.party(a, t))
            .collect();
        assert_eq!(want.len(), *count);
        let base = format!("/v1/chains/{chain}/addresses/{}/transactions", checksum(a));
        let sizes: &[u32] = if rank < 3 { &[1, 2, 7, 100] } else { &[7, 100] };
        for size in sizes {
            let got = all_pages(api, &format!("{base}?pageSize={size}"), "transactions");
            assert_eq!(got.len(), want.len(), "{base} pageSize {size}");
            for (g, w) in got.iter().zip(&want) {
                assert_history_tx(model, a, g, w);
            }
        }
        // Oldest first.
        let asc = all_pages(
            api,
            &format!("{base}?pageSize=3&sortOrder=asc"),
            "transactions",
        );
        let hashes = |l: &[Value]| -> Vec<String> {
            l.iter()
                .map(|g| {
                    g["nativeTransaction"]["txHash"]
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect()
        };
        let mut want_asc: Vec<String> = want.iter().map(|t| format!("{:#x}", t.hash)).collect();
        want_asc.reverse();
        assert_eq!(hashes(&asc), want_asc, "{base} asc");
        // v2: the same txs, ERC-20 tokens with an unknown (null) reputation.
        let v2 = all_pages(
            api,
            &format!(
                "/v2/chains/{chain}/addresses/{}/transactions?pageSize=5&filterSpamTokens=true",
                checksum(a)
            ),
            "transactions",
        );
        assert_eq!(v2.len(), want.len());
        for (g, w) in v2.iter().zip(&want) {
            assert_eq!(
                without_method(&g["nativeTransaction"]),
                model.native(w),
                "v2"
            );
            for t in g
                .get("erc20Transfers")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let token = t["erc20Token"].as_object().unwrap();
                assert_eq!(token.get("tokenReputation"), Some(&Value::Null), "{t}");
            }
            assert_eq!(
                by_standard(served_transfers(g)),
                by_standard(model.transfers_of(w, Some(a)))
            );
        }
        // A window: startBlock inclusive, endBlock exclusive, both orders.
        if let (Some(hi), Some(lo)) = (want.first(), want.last()) {
            let (lo, hi) = (lo.block, hi.block);
            if hi > lo + 1 {
                let (s, e) = (lo + 1, hi);
                let inside: Vec<String> = want
                    .iter()
                    .filter(|t| t.block >= s && t.block < e)
                    .map(|t| format!("{:#x}", t.hash))
                    .collect();
                for (order, size) in [("desc", 2), ("asc", 1)] {
                    let got = all_pages(
                        api,
                        &format!(
                            "{base}?startBlock={s}&endBlock={e}&sortOrder={order}&pageSize={size}"
                        ),
                        "transactions",
                    );
                    let mut w = inside.clone();
                    if order == "asc" {
                        w.reverse();
                    }
                    assert_eq!(hashes(&got), w, "{base} [{s}, {e}) {order}");
                }
            }
        }
        // Native transactions: those it sent, received or created a contract with.
        let native = all_pages(
            api,
            &format!(
                "/v1/chains/{chain}/addresses/{}/transactions:listNative?pageSize=4",
                checksum(a)
            ),
            "transactions",
        );
        let want_native: Vec<Value> = want
            .iter()
            .filter(|t| Model::native_party(a, t))
            .map(|t| model.native(t))
            .collect();
        let got_native: Vec<Value> = native.iter().map(without_method).collect();
        assert_eq!(got_native, want_native, "listNative {a}");
        // The internal transactions' listing names only txs of the address's history.
        let internals = all_pages(
            api,
            &format!(
                "/v1/chains/{chain}/addresses/{}/transactions:listInternals?pageSize=100",
                checksum(a)
            ),
            "transactions",
        );
        let history: BTreeSet<String> = want.iter().map(|t| format!("{:#x}", t.hash)).collect();
        for i in &internals {
            assert!(history.contains(i["txHash"].as_str().unwrap()), "{i}");
        }
    }
}

/// One tx of an address's history: the tx, and its transfers and internal transactions that
/// the address was party to.
fn assert_history_tx(model: &Model, a: &Address, g: &Value, w: &RecTx) {
    assert_eq!(without_method(&g["nativeTransaction"]), model.native(w));
    assert_eq!(
        by_standard(served_transfers(g)),
        by_standard(model.transfers_of(w, Some(a))),
        "{a} in {:#x}",
        w.hash
    );
    assert_eq!(served_frames(g, true), model.frames_of(w, Some(a)));
}

/// Each address's transfers of each standard, newest first.
fn transfers_by_standard(api: &DataApi, model: &Model) {
    let chain = model.chain;
    let mut standards_seen = BTreeSet::new();
    for (rank, (a, _)) in model.addresses().iter().enumerate() {
        for (standard, op) in [
            (20, "listErc20"),
            (721, "listErc721"),
            (1155, "listErc1155"),
        ] {
            let want: Vec<&LogTransfer> = model
                .transfers
                .iter()
                .rev()
                .filter(|x| x.standard == standard && (x.from == *a || x.to == *a))
                .collect();
            if !want.is_empty() {
                standards_seen.insert(standard);
            }
            let sizes: &[u32] = if rank < 3 { &[1, 7, 100] } else { &[100] };
            for size in sizes {
                let path = format!(
                    "/v1/chains/{chain}/addresses/{}/transactions:{op}?pageSize={size}",
                    checksum(a)
                );
                let got = all_pages(api, &path, "transactions");
                assert_eq!(got.len(), want.len(), "{path}");
                for (g, x) in got.iter().zip(&want) {
                    assert_eq!(served_transfer(standard, g), transfer_json(x), "{path}");
                    assert_eq!(g["txHash"], format!("{:#x}", x.tx_hash));
                    assert_eq!(g["blockNumber"], x.block.to_string());
                    let b = &model.m.blocks[x.block as usize].block;
                    assert_eq!(g["blockHash"], b["hash"]);
                    assert_eq!(g["blockTimestamp"], q(&b["timestamp"]));
                }
            }
        }
    }
    assert_eq!(standards_seen, BTreeSet::from([20, 721, 1155]));
}

/// Every tx by hash; every block's txs, whole and paged.
fn transactions(api: &DataApi, model: &Model) {
    let chain = model.chain;
    for t in &model.txs {
        let v = api
            .get(&format!("/v1/chains/{chain}/transactions/{:#x}", t.hash))
            .json();
        let n = &v["nativeTransaction"];
        assert_eq!(without_method(n), model.native(t));
        assert_eq!(n["input"], t.tx["input"]);
        let block = &model.m.blocks[t.block as usize].block;
        let base_fee = block
            .get("baseFeePerGas")
            .filter(|x| !x.is_null())
            .map_or(U256::ZERO, u);
        assert_eq!(n["baseFeePerGas"], base_fee.to_string());
        assert_eq!(
            by_standard(served_transfers_all(&v)),
            by_standard(model.transfers_of(t, None))
        );
        assert_eq!(served_frames(&v, false), model.frames_of(t, None));
        assert!(v["networkTokenDetails"]["networkToken"]["symbol"].is_string());
        // These recordings send no ICM message.
        assert!(v.get("teleporterMessageInfo").is_none());
    }
    for b in &model.m.blocks {
        let want: Vec<Value> = model
            .txs
            .iter()
            .filter(|t| t.block == b.number)
            .map(|t| model.native(t))
            .collect();
        let path = format!("/v1/chains/{chain}/blocks/{}/transactions", b.number);
        let whole = api.get(&path).json();
        assert!(whole.get("nextPageToken").is_none());
        let got: Vec<Value> = whole["transactions"]
            .as_array()
            .unwrap()
            .iter()
            .map(without_method)
            .collect();
        assert_eq!(got, want, "{path}");
        let by_hash = format!(
            "/v1/chains/{chain}/blocks/{}/transactions?pageSize=2",
            b.block["hash"].as_str().unwrap()
        );
        let paged: Vec<Value> = all_pages(api, &by_hash, "transactions")
            .iter()
            .map(without_method)
            .collect();
        assert_eq!(paged, want, "{by_hash}");
    }
}

/// The transfers of a `GetTransactionResponse` (every list present, possibly empty).
fn served_transfers_all(v: &Value) -> Vec<(u16, Value)> {
    let mut all = Vec::new();
    for (member, standard) in [
        ("erc20Transfers", 20),
        ("erc721Transfers", 721),
        ("erc1155Transfers", 1155),
    ] {
        for g in v[member].as_array().unwrap() {
            all.push((standard, served_transfer(standard, g)));
        }
    }
    all
}

/// The chain's latest txs (every one, and by status) and latest blocks, newest first.
fn latest(api: &DataApi, model: &Model) {
    let chain = model.chain;
    let newest: Vec<&RecTx> = model.txs.iter().rev().collect();
    let failed = newest
        .iter()
        .filter(|t| t.receipt["status"] == "0x0")
        .count();
    assert!(failed > 0, "the recording has failed txs");
    for (status, keep) in [
        ("", None),
        ("&status=success", Some("0x1")),
        ("&status=failed", Some("0x0")),
    ] {
        let want: Vec<Value> = newest
            .iter()
            .filter(|t| keep.is_none_or(|s| t.receipt["status"] == s))
            .map(|t| model.native(t))
            .collect();
        for size in [7, 100] {
            let path = format!("/v1/chains/{chain}/transactions?pageSize={size}{status}");
            let got: Vec<Value> = all_pages(api, &path, "transactions")
                .iter()
                .map(without_method)
                .collect();
            assert_eq!(got, want, "{path}");
        }
    }
    for size in [1, 7, 100] {
        let path = format!("/v1/chains/{chain}/blocks?pageSize={size}");
        let got = all_pages(api, &path, "blocks");
        let numbers: Vec<u64> = got
            .iter()
            .map(|b| b["blockNumber"].as_str().unwrap().parse().unwrap())
            .collect();
        let want: Vec<u64> = (0..=model.m.tip()).rev().collect();
        assert_eq!(numbers, want, "{path}");
        for g in &got {
            let n: u64 = g["blockNumber"].as_str().unwrap().parse().unwrap();
            let b = &model.m.blocks[n as usize].block;
            assert_eq!(g["blockHash"], b["hash"]);
            assert_eq!(g["parentHash"], b["parentHash"]);
            assert_eq!(g["blockTimestamp"], q(&b["timestamp"]));
            assert_eq!(
                g["txCount"],
                b["transactions"].as_array().unwrap().len() as u64
            );
            assert_eq!(g["chainId"], chain.to_string());
        }
    }
}

/// The latest txs and blocks of both chains, merged newest first by block time (then chain id,
/// block and index, descending); the chains where each address has activity.
fn all_chains(api: &DataApi, models: &[Model]) {
    let mut want_blocks: Vec<(u64, u64, u64)> = Vec::new();
    let mut want_txs: Vec<(u64, u64, u64, u64, String)> = Vec::new();
    for model in models {
        for b in &model.m.blocks {
            want_blocks.push((q(&b.block["timestamp"]), model.chain, b.number));
        }
        for t in &model.txs {
            want_txs.push((
                t.timestamp,
                model.chain,
                t.block,
                t.index,
                format!("{:#x}", t.hash),
            ));
        }
    }
    want_blocks.sort();
    want_blocks.reverse();
    want_txs.sort();
    want_txs.reverse();
    for size in [1, 7, 100] {
        for network in ["", "&network=local"] {
            let path = format!("/v1/blocks?pageSize={size}{network}");
            let got: Vec<(u64, u64, u64)> = all_pages(api, &path, "blocks")
                .iter()
                .map(|b| {
                    (
                        b["blockTimestamp"].as_u64().unwrap(),
                        b["chainId"].as_str().unwrap().parse().unwrap(),
                        b["blockNumber"].as_str().unwrap().parse().unwrap(),
                    )
                })
                .collect();
            assert_eq!(got, want_blocks, "{path}");
        }
        if size == 1 {
            continue;
        }
        let path = format!("/v1/transactions?pageSize={size}");
        let got: Vec<(u64, u64, u64, u64, String)> = all_pages(api, &path, "transactions")
            .iter()
            .map(|t| {
                (
                    t["blockTimestamp"].as_u64().unwrap(),
                    t["chainId"].as_str().unwrap().parse().unwrap(),
                    t["blockNumber"].as_str().unwrap().parse().unwrap(),
                    t["blockIndex"].as_u64().unwrap(),
                    t["txHash"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert_eq!(got, want_txs, "{path}");
    }
    let failed: Vec<String> = want_txs
        .iter()
        .filter(|(_, c, b, i, _)| {
            let m = models.iter().find(|m| m.chain == *c).unwrap();
            let t = m
                .txs
                .iter()
                .find(|t| t.block == *b && t.index == *i)
                .unwrap();
            t.receipt["status"] == "0x0"
        })
        .map(|t| t.4.clone())
        .collect();
    let got: Vec<String> = all_pages(
        api,
        "/v1/transactions?pageSize=3&status=failed",
        "transactions",
    )
    .iter()
    .map(|t| t["txHash"].as_str().unwrap().to_owned())
    .collect();
    assert_eq!(got, failed);
    // No chain of another network is indexed here.
    let other = api.get("/v1/blocks?network=mainnet").json();
    assert_eq!(other["blocks"], json!([]));

    // The chains where an address has activity, and the listed chains not indexed here.
    let mut active: BTreeMap<Address, BTreeSet<String>> = BTreeMap::new();
    for model in models {
        for (a, _) in model.addresses() {
            active.entry(a).or_default().insert(model.chain.to_string());
        }
    }
    assert!(active.values().any(|c| c.len() == 2) && active.values().any(|c| c.len() == 1));
    let idle = Address::from([0x5a; 20]);
    active.insert(idle, BTreeSet::new());
    for (a, chains) in &active {
        let v = api
            .get(&format!("/v1/address/{}/chains", checksum(a)))
            .json();
        let got: BTreeSet<String> = v["indexedChains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["chainId"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(&got, chains, "{a}");
        let unindexed: BTreeSet<&str> = v["unindexedChains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(unindexed.contains("43114"), "{v}");
        assert!(!unindexed.contains("43112") && !unindexed.contains("99999"));
    }
}

/// Bad requests are 400s naming the parameter; what is not indexed is a 404.
fn errors(api: &DataApi, model: &Model) {
    let c = format!("/v1/chains/{}", model.chain);
    let (a, _) = model.addresses()[0];
    let a = checksum(&a);
    for (path, param) in [
        (format!("{c}/addresses/0x12/transactions"), "address"),
        (
            format!("{c}/addresses/{a}/transactions?sortOrder=up"),
            "sortOrder",
        ),
        (
            format!("{c}/addresses/{a}/transactions?pageSize=0"),
            "pageSize",
        ),
        (
            format!("{c}/addresses/{a}/transactions?startBlock=4&endBlock=2"),
            "startBlock",
        ),
        (
            format!(
                "/v2/chains/{}/addresses/{a}/transactions?filterSpamTokens=yes",
                model.chain
            ),
            "filterSpamTokens",
        ),
        (
            format!("{c}/addresses/{a}/transactions:listErc20?pageSize=101"),
            "pageSize",
        ),
        (
            format!("{c}/addresses/{a}/transactions:listNative?pageToken=x"),
            "pageToken",
        ),
        (format!("{c}/transactions/0x1234"), "txHash"),
        (format!("{c}/transactions?status=ok"), "status"),
        (format!("{c}/blocks/latest/transactions"), "blockId"),
        (
            format!("{c}/blocks/1/transactions?pageSize=101"),
            "pageSize",
        ),
        (format!("{c}/blocks?pageSize=0"), "pageSize"),
        ("/v1/transactions?network=moon".to_owned(), "network"),
        ("/v1/blocks?pageSize=500".to_owned(), "pageSize"),
        ("/v1/address/0xzz/chains".to_owned(), "address"),
        (
            format!("/v1/chains/x/addresses/{a}/transactions"),
            "chainId",
        ),
    ] {
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(param), "{path}: {msg}");
    }
    // A page token of one order does not open the other, nor another address's history.
    let first = api
        .get(&format!("{c}/addresses/{a}/transactions?pageSize=1"))
        .json();
    let t = first["nextPageToken"].as_str().unwrap();
    api.get(&format!(
        "{c}/addresses/{a}/transactions?pageSize=1&sortOrder=asc&pageToken={t}"
    ))
    .error(400, "Bad Request");
    api.get(&format!(
        "{c}/addresses/{a}/transactions:listNative?pageSize=1&pageToken={t}"
    ))
    .error(400, "Bad Request");
    common::assert_tokens_authenticated(
        api,
        &format!("{c}/addresses/{a}/transactions?pageSize=1"),
        &format!(
            "{c}/addresses/{}/transactions?pageSize=1",
            checksum(&model.addresses()[1].0)
        ),
    );
    // Not indexed: a tx or block not in the index, a listed chain with no source, an unknown one.
    let unknown = format!("{c}/transactions/0x{}", "ab".repeat(32));
    api.get(&unknown).error(404, "Not Found");
    api.get(&format!("{c}/blocks/{}/transactions", model.m.tip() + 1))
        .error(404, "Not Found");
    let msg = api
        .get(&format!("/v1/chains/43114/addresses/{a}/transactions"))
        .error(404, "Not Found");
    assert!(msg.contains("not indexed"), "{msg}");
    api.get("/v1/chains/43114/blocks").error(404, "Not Found");
    api.get(&format!(
        "/v1/chains/777/transactions/0x{}",
        "ab".repeat(32)
    ))
    .error(404, "Not Found");
}
