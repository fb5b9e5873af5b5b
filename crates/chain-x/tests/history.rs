//! The Data API's X-Chain history (`snowline_chain_x::history`) against the devnet: every UTXO
//! equals an independent replay of the containers, the unspent per-address sets equal
//! `XChainState`'s, consumers are real, address orders are sorted and complete both ways,
//! balances (now and as of past times) equal naive recounts, vertices and blocks match the
//! containers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod history_support;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use history_support::{Replay, VertexFacts, World, naive_balances, open, replay, run, world};
use snowline_chain_x::history::tables::XhUtxos;
use snowline_chain_x::history::{
    AssetCap, AssetType, Holding, UtxoOrder, UtxoPosition, XHistoryPages, XHistoryReader,
};
use snowline_chain_x::state::XReader;
use snowline_chain_x::state::tables::{XAddrUtxos, XAtomicAddrUtxos};
use snowline_devnet::DevnetConfig;
use snowline_query::params::TimeRange;
use snowline_store::{Direction, ReadView, Store};
use snowline_types::avm::{StandardBlock, UnsignedTx};
use snowline_types::container::IndexPath;
use snowline_types::hashing::hash160;
use snowline_types::{Id, NodeId, ShortId, proposervm};

struct Fixture {
    world: World,
    replay: Replay,
    store: Store,
    _dir: tempfile::TempDir,
    patched: u64,
    duplicates: u64,
}

fn build(cfg: DevnetConfig) -> Fixture {
    from_world(world(cfg))
}

fn from_world(world: World) -> Fixture {
    let replay = replay(&world);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let stats = run(&store, &world, &world.records, 7, None).unwrap();
    assert_eq!(stats.missing_inputs, 0);
    Fixture {
        world,
        replay,
        store,
        _dir: dir,
        patched: stats.patched_txs,
        duplicates: stats.duplicate_txs,
    }
}

/// The small devnet, ingested once and shared by the tests.
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| build(DevnetConfig::small()))
}

/// A devnet with 400 keys (about 1300 txs), for the checks run over every address.
fn many() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        build(DevnetConfig {
            keys: 400,
            dag_vertices: 20,
            txs_per_vertex: 16,
            blocks: 30,
            txs_per_block: 32,
            atomic_utxos: 64,
            ..DevnetConfig::small().with_seed(3)
        })
    })
}

fn history_addrs(store: &Store) -> BTreeSet<ShortId> {
    store
        .scan::<snowline_chain_x::history::tables::XhAllByTime, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.0)
        .collect()
}

#[test]
fn every_utxo_equals_the_replay() {
    every_utxo_matches(fixture());
    assert!(
        fixture().patched > 0,
        "DAG txs seen in X/tx first got their vertex height"
    );
}

/// A follower may see a vertex before the `X/tx` entries of its txs: the vertex then applies
/// them with its height and the later `X/tx` entries change nothing.
#[test]
fn vertices_ahead_of_their_txs_give_the_same_history() {
    let mut w = world(DevnetConfig::small().with_seed(5));
    let mut reordered = Vec::with_capacity(w.records.len());
    let mut txs = Vec::new();
    for r in w.records.drain(..) {
        match r.path {
            IndexPath::XTx => txs.push(r),
            IndexPath::XVtx => {
                reordered.push(r);
                reordered.append(&mut txs);
            }
            _ => reordered.push(r),
        }
    }
    reordered.append(&mut txs);
    w.records = reordered;
    let f = from_world(w);
    assert_eq!(f.patched, 0);
    assert!(f.duplicates > 0, "the X/tx entries came after their vertex");
    every_utxo_matches(&f);
    current_balances_equal_the_sums(&f);
}

