//! The X-Chain's txs end to end: a devnet served as a node would serve it, `data-api`
//! following it, and every X-Chain tx by hash, every address's history and the chain's latest
//! txs equal an independent reading of the devnet's containers, parsed here with
//! `snowline_types` (never `snowline_chain_x`): each tx's container (a linear block, or `X/tx`
//! and its vertices), first acceptance time, type, the UTXOs it emits (outputs and exports, at
//! the indexes avalanchego gives them) and consumes (its inputs, whose owners are those of the
//! outputs, genesis allocations and P- and C-Chain exports to X that created them). An address
//! takes part in a tx when it owns a UTXO the tx consumes or emits; histories list each tx
//! once, by first acceptance time then tx id, in every page size, order, window and type.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{DataApi, follow, has_null, local_addr, local_addrs, upstream};
use serde_json::Value;
use snowline_types::atomic::{
    AtomicTxs, SharedMove, c_container_atomic, p_block_atomic, x_exported,
};
use snowline_types::avm::outputs::{owners, produced_utxos};
use snowline_types::avm::{StandardBlock, Tx, UnsignedTx, Utxo};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::parse_block;
use snowline_types::proposervm;
use snowline_types::vertex::Vertex;
use snowline_types::{Id, ShortId};

const X: &str = "/v1/networks/local/blockchains/x-chain";

/// Where the model saw a tx.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Place {
    Block(u64, Id),
    Vertices(Vec<(Id, u64, u64)>),
}

#[derive(Debug, Clone)]
struct MTx {
    id: Id,
    ts: u64,
    tx: Tx,
    place: Place,
    type_name: &'static str,
}

struct World {
    _up: upstream::Upstream,
    api: DataApi,
    txs: BTreeMap<Id, MTx>,
    /// Every UTXO's owners: X outputs and exports, genesis UTXOs, exports to X.
    owners: BTreeMap<Id, Vec<ShortId>>,
    /// Every UTXO's asset, likewise.
    assets: BTreeMap<Id, Id>,
    history: BTreeMap<ShortId, BTreeSet<Id>>,
    _dir: tempfile::TempDir,
}

fn type_name(tx: &UnsignedTx) -> &'static str {
    match tx {
        UnsignedTx::Base(_) => "BaseTx",
        UnsignedTx::CreateAsset(_) => "CreateAssetTx",
        UnsignedTx::Operation(_) => "OperationTx",
        UnsignedTx::Import(_) => "ImportTx",
        UnsignedTx::Export(_) => "ExportTx",
    }
}

/// The UTXOs `tx` emits on the X-Chain and into atomic memory, by output index.
fn emitted(tx: &Tx, id: &Id) -> Vec<Utxo> {
    let mut out = produced_utxos(tx, id);
    if let UnsignedTx::Export(e) = &tx.unsigned {
        out.extend(x_exported(e, *id));
    }
    out.sort_by_key(|u| u.utxo_id.output_index);
    out
}

/// The owners and asset of every UTXO the model knows.
#[derive(Default)]
struct Known {
    owners: BTreeMap<Id, Vec<ShortId>>,
    assets: BTreeMap<Id, Id>,
}

impl Known {
    fn note(&mut self, u: &Utxo) {
        self.owners.insert(u.id(), owners(&u.output));
        self.assets.insert(u.id(), u.asset_id);
    }
}

fn arrivals(txs: &AtomicTxs<Utxo>, x: Id, known: &mut Known) {
    for m in txs.moves_for(x) {
        if let SharedMove::Arrives { utxo, .. } = m {
            known.note(utxo);
        }
    }
}

