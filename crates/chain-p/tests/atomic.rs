//! Atomic memory between the X- and the P-Chain, derived by the Data API's pair of hooks
//! (`XHistory`, `PChain`) from the devnet's whole container stream: in the devnet's order,
//! X-Chain first, P-Chain first and interleaved both ways in small batches, every X and P row
//! ends the same; the atomic UTXOs each chain holds are every export minus every import,
//! computed here from the tx bodies; an export waits unspent in the destination's atomic
//! memory until its import consumes it, with the import's tx, chain, height and time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};

use snowline_chain_p::rows::{Event, Holding, UtxoRow};
use snowline_chain_p::tables::*;
use snowline_chain_p::{PChain, PChainStats, PReader};
use snowline_chain_x::history::XHistory;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, Linear, ReadView, Schema, Store, Table};
use snowline_types::avm::{self, StandardBlock, Tx};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::{self, PGenesisState};
use snowline_types::vertex::Vertex;
use snowline_types::{Id, ShortId, proposervm};

struct World {
    records: Vec<ContainerRecord>,
    x_genesis: avm::XGenesisState,
    p_genesis: PGenesisState,
    net: NetworkInfo,
}

fn world(cfg: DevnetConfig) -> World {
    let mut devnet = Devnet::generate(cfg).unwrap();
    let records: Vec<ContainerRecord> = devnet.by_ref().map(|r| r.unwrap()).collect();
    World {
        records,
        x_genesis: devnet.x_genesis(),
        p_genesis: devnet.p_genesis(),
        net: devnet.genesis().network.clone(),
    }
}

fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::history::tables())
        .chain(tables())
        .fold(Schema::new(1), Schema::with_spec)
}

/// Applies both geneses and ingests `records` with the pair of hooks, as `data-api` does.
fn run(store: &Store, w: &World, records: &[ContainerRecord], batch: usize) -> PChainStats {
    let net = &w.net;
    let mut hooks = (
        XHistory::new(net.x_chain_id, net.p_chain_id),
        PChain::new(
            net.network_id,
            net.p_chain_id,
            net.x_chain_id,
            net.avax_asset_id,
        ),
    );
    hooks.0.apply_genesis(store, &w.x_genesis, 0).unwrap();
    hooks.1.apply_genesis(store, &w.p_genesis).unwrap();
    let mut writer = IndexWriter::open(store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(store, &mut writer, src, batch, &mut hooks, |_| {}).unwrap();
    assert_eq!(hooks.0.stats().missing_inputs, 0);
    hooks.1.stats()
}

fn dump<T: Table>(store: &Store, out: &mut Vec<String>)
where
    T::Key: std::fmt::Debug,
    T::Value: std::fmt::Debug,
{
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        out.push(format!("{} {:?}", T::NAME, e.unwrap()));
    }
}

/// Every row of the X history and the P-Chain tables.
fn dump_all(store: &Store) -> Vec<String> {
    use snowline_chain_x::history::tables as xh;
    let mut out = Vec::new();
    macro_rules! each {
        ($($t:ty),* $(,)?) => { $(dump::<$t>(store, &mut out);)* };
    }
    each!(
        xh::XhUtxos,
        xh::XhUnspentByTime,
        xh::XhUnspentByAmount,
        xh::XhAllByTime,
        xh::XhAllByAmount,
        xh::XhBalances,
        xh::XhMultiOwner,
        xh::XhTxs,
        xh::XhVertices,
        xh::XhBlocks,
        xh::XhAssets,
        xh::XhMeta,
        xh::XhEarlySpends,
        PhUtxos,
        PhEarlySpends,
        PhUnspentByTime,
        PhUnspentByAmount,
        PhAllByTime,
        PhAllByAmount,
        PhTxs,
        PhBlocks,
        PhBlocksByProposer,
        PhStakers,
        PhStakersByNode,
        PhStakersByOwner,
        PhCurrentStakers,
        PhCurrentValidators,
        PhRewardsByOwner,
        PhRewardsByNode,
        PhSubnets,
        PhChains,
        PhL1Validators,
        PhL1BySubnet,
        PhL1ByNode,
        PhL1Active,
        PhMeta,
        PhPendingProposal,
    );
    assert!(out.len() > 1000, "the devnet fills the tables");
    out
}