#[test]
fn vertices_after_the_blocks_give_the_same_history() {
    // A follower takes each path in turn, so a round that started before the node accepted
    // more can index the new blocks first and their era's last vertices a round later: the
    // chain's first and last container times are its earliest and latest, whatever came last.
    let w = world(DevnetConfig::small().with_seed(5));
    let (vertices, rest): (Vec<_>, Vec<_>) = w
        .records
        .iter()
        .cloned()
        .partition(|r| r.path == IndexPath::XVtx);
    let last_vertex = vertices.iter().map(|r| r.timestamp_ns).max().unwrap();
    let last_block = rest
        .iter()
        .filter(|r| r.path == IndexPath::XBlock)
        .map(|r| r.timestamp_ns)
        .max()
        .unwrap();
    assert!(
        last_vertex / 1_000_000_000 < last_block / 1_000_000_000,
        "the devnet's blocks come after its vertices"
    );
    let in_chain_order = tempfile::tempdir().unwrap();
    let store = open(in_chain_order.path());
    run(&store, &w, &w.records, 7, None).unwrap();
    let late = tempfile::tempdir().unwrap();
    let late_store = open(late.path());
    let records: Vec<_> = rest.into_iter().chain(vertices).collect();
    run(&late_store, &w, &records, 7, None).unwrap();

    let summary = XHistoryReader::new(&late_store).summary().unwrap();
    assert_eq!(
        summary.last_container_time,
        Some(u64::try_from(last_block / 1_000_000_000).unwrap())
    );
    assert_eq!(
        history_support::dump_history(&late_store),
        history_support::dump_history(&store)
    );
}

fn every_utxo_matches(f: &Fixture) {
    let stored: BTreeMap<Id, _> = f
        .store
        .scan::<XhUtxos, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    assert_eq!(
        stored.keys().collect::<Vec<_>>(),
        f.replay.utxos.keys().collect::<Vec<_>>()
    );
    let mut kinds = BTreeMap::new();
    for (id, rec) in &stored {
        let want = &f.replay.utxos[id];
        assert_eq!(rec.bytes, want.utxo.to_bytes(), "{id}: bytes");
        assert_eq!(rec.holding, want.holding, "{id}: holding");
        assert_eq!(rec.shared_with(), want.shared_with, "{id}: shared chain");
        assert_eq!(rec.amount, want.counted().unwrap_or(0), "{id}: amount");
        assert_eq!(rec.created.tx_id, want.created_tx);
        assert_eq!(rec.created.timestamp, want.created_time, "{id}: created");
        assert_eq!(rec.created.height, f.replay.height_of(&want.created_tx));
        assert_eq!(
            rec.consumed.map(|c| (c.tx_id, c.timestamp)),
            want.consumed,
            "{id}: consumed"
        );
        if let Some(c) = rec.consumed {
            assert_eq!(c.height, f.replay.height_of(&c.tx_id));
            assert!(c.timestamp >= rec.created.timestamp);
        }
        let (x, p) = (f.world.x_chain, f.world.p_chain);
        match rec.holding {
            Holding::Native => assert_eq!((rec.created_on, rec.consumed_on), (x, x)),
            Holding::ExportedFromX => {
                assert_eq!(rec.created_on, x);
                assert_ne!(rec.consumed_on, x);
                // The P- and C-Chain's imports consume them on their destination.
                if let Some(c) = rec.consumed {
                    assert!(rec.consumed_on == p || rec.consumed_on == f.world.c_chain);
                    assert!(f.replay.p_txs[&c.tx_id].2.contains(id), "{id}: P/C import");
                }
            }
            Holding::ExportedToX => assert_eq!(rec.consumed_on, x),
        }
        let spent = usize::from(rec.consumed.is_some());
        kinds
            .entry((rec.holding, rec.created_on == p))
            .or_insert([0, 0])[spent] += 1;
    }
    // Native UTXOs, X's exports, and what P and C exported to X; P's exports to X and X's
    // exports both imported and waiting.
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    for (k, [live, spent]) in &kinds {
        match k {
            (Holding::ExportedToX, true) | (Holding::ExportedFromX, false) => {
                assert!(*live > 0 && *spent > 0, "{k:?} {live} {spent}")
            }
            _ => {}
        }
    }
}

#[test]
fn unspent_sets_equal_the_node_rpc_state_for_every_address() {
    for f in [fixture(), many()] {
        unspent_sets_equal_the_state(f);
    }
}

