//! `avm.*` over HTTP against a server on 127.0.0.1:0 over a temp store filled from the devnet
//! small preset (ingested through the node-index loop with the X-Chain state hook).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;

use serde_json::Value;
use snowline_chain_x::state::XChainState;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_jsonrpc::{Router, Server, ServerConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_node_rpc::Compat;
use snowline_node_rpc::avm::{AvmConfig, avm_routes};
use snowline_store::{Schema, Store};
use snowline_types::avm::{Output, Tx, Utxo};
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::formatting::{decode_hex_checksum, encode_hex_checksum};
use snowline_types::network::NetworkInfo;
use snowline_types::{AddressContext, Chain, Id, ShortId};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A fixed "now" after every devnet locktime's creation but before the time-locked outputs
/// unlock (locktime = one year after the last block).
const NOW: u64 = 1_721_100_000;

struct Fixture {
    _dir: tempfile::TempDir,
    store: Arc<Store>,
    records: Vec<ContainerRecord>,
    keys: Vec<ShortId>,
}

fn fixture() -> Fixture {
    let mut devnet = Devnet::generate(DevnetConfig::small()).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    let genesis = devnet.x_genesis();
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::state::tables::tables())
        .fold(Schema::new(1), |s, t| s.with_spec(t));
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema).unwrap();
    let mut state = XChainState::new(NetworkInfo::LOCAL.x_chain_id, NetworkInfo::LOCAL.p_chain_id);
    state.apply_genesis(&store, &genesis).unwrap();
    let mut writer = IndexWriter::open(&store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(&store, &mut writer, src, 16, &mut state, |_| {}).unwrap();
    Fixture {
        _dir: dir,
        store: Arc::new(store),
        keys: devnet.keys().addrs().to_vec(),
        records,
    }
}

async fn serve(
    store: Arc<Store>,
    compat: Compat,
) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let mut cfg = AvmConfig::new(NetworkInfo::LOCAL, compat);
    cfg.clock = Arc::new(|| NOW);
    let router = avm_routes(
        Router::new(),
        snowline_chain_x::state::XStateIndex::new(store),
        cfg,
    )
    .unwrap();
    let server = Server::bind(
        "127.0.0.1:0".parse().unwrap(),
        router,
        ServerConfig::default(),
    )
    .await
    .unwrap();
    let addr = server.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run_until(async {
        let _ = rx.await;
    }));
    (addr, tx)
}

async fn post(addr: SocketAddr, path: &str, body: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    body.trim_end().to_owned()
}

async fn call(addr: SocketAddr, method: &str, params: &str) -> String {
    let body = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"avm.{method}","params":{params}}}"#);
    post(addr, "/ext/bc/X", &body).await
}

fn ok(result: &str) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"result\":{result},\"id\":1}}")
}

fn err(message: &str) -> String {
    let m = serde_json::to_string(message).unwrap();
    format!(
        "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32000,\"message\":{m},\"data\":null}},\"id\":1}}"
    )
}

fn result(body: &str) -> Value {
    let v: Value = serde_json::from_str(body).unwrap();
    v.get("result")
        .cloned()
        .unwrap_or_else(|| panic!("no result: {body}"))
}

fn fmt_addr(a: &ShortId) -> String {
    AddressContext::primary(&NetworkInfo::LOCAL, Chain::X)
        .unwrap()
        .format(a)
}