fn split(w: &World) -> (Vec<ContainerRecord>, Vec<ContainerRecord>) {
    w.records
        .iter()
        .cloned()
        .partition(|r| r.path != IndexPath::PBlock)
}

/// Both streams merged with the P-Chain's moved by `shift` (a fraction of the run).
fn shifted(x: &[ContainerRecord], p: &[ContainerRecord], shift: f64) -> Vec<ContainerRecord> {
    let mut keyed: Vec<(f64, usize, &ContainerRecord)> = Vec::new();
    for (i, r) in x.iter().enumerate() {
        keyed.push((i as f64 / x.len() as f64, i, r));
    }
    for (j, r) in p.iter().enumerate() {
        keyed.push((j as f64 / p.len() as f64 + shift, x.len() + j, r));
    }
    keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, _, r)| r.clone()).collect()
}

#[test]
fn every_arrival_order_ends_with_the_same_x_and_p_rows() {
    let w = world(DevnetConfig::small());
    let (x, p) = split(&w);
    let (not_c, c): (Vec<_>, Vec<_>) = w
        .records
        .iter()
        .cloned()
        .partition(|r| r.path != IndexPath::CBlock);
    assert!(!c.is_empty());
    let orders: [(&str, Vec<ContainerRecord>, usize); 7] = [
        ("devnet order", w.records.clone(), 16),
        ("C last", [not_c.clone(), c.clone()].concat(), 5),
        ("C first", [c.clone(), not_c.clone()].concat(), 7),
        ("X first", [x.clone(), p.clone()].concat(), 64),
        ("P first", [p.clone(), x.clone()].concat(), 3),
        ("P behind", shifted(&x, &p, 0.4), 4),
        ("P ahead", shifted(&x, &p, -0.4), 1),
    ];
    let mut want: Option<Vec<String>> = None;
    for (name, records, batch) in orders {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &schema()).unwrap();
        let stats = run(&store, &w, &records, batch);
        assert_eq!(stats.missing_inputs, 0, "{name}");
        if matches!(name, "X first" | "P first" | "C last") {
            assert!(stats.early_spends > 0, "{name}: some import came first");
        }
        let got = dump_all(&store);
        assert!(
            got.iter().all(|l| !l.starts_with("ph_early_spends")),
            "{name}: every export came"
        );
        match &want {
            None => want = Some(got),
            Some(want) => {
                assert_eq!(got.len(), want.len(), "{name}");
                for (g, w) in got.iter().zip(want) {
                    assert_eq!(g, w, "{name}");
                }
            }
        }
    }
}

/// Every export between chains (`utxo id -> (source, destination)`) and every import, from the
/// tx bodies (X txs once each, wherever they appear).
struct Traffic {
    exported: BTreeMap<Id, (Id, Id)>,
    imported: BTreeMap<Id, Id>,
}

fn traffic(w: &World) -> Traffic {
    let mut t = traffic_of(w, &w.records);
    for (source, u) in &w.x_genesis.atomic_utxos {
        t.exported.insert(u.id(), (*source, w.net.x_chain_id));
    }
    for (source, u) in &w.p_genesis.atomic_utxos {
        t.exported.insert(u.id(), (*source, w.net.p_chain_id));
    }
    t
}