fn unspent_sets_equal_the_state(f: &Fixture) {
    let r = XHistoryReader::new(&f.store);
    let state = XReader::new(&f.store);
    let mut state_native: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for e in f
        .store
        .scan::<XAddrUtxos, _>(.., Direction::Forward)
        .unwrap()
    {
        let ((a, _, id), ()) = e.unwrap();
        state_native.entry(a).or_default().insert(id);
    }
    let mut state_atomic: BTreeMap<ShortId, BTreeSet<Id>> = BTreeMap::new();
    for e in f
        .store
        .scan::<XAtomicAddrUtxos, _>(.., Direction::Forward)
        .unwrap()
    {
        let ((_, a, _, id), ()) = e.unwrap();
        state_atomic.entry(a).or_default().insert(id);
    }
    let addrs = history_addrs(&f.store);
    assert!(addrs.len() > 20, "{} addresses", addrs.len());
    let mut checked = 0;
    for addr in &addrs {
        let ids: Vec<Id> = r
            .utxos_by_address(addr, UtxoOrder::Timestamp, false, None, Direction::Forward)
            .unwrap()
            .map(|p| p.unwrap().utxo_id)
            .collect();
        let utxos = r.utxos(&ids).unwrap();
        let mut native = BTreeSet::new();
        let mut pending_import = BTreeSet::new();
        for u in utxos {
            let u = u.unwrap();
            assert!(u.record.consumed.is_none());
            match u.record.holding {
                Holding::Native => {
                    assert_eq!(state.utxo(&u.id).unwrap(), Some(u.record.bytes.clone()));
                    native.insert(u.id);
                }
                Holding::ExportedToX => {
                    pending_import.insert(u.id);
                }
                Holding::ExportedFromX => {}
            }
        }
        assert_eq!(
            native,
            state_native.remove(addr).unwrap_or_default(),
            "{addr}"
        );
        assert_eq!(
            pending_import,
            state_atomic.remove(addr).unwrap_or_default(),
            "{addr}"
        );
        checked += usize::from(!native.is_empty());
    }
    assert!(checked > 20);
    assert!(state_native.is_empty() && state_atomic.is_empty());
}

#[test]
fn current_balances_equal_the_sum_of_the_unspent_utxos() {
    for f in [fixture(), many()] {
        current_balances_equal_the_sums(f);
    }
}

fn current_balances_equal_the_sums(f: &Fixture) {
    let r = XHistoryReader::new(&f.store);
    let state = XReader::new(&f.store);
    let addrs: Vec<ShortId> = history_addrs(&f.store).into_iter().collect();
    let now = f.replay.last_time;
    let mut locked_seen = false;
    for addr in &addrs {
        let b = r.balances(&[*addr], None, now).unwrap();
        // Native balances against XChainState's UTXO set of the address.
        let mut want: BTreeMap<Id, (u128, u64)> = BTreeMap::new();
        for u in state.all_utxos(addr).unwrap() {
            let amount = match &u.output {
                snowline_types::avm::Output::Secp256k1Transfer(t) => u128::from(t.amount),
                snowline_types::avm::Output::NftTransfer(_) => 1,
                _ => continue,
            };
            let e = want.entry(u.asset_id).or_default();
            e.0 += amount;
            e.1 += 1;
        }
        let mut got: BTreeMap<Id, (u128, u64)> = BTreeMap::new();
        for (asset, t) in b.unlocked.iter().chain(&b.locked) {
            let e = got.entry(*asset).or_default();
            e.0 += t.amount;
            e.1 += t.utxo_count;
        }
        assert_eq!(got, want, "{addr}");
        locked_seen |= !b.locked.is_empty();
        // And the whole split (atomic memory included) against the replay.
        let one = BTreeSet::from([*addr]);
        assert_eq!(b, naive_balances(&f.replay, &one, None, now), "{addr}");
    }
    assert!(locked_seen, "the devnet has time-locked outputs");
    // Several addresses at once: a multi-owner UTXO counts once.
    for w in [2usize, 3, 7] {
        for group in addrs.chunks(w) {
            let set: BTreeSet<ShortId> = group.iter().copied().collect();
            let b = r.balances(group, None, now).unwrap();
            assert_eq!(b, naive_balances(&f.replay, &set, None, now));
        }
    }
    let all = r.balances(&addrs, None, now).unwrap();
    assert!(!all.atomic_unlocked.is_empty(), "atomic memory is shown");
    assert_eq!(
        all,
        naive_balances(&f.replay, &addrs.iter().copied().collect(), None, now)
    );
}