#[tokio::test]
async fn fees_height_assets_and_status() {
    let f = fixture();
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    // Local network fees: both 1 mAVAX (avalanchego genesis/genesis_local.go).
    assert_eq!(
        call(addr, "getTxFee", "{}").await,
        ok(r#"{"txFee":"1000000","createAssetTxFee":"1000000"}"#)
    );
    assert_eq!(
        call(addr, "getHeight", "{}").await,
        ok(r#"{"height":"30"}"#)
    );
    // The local AVAX asset id (avalanchego genesis/genesis_test.go TestAVAXAssetID).
    let avax = r#"{"assetID":"2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe","name":"Avalanche","symbol":"AVAX","denomination":"9"}"#;
    assert_eq!(
        call(addr, "getAssetDescription", r#"{"assetID":"AVAX"}"#).await,
        ok(avax)
    );
    assert_eq!(
        call(
            addr,
            "getAssetDescription",
            r#"{"assetID":"2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"}"#
        )
        .await,
        ok(avax)
    );
    assert_eq!(
        call(addr, "getAssetDescription", r#"{"assetID":"FOO"}"#).await,
        err("asset 'FOO' not found")
    );
    assert_eq!(
        call(
            addr,
            "getAssetDescription",
            &format!(r#"{{"assetID":"{}"}}"#, Id([7; 32]))
        )
        .await,
        err("not found")
    );
    // A BaseTx is a tx but not an asset.
    let base = f.records.iter().find(|r| r.path == IndexPath::XTx).unwrap();
    assert_eq!(
        call(
            addr,
            "getAssetDescription",
            &format!(r#"{{"assetID":"{}"}}"#, base.id)
        )
        .await,
        err("transaction doesn't create an asset")
    );
    assert_eq!(
        call(addr, "getTxStatus", &format!(r#"{{"txID":"{}"}}"#, base.id)).await,
        ok(r#"{"status":"Accepted"}"#)
    );
    assert_eq!(
        call(
            addr,
            "getTxStatus",
            &format!(r#"{{"txID":"{}"}}"#, Id([7; 32]))
        )
        .await,
        ok(r#"{"status":"Unknown"}"#)
    );
    assert_eq!(
        call(
            addr,
            "getTxStatus",
            r#"{"txID":"11111111111111111111111111111111LpoYY"}"#
        )
        .await,
        err("nil transaction ID")
    );
    assert_eq!(
        call(addr, "getTxStatus", "{}").await,
        err("nil transaction ID")
    );
}

#[tokio::test]
async fn get_tx_hex_and_json() {
    let f = fixture();
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    let rec = f.records.iter().find(|r| r.path == IndexPath::XTx).unwrap();
    let hex = encode_hex_checksum(&rec.bytes);
    let want = ok(&format!(r#"{{"tx":"{hex}","encoding":"hex"}}"#));
    assert_eq!(
        call(addr, "getTx", &format!(r#"{{"txID":"{}"}}"#, rec.id)).await,
        want
    );
    assert_eq!(
        call(
            addr,
            "getTx",
            &format!(r#"{{"txID":"{}","encoding":"hex"}}"#, rec.id)
        )
        .await,
        want
    );
    let body = call(
        addr,
        "getTx",
        &format!(r#"{{"txID":"{}","encoding":"json"}}"#, rec.id),
    )
    .await;
    let tx = Tx::parse(&rec.bytes).unwrap();
    let ctx = snowline_types::components::JsonCtx::new("X", "local").unwrap();
    let json = snowline_types::components::json::to_json_string(&tx, &ctx);
    assert_eq!(body, ok(&format!(r#"{{"tx":{json},"encoding":"json"}}"#)));
    assert!(
        json.contains("\"X-local1"),
        "addresses use alias X and hrp local"
    );
    assert_eq!(
        call(addr, "getTx", &format!(r#"{{"txID":"{}"}}"#, Id([7; 32]))).await,
        err("not found")
    );
    assert_eq!(
        call(
            addr,
            "getTx",
            r#"{"txID":"11111111111111111111111111111111LpoYY"}"#
        )
        .await,
        err("nil transaction ID")
    );
    assert_eq!(
        call(addr, "getTx", r#"{"txID":"bogus"}"#).await,
        err(
            "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls"
        )
    );
    // Every route of the X-Chain answers the same.
    for path in [
        "/ext/bc/avm",
        "/ext/bc/2eNy1mUFdmaxXNj1eQHUe7Np4gju9sJsEtWQ4MX3ToiNKuADed",
    ] {
        let b = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{{"txID":"{}"}}}}"#,
            rec.id
        );
        assert_eq!(post(addr, path, &b).await, want);
    }
}

#[tokio::test]
async fn blocks_by_id_and_height() {
    let f = fixture();
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    let outer = f
        .records
        .iter()
        .find(|r| r.path == IndexPath::XBlock)
        .unwrap();
    let pb = snowline_types::proposervm::Block::parse(&outer.bytes).unwrap();
    let inner = snowline_types::avm::StandardBlock::parse(pb.block.inner()).unwrap();
    let hex = encode_hex_checksum(&inner.bytes);
    let want = ok(&format!(r#"{{"block":"{hex}","encoding":"hex"}}"#));
    assert_eq!(
        call(
            addr,
            "getBlock",
            &format!(r#"{{"blockID":"{}"}}"#, inner.id)
        )
        .await,
        want
    );
    assert_eq!(
        call(
            addr,
            "getBlockByHeight",
            &format!(r#"{{"height":"{}"}}"#, inner.block.height)
        )
        .await,
        want
    );
    assert_eq!(
        call(
            addr,
            "getBlockByHeight",
            &format!(r#"{{"height":{}}}"#, inner.block.height)
        )
        .await,
        want
    );
    let ctx = snowline_types::components::JsonCtx::new("X", "local").unwrap();
    let json = snowline_types::components::json::to_json_string(&inner, &ctx);
    assert_eq!(
        call(
            addr,
            "getBlock",
            &format!(r#"{{"blockID":"{}","encoding":"json"}}"#, inner.id)
        )
        .await,
        ok(&format!(r#"{{"block":{json},"encoding":"json"}}"#))
    );
    assert_eq!(
        call(
            addr,
            "getBlock",
            &format!(r#"{{"blockID":"{}"}}"#, outer.id)
        )
        .await,
        err(&format!(
            "couldn't get block with id {}: not found",
            outer.id
        ))
    );
    assert_eq!(
        call(addr, "getBlockByHeight", r#"{"height":"31"}"#).await,
        err("couldn't get block at height 31: not found")
    );
    // Height 0 is the linear genesis block, whose parent is the stop vertex.
    let g = result(
        &call(
            addr,
            "getBlockByHeight",
            r#"{"height":"0","encoding":"json"}"#,
        )
        .await,
    );
    assert_eq!(g["block"]["height"], 0);
    assert_eq!(g["block"]["txs"], Value::Array(vec![]));
}

fn decode_utxos(r: &Value) -> Vec<Utxo> {
    r["utxos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| Utxo::parse(&decode_hex_checksum(h.as_str().unwrap()).unwrap()).unwrap())
        .collect()
}

#[tokio::test]
async fn get_utxos_pagination_and_balances() {
    let f = fixture();
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    // All UTXOs per key (one big page), then paging with small limits visits every one.
    let mut per_key: BTreeMap<ShortId, Vec<Utxo>> = BTreeMap::new();
    for k in &f.keys {
        let r = result(
            &call(
                addr,
                "getUTXOs",
                &format!(r#"{{"addresses":["{}"],"limit":0}}"#, fmt_addr(k)),
            )
            .await,
        );
        let utxos = decode_utxos(&r);
        assert_eq!(r["numFetched"], Value::String(utxos.len().to_string()));
        assert!(utxos.len() < 1024);
        per_key.insert(*k, utxos);
    }
    let groups: Vec<Vec<ShortId>> = vec![
        f.keys[..1].to_vec(),
        f.keys[1..4].to_vec(),
        f.keys.iter().step_by(5).copied().collect(),
    ];
    for group in &groups {
        let want: BTreeSet<Id> = group
            .iter()
            .flat_map(|k| per_key[k].iter().map(Utxo::id))
            .collect();
        for limit in [1, 4, 50] {
            let list = group
                .iter()
                .map(|k| format!("\"{}\"", fmt_addr(k)))
                .collect::<Vec<_>>()
                .join(",");
            let mut got: Vec<Id> = Vec::new();
            let mut start = String::new();
            loop {
                let r = result(
                    &call(
                        addr,
                        "getUTXOs",
                        &format!(r#"{{"addresses":[{list}],"limit":{limit}{start}}}"#),
                    )
                    .await,
                );
                let page = decode_utxos(&r);
                if page.is_empty() {
                    break;
                }
                assert!(page.len() <= limit);
                got.extend(page.iter().map(Utxo::id));
                start = format!(r#","startIndex":{}"#, r["endIndex"]);
            }
            let uniq: BTreeSet<Id> = got.iter().copied().collect();
            assert_eq!(uniq, want, "limit {limit}");
            if group.len() == 1 {
                assert_eq!(
                    uniq.len(),
                    got.len(),
                    "one address: every UTXO exactly once"
                );
            }
        }
    }
    // Balances agree with the UTXOs: 1-of-1, unlocked secp256k1 transfer outputs.
    let avax = "2fombhL7aGPwj3KH4bfrmJwW6PVnMobf9Y2fn9GwxiAAJyFDbe"
        .parse::<Id>()
        .unwrap();
    for (k, utxos) in &per_key {
        let mut want: BTreeMap<Id, u64> = BTreeMap::new();
        let mut partial: BTreeMap<Id, u64> = BTreeMap::new();
        for u in utxos {
            if let Output::Secp256k1Transfer(t) = &u.output {
                *partial.entry(u.asset_id).or_default() += t.amount;
                if t.owners.addrs.len() == 1 && t.owners.locktime <= NOW {
                    *want.entry(u.asset_id).or_default() += t.amount;
                }
            }
        }
        let r = result(
            &call(
                addr,
                "getBalance",
                &format!(r#"{{"address":"{}","assetID":"AVAX"}}"#, fmt_addr(k)),
            )
            .await,
        );
        assert_eq!(
            r["balance"],
            Value::String(want.get(&avax).copied().unwrap_or(0).to_string())
        );
        let r = result(
            &call(
                addr,
                "getAllBalances",
                &format!(r#"{{"address":"{}","includePartial":true}}"#, fmt_addr(k)),
            )
            .await,
        );
        let got: BTreeMap<String, String> = r["balances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["asset"].as_str().unwrap().to_owned(),
                    b["balance"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let exp: BTreeMap<String, String> = partial
            .iter()
            .map(|(a, v)| {
                (
                    if *a == avax {
                        "AVAX".to_owned()
                    } else {
                        a.to_string()
                    },
                    v.to_string(),
                )
            })
            .collect();
        assert_eq!(got, exp);
    }
    // No UTXOs: endIndex is the last address searched and the zero id.
    let empty = ShortId([0xee; 20]);
    assert_eq!(
        call(
            addr,
            "getUTXOs",
            &format!(r#"{{"addresses":["{}"]}}"#, fmt_addr(&empty))
        )
        .await,
        ok(&format!(
            r#"{{"numFetched":"0","utxos":[],"endIndex":{{"address":"{}","utxo":"11111111111111111111111111111111LpoYY"}},"encoding":"hex"}}"#,
            fmt_addr(&empty)
        ))
    );
    // encoding json fails only when there is a UTXO to encode.
    assert!(
        call(
            addr,
            "getUTXOs",
            &format!(
                r#"{{"addresses":["{}"],"encoding":"json"}}"#,
                fmt_addr(&empty)
            )
        )
        .await
        .contains("\"numFetched\":\"0\"")
    );
    let owner = per_key
        .iter()
        .find(|(_, u)| !u.is_empty())
        .map(|(k, _)| fmt_addr(k))
        .unwrap();
    let body = call(
        addr,
        "getUTXOs",
        &format!(r#"{{"addresses":["{owner}"],"encoding":"json","limit":1}}"#),
    )
    .await;
    assert!(
        body.contains("as string: unsupported encoding in method"),
        "{body}"
    );
}

#[tokio::test]
async fn address_and_argument_errors() {
    let f = fixture();
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    assert_eq!(
        call(addr, "getUTXOs", "{}").await,
        err("no addresses provided")
    );
    let many = vec!["\"X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u\""; 1025].join(",");
    assert_eq!(
        call(addr, "getUTXOs", &format!(r#"{{"addresses":[{many}]}}"#)).await,
        err("number of addresses given, 1025, exceeds maximum, 1024")
    );
    // The ewoq address on mainnet's hrp: wrong network.
    let mainnet = format!(
        "X-{}",
        snowline_types::address::format_bech32("avax", &f.keys[0]).unwrap()
    );
    assert_eq!(
        call(
            addr,
            "getUTXOs",
            &format!(r#"{{"addresses":["{mainnet}"]}}"#)
        )
        .await,
        err(&format!(
            r#"couldn't parse address "{mainnet}": expected hrp "local" but got "avax""#
        ))
    );
    // The P-Chain alias: wrong chain.
    let body = call(
        addr,
        "getUTXOs",
        r#"{"addresses":["P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"]}"#,
    )
    .await;
    assert!(body.contains("mismatched chainIDs"), "{body}");
    assert_eq!(
        call(
            addr,
            "getBalance",
            r#"{"address":"Z-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u","assetID":"AVAX"}"#
        )
        .await,
        err(
            r#"problem parsing address 'Z-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u': couldn't parse address "Z-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u": there is no ID with alias: Z"#
        )
    );
    assert_eq!(
        call(
            addr,
            "getUTXOs",
            r#"{"addresses":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],"sourceChain":"Q"}"#
        )
        .await,
        err(r#"problem parsing source chainID "Q": there is no ID with alias: Q"#)
    );
    // Plain cb58 of the 20 bytes is accepted whatever the network.
    let cb58 = f.keys[0].to_string();
    let a = result(
        &call(
            addr,
            "getBalance",
            &format!(r#"{{"address":"{cb58}","assetID":"AVAX"}}"#),
        )
        .await,
    );
    let b = result(
        &call(
            addr,
            "getBalance",
            r#"{"address":"X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u","assetID":"AVAX"}"#,
        )
        .await,
    );
    assert_eq!(a, b);
    assert_eq!(
        call(
            addr,
            "getBalance",
            r#"{"address":"X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u","assetID":"NOPE"}"#
        )
        .await,
        err("asset 'NOPE' not found")
    );
}

#[tokio::test]
async fn atomic_utxos_and_profiles() {
    let f = fixture();
    let (spec, _s1) = serve(Arc::clone(&f.store), Compat::Spec).await;
    let (ago, _s2) = serve(Arc::clone(&f.store), Compat::Avalanchego).await;
    let list = f.keys[1..]
        .iter()
        .map(|k| format!("\"{}\"", fmt_addr(k)))
        .collect::<Vec<_>>()
        .join(",");
    let mut total = 0;
    for chain in ["P", "C"] {
        let p = format!(r#"{{"addresses":[{list}],"sourceChain":"{chain}"}}"#);
        let r = result(&call(spec, "getUTXOs", &p).await);
        assert_eq!(r["sourceChain"], Value::String(chain.to_owned()));
        let r2 = result(&call(ago, "getUTXOs", &p).await);
        assert!(r2.get("sourceChain").is_none());
        assert_eq!(r["utxos"], r2["utxos"]);
        total += decode_utxos(&r).len();
    }
    assert!(
        total > 0,
        "some exported UTXOs are still waiting for import"
    );
    // Without sourceChain the reply never has the member, in either profile.
    let p = format!(r#"{{"addresses":[{list}],"limit":1}}"#);
    assert!(
        result(&call(spec, "getUTXOs", &p).await)
            .get("sourceChain")
            .is_none()
    );
}

/// `sourceChain: P` lists what the P-Chain's blocks exported to X and X has not imported: read
/// from `P/block` (the devnet's X genesis lists none of them), dropped by X's imports.
#[tokio::test]
async fn p_chain_exports_wait_in_shared_memory_until_imported() {
    use snowline_types::platformvm;
    let f = fixture();
    let net = NetworkInfo::LOCAL;
    let mut exported = BTreeSet::new();
    let mut imported = BTreeSet::new();
    for r in &f.records {
        match r.path {
            IndexPath::PBlock => {
                let b = platformvm::parse_block(&r.bytes).unwrap().block;
                for (tx, id) in b.block.txs().into_iter().zip(b.tx_ids.iter().copied()) {
                    if let platformvm::UnsignedTx::ExportTx(e) = &tx.unsigned {
                        if e.destination_chain == net.x_chain_id {
                            let n = e.base.outputs.len();
                            for i in 0..e.exported_outputs.len() {
                                let index = u32::try_from(n + i).unwrap();
                                exported.insert(
                                    snowline_types::components::UtxoId::new(id, index).id(),
                                );
                            }
                        }
                    }
                }
            }
            IndexPath::XVtx | IndexPath::XBlock | IndexPath::XTx => {
                let txs: Vec<Tx> = match r.path {
                    IndexPath::XTx => vec![Tx::parse(&r.bytes).unwrap().tx],
                    IndexPath::XVtx => snowline_types::vertex::Vertex::parse(&r.bytes)
                        .unwrap()
                        .vertex
                        .txs
                        .iter()
                        .map(|b| Tx::parse(b).unwrap().tx)
                        .collect(),
                    _ => {
                        let outer = snowline_types::proposervm::Block::parse(&r.bytes).unwrap();
                        snowline_types::avm::StandardBlock::parse(outer.block.inner())
                            .unwrap()
                            .block
                            .txs
                    }
                };
                for tx in txs {
                    if let snowline_types::avm::UnsignedTx::Import(i) = &tx.unsigned {
                        if i.source_chain == net.p_chain_id {
                            imported.extend(i.imported_inputs.iter().map(|x| x.utxo_id.id()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let want: BTreeSet<Id> = exported.difference(&imported).copied().collect();
    assert!(!want.is_empty(), "some P exports are not imported");
    assert!(imported.is_subset(&exported), "X imported P exports");
    assert!(!imported.is_empty());
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    let list = f
        .keys
        .iter()
        .map(|k| format!("\"{}\"", fmt_addr(k)))
        .collect::<Vec<_>>()
        .join(",");
    let p = format!(r#"{{"addresses":[{list}],"sourceChain":"P"}}"#);
    let got: BTreeSet<Id> = decode_utxos(&result(&call(addr, "getUTXOs", &p).await))
        .iter()
        .map(|u| u.id())
        .collect();
    assert_eq!(got, want);
}

/// `sourceChain: C` lists what the C-Chain's blocks exported to X (coreth: output `i` of the
/// export) and X has not imported: read from `C/block`, dropped by X's imports from C.
#[tokio::test]
async fn c_chain_exports_wait_in_shared_memory_until_imported() {
    use snowline_types::coreth;
    let f = fixture();
    let net = NetworkInfo::LOCAL;
    let mut exported = BTreeSet::new();
    let mut imported = BTreeSet::new();
    for r in &f.records {
        match r.path {
            IndexPath::CBlock => {
                let b = coreth::AtomicBlock::from_container(&r.bytes, net.network_id).unwrap();
                for tx in &b.txs {
                    if let coreth::UnsignedTx::Export(e) = &tx.tx.unsigned {
                        if e.destination_chain == net.x_chain_id {
                            for i in 0..e.exported_outputs.len() {
                                let index = u32::try_from(i).unwrap();
                                exported.insert(
                                    snowline_types::components::UtxoId::new(tx.id, index).id(),
                                );
                            }
                        }
                    }
                }
            }
            IndexPath::XVtx | IndexPath::XBlock => {
                let txs: Vec<Tx> = match r.path {
                    IndexPath::XVtx => snowline_types::vertex::Vertex::parse(&r.bytes)
                        .unwrap()
                        .vertex
                        .txs
                        .iter()
                        .map(|b| Tx::parse(b).unwrap().tx)
                        .collect(),
                    _ => {
                        let outer = snowline_types::proposervm::Block::parse(&r.bytes).unwrap();
                        snowline_types::avm::StandardBlock::parse(outer.block.inner())
                            .unwrap()
                            .block
                            .txs
                    }
                };
                for tx in txs {
                    if let snowline_types::avm::UnsignedTx::Import(i) = &tx.unsigned {
                        if i.source_chain == net.c_chain_id {
                            imported.extend(i.imported_inputs.iter().map(|x| x.utxo_id.id()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let want: BTreeSet<Id> = exported.difference(&imported).copied().collect();
    assert!(imported.is_subset(&exported), "X imported C exports");
    assert!(!imported.is_empty());
    assert!(!want.is_empty(), "some C exports are not imported");
    let (addr, _stop) = serve(Arc::clone(&f.store), Compat::Spec).await;
    let list = f
        .keys
        .iter()
        .map(|k| format!("\"{}\"", fmt_addr(k)))
        .collect::<Vec<_>>()
        .join(",");
    let p = format!(r#"{{"addresses":[{list}],"sourceChain":"C"}}"#);
    let got: BTreeSet<Id> = decode_utxos(&result(&call(addr, "getUTXOs", &p).await))
        .iter()
        .map(|u| u.id())
        .collect();
    assert_eq!(got, want);
}
