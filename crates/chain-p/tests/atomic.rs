//! Atomic memory between the X- and the P-Chain, derived by the Data API's pair of hooks
//! (`XHistory`, `PChain`) from the devnet's whole container stream: in the devnet's order,
//! X-Chain first, P-Chain first and interleaved both ways in small batches, every X and P row
//! ends the same; the atomic UTXOs each chain holds are every export minus every import,
//! computed here from the tx bodies; an export waits unspent in the destination's atomic
//! memory until its import consumes it, with the import's tx, chain, height and time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../chain-x/tests/common/atomic.rs"]
mod atomic_support;

use std::collections::{BTreeMap, BTreeSet};

use atomic_support::{
    Chains, RoomModel, Traffic, WantRow, read_again, read_again_at_end, room_model, shifted,
};

use snowline_chain_p::rows::{Event, Holding, UtxoRow};
use snowline_chain_p::tables::*;
use snowline_chain_p::{PChain, PChainStats, PReader};
use snowline_chain_x::history::tables::XhEarlySpends;
use snowline_chain_x::history::{HistoryStats, XHistory};
use snowline_chain_x::state::tables::{XAtomicEarlyImports, XAtomicUtxos};
use snowline_chain_x::state::{XChainState, XStats};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, Linear, ReadView, Schema, Store, Table};
use snowline_types::avm::{self, StandardBlock, Tx};
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
    let (x, p) = run_both(store, w, records, batch);
    assert_eq!(x.missing_inputs, 0);
    p
}

/// [`run`], with what each hook counted.
fn run_both(
    store: &Store,
    w: &World,
    records: &[ContainerRecord],
    batch: usize,
) -> (HistoryStats, PChainStats) {
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
    (hooks.0.stats(), hooks.1.stats())
}

/// Ingests `records` into a store of the X-Chain state alone (`XChainState`, the node RPC's
/// view of shared memory), as `node-rpc` does.
fn run_state(
    dir: &std::path::Path,
    w: &World,
    records: &[ContainerRecord],
    batch: usize,
) -> (Store, XStats) {
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::state::tables::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir, &schema).unwrap();
    let mut state =
        XChainState::new(w.net.x_chain_id, w.net.p_chain_id).with_c_chain(w.net.c_chain_id);
    state.apply_genesis(&store, &w.x_genesis).unwrap();
    let mut writer = IndexWriter::open(&store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(&store, &mut writer, src, batch, &mut state, |_| {}).unwrap();
    let stats = state.stats();
    (store, stats)
}

/// The UTXOs X-Chain imports took before the export that put them in X's shared memory was
/// read (each tx counted once, however often it is read): what the X state remembers early.
fn x_early_imports(ch: &Chains, w: &World, records: &[ContainerRecord]) -> u64 {
    let mut exported: BTreeSet<Id> = w
        .x_genesis
        .atomic_utxos
        .iter()
        .map(|(_, u)| u.id())
        .collect();
    let mut read = BTreeSet::new();
    let mut early = 0;
    for r in records {
        for op in atomic_support::container_ops(ch, r).2 {
            if !read.insert(op.tx) {
                continue;
            }
            exported.extend(
                op.exports
                    .iter()
                    .filter(|(_, to)| *to == ch.x)
                    .map(|(u, _)| *u),
            );
            if op.chain == ch.x {
                early += op
                    .imports
                    .iter()
                    .filter(|(u, _)| !exported.contains(u))
                    .count();
            }
        }
    }
    u64::try_from(early).unwrap()
}

/// X's shared memory by the model: every UTXO another chain exported to X that no import took,
/// as `(source chain, utxo id)`.
fn x_shared_memory(m: &RoomModel) -> BTreeSet<(Id, Id)> {
    m.rows
        .iter()
        .filter(|(_, r)| !r.from_own && r.consumed.is_none())
        .map(|(u, r)| (r.created_on, *u))
        .collect()
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
    atomic_support::split(&w.records)
}

fn chains(w: &World) -> Chains {
    Chains {
        network_id: w.net.network_id,
        x: w.net.x_chain_id,
        p: w.net.p_chain_id,
        c: w.net.c_chain_id,
    }
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
/// tx bodies (X txs once each, wherever they appear), with the exports waiting at genesis.
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
    atomic_support::traffic_of(&chains(w), records)
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

/// Each chain's side of shared memory as its room keeps it: every atomic UTXO's row (which way,
/// the chains, the exporting and the importing tx with their height and time).
fn x_side(store: &Store) -> BTreeMap<Id, WantRow> {
    use snowline_chain_x::history::{Holding as XHolding, tables::XhUtxos};
    store
        .scan::<XhUtxos, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|(_, r)| r.holding != XHolding::Native)
        .map(|(u, r)| {
            let place = |e: snowline_chain_x::history::Event| (e.tx_id, e.height, e.timestamp);
            let row = WantRow {
                from_own: r.holding == XHolding::ExportedFromX,
                created_on: r.created_on,
                consumed_on: r.consumed_on,
                created: place(r.created),
                consumed: r.consumed.map(place),
            };
            (u, row)
        })
        .collect()
}

fn p_side(store: &Store) -> BTreeMap<Id, WantRow> {
    let place = |e: Event| (e.tx_id, Some(e.height), e.timestamp);
    p_rows(store)
        .into_iter()
        .filter(|(_, r)| r.holding != Holding::Native)
        .map(|(u, r)| {
            let row = WantRow {
                from_own: r.holding == Holding::ExportedFromP,
                created_on: r.created_on,
                consumed_on: r.consumed_on,
                created: place(r.created),
                consumed: r.consumed.map(place),
            };
            (u, row)
        })
        .collect()
}