#[test]
fn balances_as_of_past_times_equal_a_naive_recount() {
    let f = fixture();
    let r = XHistoryReader::new(&f.store);
    let addrs: Vec<ShortId> = history_addrs(&f.store).into_iter().collect();
    let (t0, t1) = (f.world.genesis_time, f.replay.last_time);
    let mut times: Vec<u64> = (0..=12).map(|i| t0 + (t1 - t0) * i / 12).collect();
    times.extend([t0.saturating_sub(1), t1 + 10]);
    for t in times {
        for group in addrs.chunks(5) {
            let set: BTreeSet<ShortId> = group.iter().copied().collect();
            let got = r.balances(group, Some(t), 0).unwrap();
            assert_eq!(got, naive_balances(&f.replay, &set, Some(t), t), "t = {t}");
        }
    }
    // Before genesis nothing; some balance changes over time.
    assert_eq!(
        r.balances(&addrs, Some(t0 - 1), 0).unwrap(),
        Default::default()
    );
    assert_ne!(
        r.balances(&addrs, Some(t0), 0).unwrap(),
        r.balances(&addrs, Some(t1), 0).unwrap()
    );
}

#[test]
fn spent_utxos_carry_the_tx_that_consumed_them() {
    let f = fixture();
    let mut spent = 0;
    for e in f.store.scan::<XhUtxos, _>(.., Direction::Forward).unwrap() {
        let (id, rec) = e.unwrap();
        let Some(c) = rec.consumed else { continue };
        spent += 1;
        if let Some((_, _, imported)) = f.replay.p_txs.get(&c.tx_id) {
            assert_eq!(rec.holding, Holding::ExportedFromX);
            assert!(imported.contains(&id), "{} does not import {id}", c.tx_id);
            continue;
        }
        let (_, _, tx) = &f.replay.txs[&c.tx_id];
        let inputs: Vec<Id> = tx.unsigned.input_utxos().iter().map(|u| u.id()).collect();
        assert!(inputs.contains(&id), "{} does not spend {id}", c.tx_id);
        if rec.holding == Holding::ExportedToX {
            assert!(matches!(tx.unsigned, UnsignedTx::Import(_)));
        }
    }
    // And every input of every tx is recorded as consumed by it.
    let mut inputs = 0;
    for (tx_id, (_, _, tx)) in &f.replay.txs {
        for u in tx.unsigned.input_utxos() {
            let rec = f.store.get::<XhUtxos>(&u.id()).unwrap().unwrap();
            assert_eq!(rec.consumed.map(|c| c.tx_id), Some(*tx_id));
            inputs += 1;
        }
    }
    for (tx_id, (_, _, imported)) in &f.replay.p_txs {
        for u in imported {
            let rec = f.store.get::<XhUtxos>(u).unwrap().unwrap();
            assert_eq!(rec.consumed.map(|c| c.tx_id), Some(*tx_id));
            inputs += 1;
        }
    }
    assert_eq!(spent, inputs);
    assert!(spent > 100);
}

fn expected_order(
    f: &Fixture,
    addr: &ShortId,
    order: UtxoOrder,
    include_spent: bool,
) -> Vec<UtxoPosition> {
    let mut v: Vec<UtxoPosition> = f
        .replay
        .utxos
        .iter()
        .filter(|(_, e)| e.owners().contains(addr) && (include_spent || e.consumed.is_none()))
        .map(|(id, e)| UtxoPosition {
            sort: match order {
                UtxoOrder::Timestamp => e.created_time,
                UtxoOrder::Amount => e.counted().unwrap_or(0),
            },
            utxo_id: *id,
        })
        .collect();
    v.sort();
    v
}