fn world(seed: u64) -> World {
    let up = upstream::start(seed, 0);
    let (mut devnet, genesis) = upstream::devnet(seed, 0);
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    assert!(records == up.records, "the upstream serves this devnet");
    let net = NetworkInfo::lookup(12345).unwrap();
    let x = net.x_chain_id;
    let mut known = Known::default();
    for t in &genesis.txs {
        for u in emitted(&t.tx, &t.id) {
            known.note(&u);
        }
    }
    for (_, u) in &genesis.atomic_utxos {
        known.note(u);
    }
    let mut txs: BTreeMap<Id, MTx> = BTreeMap::new();
    let mut vertices: BTreeMap<Id, Vec<(Id, u64, u64)>> = BTreeMap::new();
    let see = |txs: &mut BTreeMap<Id, MTx>, id: Id, tx: &Tx, ts: u64, place: Option<Place>| {
        let e = txs.entry(id).or_insert_with(|| MTx {
            id,
            ts,
            tx: tx.clone(),
            place: Place::Vertices(Vec::new()),
            type_name: type_name(&tx.unsigned),
        });
        e.ts = e.ts.min(ts);
        if let Some(p) = place {
            e.place = p;
        }
    };
    for r in &records {
        let ts = u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap();
        match r.path {
            IndexPath::XTx => {
                let t = Tx::parse(&r.bytes).unwrap();
                see(&mut txs, t.id, &t.tx, ts, None);
            }
            IndexPath::XVtx => {
                let v = Vertex::parse(&r.bytes).unwrap();
                for raw in &v.vertex.txs {
                    let t = Tx::parse(raw).unwrap();
                    see(&mut txs, t.id, &t.tx, ts, None);
                    vertices
                        .entry(t.id)
                        .or_default()
                        .push((v.id, v.vertex.height, ts));
                }
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::decode(&r.bytes).unwrap();
                let b = StandardBlock::parse_vec(outer.into_inner()).unwrap();
                for (t, id) in b.block.txs.iter().zip(&b.tx_ids) {
                    see(
                        &mut txs,
                        *id,
                        t,
                        ts,
                        Some(Place::Block(b.block.height, r.id)),
                    );
                }
            }
            IndexPath::PBlock => {
                let b = parse_block(&r.bytes).unwrap();
                arrivals(&p_block_atomic(&b, r.timestamp_ns), x, &mut known);
            }
            IndexPath::CBlock => {
                if let Some(a) = c_container_atomic(r, None).unwrap() {
                    arrivals(&a, x, &mut known);
                }
            }
        }
    }
    for (id, vs) in vertices {
        if let Some(t) = txs.get_mut(&id) {
            if !matches!(t.place, Place::Block(..)) {
                t.place = Place::Vertices(vs);
            }
        }
    }
    for t in txs.values() {
        for u in emitted(&t.tx, &t.id) {
            known.note(&u);
        }
    }
    let mut history: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for t in txs.values() {
        let mut addrs: Vec<ShortId> = emitted(&t.tx, &t.id)
            .iter()
            .flat_map(|u| owners(&u.output))
            .collect();
        for i in t.tx.unsigned.input_utxos() {
            addrs.extend(known.owners.get(&i.id()).into_iter().flatten().copied());
        }
        for a in addrs {
            history.entry(a).or_default().insert(t.id);
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, seed, 120);
    let last = txs.values().max_by_key(|t| (t.ts, t.id)).unwrap().id;
    assert!(
        api.wait_until(120, |a| {
            a.get(&format!("{X}/transactions/{last}")).status == 200
                && a.get("/v1/networks/local/blockchains/p-chain/transactions?pageSize=1")
                    .json()["transactions"]
                    .as_array()
                    .is_some_and(|t| !t.is_empty())
        }),
        "the X-Chain never caught up"
    );
    // Everything followed: P- and C-Chain containers carry atomic moves too.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    eprintln!(
        "devnet seed {seed}: {} X txs ({} linear), {} addresses with a history",
        txs.len(),
        txs.values()
            .filter(|t| matches!(t.place, Place::Block(..)))
            .count(),
        history.len()
    );
    World {
        _up: up,
        api,
        txs,
        owners: known.owners,
        assets: known.assets,
        history,
        _dir: dir,
    }
}