/// The model of both rooms for a stream: X reads `X/tx` too, P does not; the geneses' atomic
/// UTXOs wait from the start (X's genesis applied at time 0 here, P's at its own time).
fn models(w: &World, records: &[ContainerRecord]) -> (RoomModel, RoomModel) {
    let ch = chains(w);
    let genesis = |g: &[(Id, platformvm::Utxo)]| -> Vec<(Id, Id, Id)> {
        g.iter()
            .map(|(s, u)| (*s, u.id(), u.utxo_id.tx_id))
            .collect()
    };
    let x_genesis: Vec<(Id, Id, Id)> = w
        .x_genesis
        .atomic_utxos
        .iter()
        .map(|(s, u)| (*s, u.id(), u.utxo_id.tx_id))
        .collect();
    let x = room_model(&ch, ch.x, records, true, &x_genesis, (None, 0));
    let p_place = (Some(0), w.p_genesis.timestamp);
    let p = room_model(
        &ch,
        ch.p,
        records,
        false,
        &genesis(&w.p_genesis.atomic_utxos),
        p_place,
    );
    (x, p)
}

/// The shared-memory rule (avalanchego `chains/atomic/state.go` at commit
/// `1cf1fc3d1711a09fde7319d2b48609c8cba93680`: a UTXO put once and removed once, a remove before
/// its put leaving a tombstone the put cancels), applied by the model to the devnet's X, P and C
/// atomic txs, gives every X and P row of an atomic UTXO and the imports each room met before
/// their export: in both arrival orders of the chains' containers, in batches of 1 to 6
/// containers, and with the atomic txs of X vertices or of C blocks read a second time (the same
/// operation, which changes nothing and is no missing input). The X-Chain state the node RPC
/// serves (`XChainState`) holds in its shared memory exactly the model's waiting UTXOs.
#[test]
fn atomic_rows_follow_the_shared_memory_rule_in_any_order_and_batching() {
    let w = world(DevnetConfig::small());
    let ch = chains(&w);
    let (not_p, p) = split(&w);
    let (not_c, c): (Vec<_>, Vec<_>) = w
        .records
        .iter()
        .cloned()
        .partition(|r| r.path != IndexPath::CBlock);
    let streams: [(&str, Vec<ContainerRecord>, &[usize]); 6] = [
        (
            "X and C first",
            [not_p.clone(), p.clone()].concat(),
            &[1, 2, 3, 4, 5, 6],
        ),
        (
            "P first",
            [p.clone(), not_p.clone()].concat(),
            &[1, 2, 3, 4, 5, 6],
        ),
        ("C first", [c, not_c].concat(), &[2, 5]),
        (
            "X vertices read again",
            read_again(&ch, &w.records, IndexPath::XVtx),
            &[1, 4],
        ),
        (
            "P first, C blocks read again",
            read_again(&ch, &[p.clone(), not_p.clone()].concat(), IndexPath::CBlock),
            &[1, 3],
        ),
        (
            "C blocks read again after the imports",
            read_again_at_end(&ch, &[p, not_p].concat(), &[IndexPath::CBlock]),
            &[1, 4],
        ),
    ];
    for (name, records, batches) in &streams {
        let (x_want, p_want) = models(&w, records);
        assert!(
            x_want.early > 0 && p_want.early > 0
                || [
                    "X vertices read again",
                    "C blocks read again after the imports"
                ]
                .contains(name)
        );
        assert_eq!((x_want.waiting, p_want.waiting), (0, 0), "{name}");
        for batch in *batches {
            let dir = tempfile::tempdir().unwrap();
            let store = Store::open(dir.path(), &schema()).unwrap();
            let (xs, ps) = run_both(&store, &w, records, *batch);
            let at = format!("{name}, batches of {batch}");
            assert_eq!(x_side(&store), x_want.rows, "X rows, {at}");
            assert_eq!(p_side(&store), p_want.rows, "P rows, {at}");
            assert_eq!(xs.early_spends, x_want.early, "X early spends, {at}");
            assert_eq!(ps.early_spends, p_want.early, "P early spends, {at}");
            assert_eq!(xs.missing_inputs, 0, "X missing inputs, {at}");
            assert_eq!(ps.missing_inputs, 0, "P missing inputs, {at}");
            assert_eq!(
                store
                    .scan::<XhEarlySpends, _>(.., Direction::Forward)
                    .unwrap()
                    .count(),
                0,
                "X early spends left, {at}"
            );
            assert_eq!(
                store
                    .scan::<PhEarlySpends, _>(.., Direction::Forward)
                    .unwrap()
                    .count(),
                0,
                "P early spends left, {at}"
            );
            let state_dir = tempfile::tempdir().unwrap();
            let (state, stats) = run_state(state_dir.path(), &w, records, *batch);
            let shared: BTreeSet<(Id, Id)> = state
                .scan::<XAtomicUtxos, _>(.., Direction::Forward)
                .unwrap()
                .map(|e| e.unwrap().0)
                .collect();
            assert_eq!(
                shared,
                x_shared_memory(&x_want),
                "X state's shared memory, {at}"
            );
            assert_eq!(
                stats.early_imports,
                x_early_imports(&ch, &w, records),
                "X state early imports, {at}"
            );
            assert_eq!(stats.missing_inputs, 0, "X state missing inputs, {at}");
            assert_eq!(
                state
                    .scan::<XAtomicEarlyImports, _>(.., Direction::Forward)
                    .unwrap()
                    .count(),
                0,
                "X state early imports left, {at}"
            );
        }
    }
}