#[test]
fn address_scans_are_sorted_and_complete_in_both_directions() {
    let f = fixture();
    let r = XHistoryReader::new(&f.store);
    let scan = |addr: &ShortId, o, s, from: Option<&UtxoPosition>, d| -> Vec<UtxoPosition> {
        r.utxos_by_address(addr, o, s, from, d)
            .unwrap()
            .map(|p| p.unwrap())
            .collect()
    };
    let mut spent_only = 0;
    for addr in history_addrs(&f.store) {
        for order in [UtxoOrder::Timestamp, UtxoOrder::Amount] {
            for include_spent in [false, true] {
                let want = expected_order(f, &addr, order, include_spent);
                let fwd = scan(&addr, order, include_spent, None, Direction::Forward);
                assert_eq!(fwd, want, "{addr} {order:?} {include_spent}");
                let mut rev = scan(&addr, order, include_spent, None, Direction::Reverse);
                rev.reverse();
                assert_eq!(rev, want);
                // Keyset paging: pages of 3 resumed from the last position, both ways.
                for dir in [Direction::Forward, Direction::Reverse] {
                    let mut paged = Vec::new();
                    let mut from: Option<UtxoPosition> = None;
                    loop {
                        let page: Vec<UtxoPosition> = r
                            .utxos_by_address(&addr, order, include_spent, from.as_ref(), dir)
                            .unwrap()
                            .take(3)
                            .map(|p| p.unwrap())
                            .collect();
                        let Some(last) = page.last() else { break };
                        from = Some(*last);
                        paged.extend(page);
                    }
                    if dir == Direction::Reverse {
                        paged.reverse();
                    }
                    assert_eq!(paged, want, "{addr} paged {dir:?}");
                }
                if include_spent {
                    spent_only += want.len() - expected_order(f, &addr, order, false).len();
                }
            }
        }
    }
    assert!(spent_only > 0);
}

#[test]
fn vertices_blocks_assets_and_summary_match_the_containers() {
    let f = fixture();
    let r = XHistoryReader::new(&f.store);
    let heights: BTreeSet<u64> = f.replay.vertices.keys().map(|(h, _)| *h).collect();
    let max_h = *heights.last().unwrap();
    for h in 0..=max_h + 1 {
        let want: Vec<(u64, VertexFacts)> = f
            .replay
            .vertices
            .range((h, 0)..=(h, u64::MAX))
            .map(|((_, i), v)| (*i, v.clone()))
            .collect();
        let got: Vec<_> = r
            .vertices_at_height(h, None, Direction::Forward)
            .unwrap()
            .map(|e| {
                let (i, v) = e.unwrap();
                (i, (v.id, v.parent_ids, v.timestamp, v.tx_ids, v.size))
            })
            .collect();
        assert_eq!(got, want, "height {h}");
        let mut rev: Vec<u64> = r
            .vertices_at_height(h, None, Direction::Reverse)
            .unwrap()
            .map(|e| e.unwrap().0)
            .collect();
        rev.reverse();
        assert_eq!(rev, want.iter().map(|w| w.0).collect::<Vec<_>>());
        for (k, (i, _)) in want.iter().enumerate() {
            let after: Vec<u64> = r
                .vertices_at_height(h, Some(*i), Direction::Forward)
                .unwrap()
                .map(|e| e.unwrap().0)
                .collect();
            assert_eq!(after, want[k + 1..].iter().map(|w| w.0).collect::<Vec<_>>());
        }
    }
    assert!(heights.len() > 3);
    for (h, (id, time, txs)) in &f.replay.blocks {
        let b = r.block(*h).unwrap().unwrap();
        assert_eq!((&b.id, &b.timestamp, &b.tx_ids), (id, time, txs));
    }
    let genesis_block = r.block(0).unwrap().unwrap();
    assert_eq!(
        Some(genesis_block.id),
        f.world.genesis.linear_genesis.as_ref().map(|b| b.id())
    );
    let s = r.summary().unwrap();
    assert_eq!(s.genesis_time, Some(f.world.genesis_time));
    assert_eq!(s.first_container_time, Some(f.replay.first_time));
    assert_eq!(s.last_container_time, Some(f.replay.last_time));
    assert_eq!(s.vertex_height, Some(max_h));
    assert_eq!(s.block_height, f.replay.blocks.keys().last().copied());
    // Assets: AVAX fixed fungible, SNOW mintable fungible, SNFT an NFT.
    let mut assets = BTreeMap::new();
    for (id, (time, _, tx)) in &f.replay.txs {
        if let UnsignedTx::CreateAsset(c) = &tx.unsigned {
            let a = r.asset(id).unwrap().unwrap();
            assert_eq!(
                (a.name.as_str(), a.denomination),
                (c.name.as_str(), c.denomination)
            );
            assert_eq!(a.created_at, *time);
            assets.insert(a.symbol.clone(), (a.asset_type, a.cap));
        }
    }
    assert_eq!(assets["AVAX"], (AssetType::Secp256k1, AssetCap::Fixed));
    assert_eq!(assets["SNOW"], (AssetType::Secp256k1, AssetCap::Variable));
    assert_eq!(assets["SNFT"], (AssetType::Nft, AssetCap::Variable));
}