/// Every page of `path` (which has a query), following `nextPageToken`: the tx ids and the
/// size of each page.
fn pages(api: &DataApi, path: &str) -> (Vec<String>, Vec<usize>) {
    let mut ids = Vec::new();
    let mut sizes = Vec::new();
    for v in common::page_bodies(api, path) {
        assert_eq!(v["chainInfo"]["chainName"], "x-chain");
        let items = v["transactions"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no transactions: {v}"));
        sizes.push(items.len());
        ids.extend(
            items
                .iter()
                .map(|t| t["txHash"].as_str().unwrap().to_owned()),
        );
    }
    (ids, sizes)
}

/// Pages of `base` in `sizes` list exactly `want`, each once, every page full but the last.
fn check_listing(api: &DataApi, base: &str, want: &[String], sizes: &[usize]) {
    for size in sizes {
        let path = format!("{base}&pageSize={size}");
        let (ids, got_sizes) = pages(api, &path);
        assert_eq!(ids, want, "{path}: every tx once, in order");
        common::assert_full_pages(&path, &got_sizes, *size);
    }
}

fn ordered(w: &World, txs: impl IntoIterator<Item = Id>, desc: bool) -> Vec<String> {
    let mut v: Vec<(u64, Id)> = txs.into_iter().map(|id| (w.txs[&id].ts, id)).collect();
    v.sort();
    if desc {
        v.reverse();
    }
    v.into_iter().map(|(_, id)| id.to_string()).collect()
}

#[test]
fn x_chain_txs_by_hash_and_histories_equal_the_containers() {
    let w = world(7);
    let api = &w.api;
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    for t in w.txs.values() {
        let v = api.get(&format!("{X}/transactions/{}", t.id)).json();
        *kinds.entry(t.type_name).or_default() += 1;
        assert_eq!(v["txHash"], t.id.to_string().as_str());
        assert_eq!(v["txType"], t.type_name);
        assert_eq!(v["timestamp"], t.ts, "{}", t.id);
        assert_eq!(
            v["memo"],
            snowline_types::formatting::encode_hex_plain(&t.tx.unsigned.base().memo).as_str()
        );
        match &t.place {
            Place::Block(h, id) => {
                assert_eq!(v["chainFormat"], "linear");
                assert_eq!(v["blockHeight"], *h);
                assert_eq!(v["blockHash"], id.to_string().as_str());
            }
            Place::Vertices(vs) => {
                assert_eq!(v["chainFormat"], "non-linear");
                let got: Vec<(String, u64, u64)> = v["vertices"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| {
                        (
                            x["hash"].as_str().unwrap().to_owned(),
                            x["height"].as_u64().unwrap(),
                            x["timestamp"].as_u64().unwrap(),
                        )
                    })
                    .collect();
                let want: Vec<(String, u64, u64)> = vs
                    .iter()
                    .map(|(i, h, ts)| (i.to_string(), *h, *ts))
                    .collect();
                assert_eq!(got, want, "{} vertices", t.id);
            }
        }
        let ids = |key: &str| -> Vec<String> {
            v[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u["utxoId"].as_str().unwrap().to_owned())
                .collect()
        };
        let want: Vec<String> = emitted(&t.tx, &t.id)
            .iter()
            .map(|u| u.id().to_string())
            .collect();
        assert_eq!(ids("emittedUtxos"), want, "{} emitted", t.id);
        let want: Vec<String> =
            t.tx.unsigned
                .input_utxos()
                .iter()
                .map(|u| u.id())
                .filter(|id| w.owners.contains_key(id))
                .map(|id| id.to_string())
                .collect();
        assert_eq!(ids("consumedUtxos"), want, "{} consumed", t.id);
        for u in v["emittedUtxos"].as_array().unwrap() {
            let id: Id = u["utxoId"].as_str().unwrap().parse().unwrap();
            let mut want = local_addrs("X", &w.owners[&id]);
            want.sort();
            let mut got: Vec<String> = u["addresses"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap().to_owned())
                .collect();
            got.sort();
            assert_eq!(got, want, "owners of {id}");
        }
        if let UnsignedTx::CreateAsset(c) = &t.tx.unsigned {
            assert_eq!(v["assetCreated"]["assetId"], t.id.to_string().as_str());
            assert_eq!(v["assetCreated"]["symbol"], c.symbol.as_str());
        }
        assert!(!has_null(&v), "{}: {v}", t.id);
    }
    eprintln!("X txs by hash: {kinds:?}");
    assert!(kinds.len() >= 3, "{kinds:?}");
    api.get(&format!("{X}/transactions/{}", Id([9; 32])))
        .error(404, "Not Found");
    api.get(&format!("{X}/transactions/xyz"))
        .error(400, "Bad Request");

    // Address histories: each alone, the busiest in every page size and both orders.
    let mut by_len: Vec<(&ShortId, &BTreeSet<Id>)> = w.history.iter().collect();
    by_len.sort_by_key(|(a, h)| (std::cmp::Reverse(h.len()), **a));
    let top: Vec<ShortId> = by_len.iter().take(3).map(|(a, _)| **a).collect();
    assert!(w.history[&top[0]].len() >= 5, "a long history");
    let mut compared = 0;
    for (addr, h) in &w.history {
        let base = format!("{X}/transactions?addresses={}", local_addr("X", addr));
        let sizes: &[usize] = if *addr == top[0] {
            &[1, 3, 100]
        } else {
            &[100]
        };
        check_listing(api, &base, &ordered(&w, h.iter().copied(), true), sizes);
        compared += h.len();
    }
    let union: BTreeSet<Id> = top
        .iter()
        .flat_map(|a| w.history[a].iter().copied())
        .collect();
    let base = format!(
        "{X}/transactions?addresses={}",
        local_addrs("X", &top).join(",")
    );
    check_listing(
        api,
        &base,
        &ordered(&w, union.iter().copied(), true),
        &[1, 3, 100],
    );
    check_listing(
        api,
        &format!("{base}&sortOrder=asc"),
        &ordered(&w, union.iter().copied(), false),
        &[3, 100],
    );
    let times: Vec<u64> = union
        .iter()
        .map(|id| w.txs[id].ts)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let (t1, t2) = (times[times.len() / 4], times[times.len() * 3 / 4]);
    let inside = |id: &Id| (t1..t2).contains(&w.txs[id].ts);
    let q = format!("&startTimestamp={t1}&endTimestamp={t2}");
    check_listing(
        api,
        &format!("{base}{q}"),
        &ordered(&w, union.iter().copied().filter(inside), true),
        &[3, 100],
    );
    for ty in ["BaseTx", "ExportTx"] {
        let want = ordered(
            &w,
            union.iter().copied().filter(|id| w.txs[id].type_name == ty),
            true,
        );
        check_listing(api, &format!("{base}&txTypes={ty}"), &want, &[3, 100]);
    }
    // The chain's latest: every tx.
    let all = ordered(&w, w.txs.keys().copied(), true);
    check_listing(
        api,
        &format!("{X}/transactions?sortOrder=desc"),
        &all,
        &[7, 100],
    );
    // Another chain's type, a P- address.
    api.get(&format!("{X}/transactions?txTypes=AddValidatorTx"))
        .error(400, "Bad Request");
    let p_addr = local_addr("P", &top[0]);
    api.get(&format!("{X}/transactions?addresses={p_addr}"))
        .error(400, "Bad Request");
    eprintln!("{compared} X history entries compared");

    // Last activity: the newest tx (first acceptance, then id) moving a UTXO of the address.
    let mut checked = 0;
    for addr in w.history.keys() {
        let mut txs: Vec<&MTx> = w.txs.values().collect();
        txs.sort_by_key(|t| (t.ts, t.id));
        let mine = |id: &Id| w.owners.get(id).is_some_and(|o| o.contains(addr));
        let want = txs.iter().rev().find_map(|t| {
            let mut consumed: Vec<Id> =
                t.tx.unsigned
                    .input_utxos()
                    .iter()
                    .map(|u| u.id())
                    .filter(|id| mine(id))
                    .collect();
            consumed.sort();
            let mut made: Vec<Id> = emitted(&t.tx, &t.id)
                .iter()
                .map(|u| u.id())
                .filter(|id| mine(id))
                .collect();
            made.sort();
            consumed
                .first()
                .map(|u| (t, *u, true))
                .or(made.first().map(|u| (t, *u, false)))
        });
        let (t, utxo, consumed) = want.unwrap();
        let v = api
            .get(&format!(
                "{X}/lastActivityTimestampByAddresses?addresses={}",
                local_addr("X", addr)
            ))
            .json();
        assert_eq!(v["txHash"], t.id.to_string().as_str());
        assert_eq!(v["timestamp"], t.ts);
        assert_eq!(v["utxoId"], utxo.to_string().as_str());
        assert_eq!(v["isConsumed"], consumed);
        assert_eq!(v["chainName"], "x-chain");
        checked += 1;
    }
    assert!(checked >= 10);

    // Chain ids: the X-Chain for every address that owned an X UTXO, none for a stranger.
    let x_id = NetworkInfo::lookup(12345).unwrap().x_chain_id.to_string();
    let stranger = ShortId([0x5a; 20]);
    let mut asked: Vec<ShortId> = w.history.keys().copied().collect();
    asked.push(stranger);
    let joined = local_addrs("X", &asked).join(",");
    let v = api
        .get(&format!(
            "/v1/networks/local/addresses:listChainIds?addresses={joined}"
        ))
        .json();
    let entries = v["addresses"].as_array().unwrap();
    assert_eq!(entries.len(), asked.len());
    for e in entries {
        let ids: Vec<&str> = e["blockchainIds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_str().unwrap())
            .collect();
        let addr = e["address"].as_str().unwrap();
        let a = asked
            .iter()
            .find(|a| local_addr("X", a).ends_with(addr))
            .unwrap_or_else(|| panic!("{addr} was not asked"));
        let owns = w.owners.values().any(|o| o.contains(a));
        assert_eq!(ids.contains(&x_id.as_str()), owns, "{addr}: {ids:?}");
        if *a == stranger {
            assert!(ids.is_empty(), "{ids:?}");
        }
    }
    api.get("/v1/networks/local/addresses:listChainIds")
        .error(400, "Bad Request");

    // Assets: each created one (the genesis AVAX too) and its txs, newest first.
    let mut by_asset: BTreeMap<Id, BTreeSet<Id>> = BTreeMap::new();
    for t in w.txs.values() {
        let mut moved: Vec<Id> = emitted(&t.tx, &t.id).iter().map(|u| u.asset_id).collect();
        for i in t.tx.unsigned.input_utxos() {
            moved.extend(w.assets.get(&i.id()).copied());
        }
        for a in moved {
            by_asset.entry(a).or_default().insert(t.id);
        }
    }
    let mut assets_checked = 0;
    for t in w.txs.values() {
        let UnsignedTx::CreateAsset(c) = &t.tx.unsigned else {
            continue;
        };
        let v = api.get(&format!("{X}/assets/{}", t.id)).json();
        assert_eq!(v["name"], c.name.as_str());
        assert_eq!(v["symbol"], c.symbol.as_str());
        assert_eq!(v["denomination"], c.denomination);
        assert_eq!(v["createdAtTimestamp"], t.ts);
        assets_checked += 1;
    }
    for (asset, txs) in &by_asset {
        let v = api.get(&format!("{X}/assets/{asset}"));
        assert_eq!(v.status, 200, "asset {asset}: {}", v.body);
        let base = format!(
            "{X}/assets/{asset}/transactions?txTypes=BaseTx,ExportTx,ImportTx,OperationTx,CreateAssetTx"
        );
        check_listing(
            api,
            &base,
            &ordered(&w, txs.iter().copied(), true),
            &[3, 100],
        );
        let want = ordered(
            &w,
            txs.iter()
                .copied()
                .filter(|id| w.txs[id].type_name == "BaseTx"),
            true,
        );
        check_listing(
            api,
            &format!("{X}/assets/{asset}/transactions?txTypes=BaseTx"),
            &want,
            &[100],
        );
    }
    assert!(
        by_asset.len() >= 2 && assets_checked >= 1,
        "{} assets",
        by_asset.len()
    );
    api.get(&format!("{X}/assets/{}", Id([4; 32])))
        .error(404, "Not Found");
    api.get(&format!("{X}/assets/nope"))
        .error(400, "Bad Request");
    api.get(&format!(
        "/v1/networks/local/blockchains/p-chain/assets/{}",
        w.txs.keys().next().unwrap()
    ))
    .error(400, "Bad Request");
}

/// A linear block: height, container id, parent container id, block time, tx ids, proposer.
type MBlock = (u64, Id, Id, u64, Vec<String>, Option<String>);

#[test]
fn x_chain_blocks_by_id_and_latest_equal_the_containers() {
    let up = upstream::start(7, 0);
    let dir = tempfile::tempdir().unwrap();
    let api = follow(dir.path(), &up, 7, 120);
    let mut blocks: Vec<MBlock> = Vec::new();
    for r in up.records.iter().filter(|r| r.path == IndexPath::XBlock) {
        let outer = proposervm::Block::parse(&r.bytes).unwrap();
        assert_eq!(outer.id, r.id);
        let parent = outer.block.parent_id();
        let node = outer.block.proposer().map(|n| n.to_string());
        let b = StandardBlock::parse_vec(outer.block.inner().to_vec()).unwrap();
        let txs = b.tx_ids.iter().map(Id::to_string).collect();
        blocks.push((b.block.height, r.id, parent, b.block.time, txs, node));
    }
    blocks.sort_by_key(|b| b.0);
    assert!(blocks.len() >= 10, "{} X blocks", blocks.len());
    let last = blocks.last().unwrap().1;
    assert!(api.wait_until(120, |a| a.get(&format!("{X}/blocks/{last}")).status == 200));
    for (height, id, parent, time, txs, node) in &blocks {
        let v = api.get(&format!("{X}/blocks/{id}")).json();
        assert_eq!(v["blockNumber"], height.to_string().as_str());
        assert_eq!(v["blockHash"], id.to_string().as_str());
        assert_eq!(v["parentHash"], parent.to_string().as_str());
        assert_eq!(v["blockTimestamp"], *time);
        assert_eq!(v["transactions"], serde_json::json!(txs));
        assert_eq!(v["txCount"], txs.len());
        assert_eq!(v["proposerDetails"]["proposerId"], id.to_string().as_str());
        match node {
            Some(n) => assert_eq!(v["proposerDetails"]["proposerNodeId"], n.as_str()),
            None => assert!(v["proposerDetails"].get("proposerNodeId").is_none()),
        }
        assert!(!has_null(&v), "{v}");
    }
    api.get(&format!("{X}/blocks/{}", Id([5; 32])))
        .error(404, "Not Found");
    let t1 = blocks[blocks.len() / 3].3;
    let t2 = blocks[blocks.len() * 2 / 3].3;
    for (start, end) in [(None, None), (Some(t1), Some(t2)), (None, Some(t2))] {
        let want: Vec<String> = blocks
            .iter()
            .rev()
            .filter(|b| start.is_none_or(|s| b.3 >= s) && end.is_none_or(|e| b.3 < e))
            .map(|b| b.1.to_string())
            .collect();
        let mut q = String::new();
        if let Some(s) = start {
            q.push_str(&format!("&startTimestamp={s}"));
        }
        if let Some(e) = end {
            q.push_str(&format!("&endTimestamp={e}"));
        }
        for size in [1, 7, 100] {
            let mut got = Vec::new();
            let mut token: Option<String> = None;
            loop {
                let mut p = format!("{X}/blocks?pageSize={size}{q}");
                if let Some(t) = &token {
                    p.push_str(&format!("&pageToken={t}"));
                }
                let v = api.get(&p).json();
                got.extend(
                    v["blocks"]
                        .as_array()
                        .unwrap_or_else(|| panic!("{p}: {v}"))
                        .iter()
                        .map(|b| b["blockHash"].as_str().unwrap().to_owned()),
                );
                match v.get("nextPageToken").and_then(Value::as_str) {
                    Some(t) => token = Some(t.to_owned()),
                    None => break,
                }
            }
            // The linear genesis block (height 0, unwrapped) is listed too, when in the window.
            let got: Vec<String> = got
                .into_iter()
                .filter(|h| blocks.iter().any(|b| b.1.to_string() == *h))
                .collect();
            assert_eq!(got, want, "window {start:?}..{end:?}, pages of {size}");
        }
    }
    // Blocks by the node that signed their wrapper, as the containers' certificates say (the
    // devnet's X-Chain wrappers are unsigned, so the listing names none of its blocks; a node
    // that signed none lists nothing).
    let mut nodes: BTreeSet<String> = blocks.iter().filter_map(|b| b.5.clone()).collect();
    nodes.insert("NodeID-111111111111111111116DBWJs".to_owned());
    for n in &nodes {
        let want: Vec<String> = blocks
            .iter()
            .rev()
            .filter(|b| b.5.as_deref() == Some(n.as_str()))
            .map(|b| b.1.to_string())
            .collect();
        for size in [1, 100] {
            let path = format!("{X}/nodes/{n}/blocks?pageSize={size}");
            let got: Vec<String> = common::all_pages(&api, &path, "blocks")
                .iter()
                .map(|b| b["blockHash"].as_str().unwrap().to_owned())
                .collect();
            assert_eq!(got, want, "{path}");
        }
    }
    api.get(&format!("{X}/nodes/NodeID-x/blocks"))
        .error(400, "Bad Request");
}