/// The exports and imports of `records`' txs.
fn traffic_of(w: &World, records: &[ContainerRecord]) -> Traffic {
    let mut t = Traffic {
        exported: BTreeMap::new(),
        imported: BTreeMap::new(),
    };
    let mut seen = BTreeSet::new();
    let mut x_tx = |t: &mut Traffic, tx: &Tx, id: Id| {
        if !seen.insert(id) {
            return;
        }
        match &tx.unsigned {
            avm::UnsignedTx::Export(e) => {
                let n = e.base.outputs.len();
                for i in 0..e.exported_outputs.len() {
                    let u = UtxoId::new(id, u32::try_from(n + i).unwrap()).id();
                    t.exported
                        .insert(u, (w.net.x_chain_id, e.destination_chain));
                }
            }
            avm::UnsignedTx::Import(i) => {
                for x in &i.imported_inputs {
                    t.imported.insert(x.utxo_id.id(), id);
                }
            }
            _ => {}
        }
    };
    for r in records {
        match r.path {
            IndexPath::XTx => {
                let tx = Tx::parse(&r.bytes).unwrap();
                x_tx(&mut t, &tx.tx, tx.id);
            }
            IndexPath::XVtx => {
                for b in Vertex::parse(&r.bytes).unwrap().vertex.txs {
                    let tx = Tx::parse(&b).unwrap();
                    x_tx(&mut t, &tx.tx, tx.id);
                }
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::parse(&r.bytes).unwrap();
                let inner = StandardBlock::parse(outer.block.inner()).unwrap();
                for (tx, id) in inner.block.txs.iter().zip(&inner.tx_ids) {
                    x_tx(&mut t, tx, *id);
                }
            }
            IndexPath::PBlock => {
                let block = platformvm::parse_block(&r.bytes).unwrap().block;
                for (tx, id) in block.block.txs().into_iter().zip(&block.tx_ids) {
                    match &tx.unsigned {
                        platformvm::UnsignedTx::ExportTx(e) => {
                            let n = e.base.outputs.len();
                            for i in 0..e.exported_outputs.len() {
                                let u = UtxoId::new(*id, u32::try_from(n + i).unwrap()).id();
                                t.exported
                                    .insert(u, (w.net.p_chain_id, e.destination_chain));
                            }
                        }
                        platformvm::UnsignedTx::ImportTx(i) => {
                            for x in &i.imported_inputs {
                                t.imported.insert(x.utxo_id.id(), *id);
                            }
                        }
                        _ => {}
                    }
                }
            }
            IndexPath::CBlock => {
                // coreth: an export's i-th output is (txID, i); an import names its UTXOs.
                let block =
                    snowline_types::coreth::AtomicBlock::from_container(&r.bytes, w.net.network_id)
                        .unwrap();
                for tx in &block.txs {
                    match &tx.tx.unsigned {
                        snowline_types::coreth::UnsignedTx::Export(e) => {
                            for i in 0..e.exported_outputs.len() {
                                let u = UtxoId::new(tx.id, u32::try_from(i).unwrap()).id();
                                t.exported
                                    .insert(u, (w.net.c_chain_id, e.destination_chain));
                            }
                        }
                        snowline_types::coreth::UnsignedTx::Import(i) => {
                            for x in &i.imported_inputs {
                                t.imported.insert(x.utxo_id.id(), tx.id);
                            }
                        }
                    }
                }
            }
        }
    }
    t
}

fn p_rows(store: &Store) -> BTreeMap<Id, UtxoRow> {
    store
        .scan::<PhUtxos, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| {
            let (id, Linear(row)) = e.unwrap();
            (id, row)
        })
        .collect()
}

#[test]
fn p_holds_the_exports_not_imported() {
    let w = world(DevnetConfig::small().with_seed(6));
    let t = traffic(&w);
    let p = w.net.p_chain_id;
    let want: BTreeMap<Id, (Id, Id)> = t
        .exported
        .iter()
        .filter(|(u, (from, to))| (*from == p || *to == p) && !t.imported.contains_key(*u))
        .map(|(u, c)| (*u, *c))
        .collect();
    assert!(want.values().any(|(from, _)| *from == p), "P exports wait");
    assert!(
        t.imported.keys().any(|u| t.exported[u].0 == p),
        "X imports P's exports"
    );
    assert!(
        t.imported.keys().any(|u| t.exported[u].1 == p),
        "P imports X's exports"
    );
    let (xs, ps) = split(&w);
    for records in [w.records.clone(), [xs, ps].concat()] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &schema()).unwrap();
        run(&store, &w, &records, 8);
        let got: BTreeMap<Id, (Id, Id)> = p_rows(&store)
            .into_iter()
            .filter(|(_, r)| r.holding != Holding::Native && r.consumed.is_none())
            .map(|(u, r)| (u, (r.created_on, r.consumed_on)))
            .collect();
        assert_eq!(got, want);
        // And each imported one is consumed by its import, on the importing chain.
        for (u, r) in p_rows(&store) {
            if r.holding == Holding::Native {
                continue;
            }
            assert_eq!(r.consumed.map(|c| c.tx_id), t.imported.get(&u).copied());
            let importer = if r.holding == Holding::ExportedFromP {
                t.exported[&u].1
            } else {
                p
            };
            assert_eq!(r.consumed_on, importer, "{u}");
        }
    }
}