#[test]
fn batch_size_changes_no_stored_row() {
    // One container per batch writes every row as it comes; one batch for everything lets the
    // derivers withdraw rows the same batch overwrites or removes (UTXOs created and spent,
    // balances changed many times). The stores must end byte-for-byte the same.
    let world = world(DevnetConfig::small().with_seed(5));
    let dumps: Vec<(Vec<String>, Vec<String>)> = [1, 10_000]
        .into_iter()
        .map(|batch| {
            let dir = tempfile::tempdir().unwrap();
            let store = open(dir.path());
            run(&store, &world, &world.records, batch, None).unwrap();
            (
                history_support::dump_history(&store),
                history_support::dump_state(&store),
            )
        })
        .collect();
    assert!(
        dumps[0].0.len() > 100,
        "the devnet fills the history tables"
    );
    assert_eq!(dumps[0], dumps[1]);
}

#[test]
fn blocks_by_proposer_follow_the_signed_wrappers() {
    // The devnet's X-Chain wrappers are unsigned; wrap its blocks again as avalanchego's
    // proposervm signs them (`vms/proposervm/block/build.go` `Build`), each with one of three
    // certificates, and index those. A wrapper's proposer is `hash160` of its certificate
    // (`ids.NodeIDFromCert`); the signature bytes are not checked by the index.
    let w = world(DevnetConfig::small());
    let certs: Vec<Vec<u8>> = (1..=3u8).map(|i| vec![i; 40]).collect();
    let mut want: BTreeMap<NodeId, Vec<(u64, u64)>> = BTreeMap::new();
    let mut records = w.records.clone();
    let mut signed = 0;
    for r in records.iter_mut().filter(|r| r.path == IndexPath::XBlock) {
        let outer = proposervm::Block::decode(&r.bytes).unwrap();
        let (parent, inner) = (outer.parent_id(), outer.inner().to_vec());
        let block = StandardBlock::parse_vec(inner.clone()).unwrap().block;
        let cert = &certs[signed % certs.len()];
        signed += 1;
        let wrapped = proposervm::Block::build_signed(
            parent,
            i64::try_from(block.time).unwrap(),
            1,
            cert.clone(),
            inner,
            w.x_chain,
            |_| Ok::<_, std::convert::Infallible>(vec![0; 256]),
        )
        .unwrap();
        let node = NodeId(ShortId(hash160(cert)));
        want.entry(node)
            .or_default()
            .push((block.time, block.height));
        r.id = wrapped.id;
        r.bytes = wrapped.bytes;
    }
    assert!(signed >= 6, "{signed} X blocks");
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    run(&store, &w, &records, 7, None).unwrap();
    let pages = XHistoryPages::new(std::sync::Arc::new(store));
    for (node, blocks) in &want {
        let newest: Vec<u64> = blocks.iter().rev().map(|(_, h)| *h).collect();
        for size in [1, 2, 100] {
            let mut got = Vec::new();
            let mut from: Option<Vec<u8>> = None;
            loop {
                let page = pages
                    .blocks_by_proposer(*node, TimeRange::default(), size, from.as_deref())
                    .unwrap();
                for b in &page.blocks {
                    let p = b.proposer.unwrap();
                    assert_eq!(p.node_id, Some(*node));
                }
                got.extend(page.blocks.iter().map(|b| b.height));
                match page.next {
                    Some(n) => from = Some(n),
                    None => break,
                }
            }
            assert_eq!(got, newest, "{node} pages of {size}");
        }
        // A window of block times: [second, last) of this node's.
        let (start, end) = (blocks[1].0, blocks[blocks.len() - 1].0);
        let range = TimeRange {
            start: Some(start),
            end: Some(end),
        };
        let page = pages.blocks_by_proposer(*node, range, 100, None).unwrap();
        let inside: Vec<u64> = blocks
            .iter()
            .rev()
            .filter(|(t, _)| (start..end).contains(t))
            .map(|(_, h)| *h)
            .collect();
        assert_eq!(
            page.blocks.iter().map(|b| b.height).collect::<Vec<_>>(),
            inside
        );
    }
    let nobody = NodeId(ShortId([9; 20]));
    let page = pages
        .blocks_by_proposer(nobody, TimeRange::default(), 10, None)
        .unwrap();
    assert!(page.blocks.is_empty() && page.next.is_none());
}