/// Where each X tx was accepted: `(height, acceptance time)` of its vertex or block.
fn x_places(w: &World) -> BTreeMap<Id, (u64, u64)> {
    let mut out = BTreeMap::new();
    for r in &w.records {
        let ts = u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap();
        match r.path {
            IndexPath::XVtx => {
                let v = Vertex::parse(&r.bytes).unwrap().vertex;
                for b in &v.txs {
                    out.entry(Tx::parse(b).unwrap().id)
                        .or_insert((v.height, ts));
                }
            }
            IndexPath::XBlock => {
                let outer = proposervm::Block::parse(&r.bytes).unwrap();
                let inner = StandardBlock::parse(outer.block.inner()).unwrap();
                for id in &inner.tx_ids {
                    out.insert(*id, (inner.block.height, ts));
                }
            }
            _ => {}
        }
    }
    out
}

/// Where each P tx was accepted: `(height, block time)`.
fn p_places(w: &World) -> BTreeMap<Id, (u64, u64)> {
    let mut out = BTreeMap::new();
    for r in w.records.iter().filter(|r| r.path == IndexPath::PBlock) {
        let b = platformvm::parse_block(&r.bytes).unwrap().block;
        let ts = b
            .block
            .timestamp()
            .unwrap_or(u64::try_from(r.timestamp_ns / 1_000_000_000).unwrap());
        for id in &b.tx_ids {
            out.insert(*id, (b.block.height(), ts));
        }
    }
    out
}

fn unspent(store: &Store, a: &ShortId) -> BTreeSet<Id> {
    store
        .prefix_scan::<PhUnspentByTime, ShortId>(a, None, Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.2)
        .collect()
}

#[test]
fn an_export_waits_in_p_atomic_memory_until_imported() {
    let w = world(DevnetConfig::small());
    let t = traffic(&w);
    let (x, p) = (w.net.x_chain_id, w.net.p_chain_id);
    let (xp, pp) = (x_places(&w), p_places(&w));
    for (from, to) in [(x, p), (p, x)] {
        let (id, import_tx) = t
            .imported
            .iter()
            .find(|(u, _)| t.exported.get(*u) == Some(&(from, to)))
            .map(|(u, tx)| (*u, *tx))
            .unwrap();
        // Everything before the container holding the import: waiting, unspent.
        let at = w
            .records
            .iter()
            .position(|r| {
                traffic_of(&w, std::slice::from_ref(r))
                    .imported
                    .contains_key(&id)
            })
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &schema()).unwrap();
        run(&store, &w, &w.records[..at], 6);
        let row = PReader::new(&store).utxo(&id).unwrap().unwrap();
        let holding = if from == p {
            Holding::ExportedFromP
        } else {
            Holding::ExportedToP
        };
        assert_eq!(row.holding, holding);
        assert_eq!((row.created_on, row.consumed_on), (from, to));
        assert_eq!(row.shared_with(), Some(x));
        assert_eq!(row.consumed, None);
        let owner = row.utxo().unwrap().output.owners().addrs[0];
        assert!(unspent(&store, &owner).contains(&id));
        let (created_height, created_time) = if from == p {
            pp[&row.created.tx_id]
        } else {
            xp[&row.created.tx_id]
        };
        assert_eq!(
            (row.created.height, row.created.timestamp),
            (created_height, created_time),
            "created at the exporting container's height and time"
        );
        // Then the rest: consumed by the import, at its container's height and time.
        run(&store, &w, &w.records, 6);
        let row = PReader::new(&store).utxo(&id).unwrap().unwrap();
        let (height, timestamp) = if to == p {
            pp[&import_tx]
        } else {
            xp[&import_tx]
        };
        assert_eq!(
            row.consumed,
            Some(Event {
                tx_id: import_tx,
                height,
                timestamp,
            })
        );
        assert_eq!(row.consumed_on, to);
        assert!(!unspent(&store, &owner).contains(&id));
        // Live in atomic memory exactly between export and import, whatever the time asked.
        for (time, live) in [
            (created_time - 1, false),
            (created_time, true),
            (timestamp - 1, true),
            (timestamp, false),
        ] {
            assert_eq!(row.live_at(time), live, "at {time}");
        }
    }
}
