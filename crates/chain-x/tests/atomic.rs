//! Atomic memory between the X- and the P-Chain, as the X-Chain's derivers (`XHistory` and
//! `XChainState`) read it from both chains' containers: the devnet ingested in its own order,
//! X-Chain first, P-Chain first and interleaved both ways in small batches ends with the same
//! rows; the atomic UTXOs left equal every export minus every import, computed here from the
//! tx bodies; an export shows in the destination's atomic memory until its import, at any time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "common/atomic.rs"]
mod atomic_support;
mod history_support;

use std::collections::{BTreeMap, BTreeSet};

use atomic_support::shifted;
use history_support::{World, dump_history, dump_state, naive_balances, open, replay, run, world};
use snowline_chain_x::history::tables::{XhEarlySpends, XhUtxos};
use snowline_chain_x::history::{Event, Holding, UtxoOrder, XHistoryReader};
use snowline_chain_x::state::tables::{XAtomicEarlyImports, XAtomicUtxos};
use snowline_devnet::DevnetConfig;
use snowline_store::{Direction, ReadView, Store, Table};
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::{Id, ShortId};

fn count<T: Table>(store: &Store) -> usize {
    store.scan::<T, _>(.., Direction::Forward).unwrap().count()
}

/// The X-Chain's containers and the P-Chain's blocks, each in its own order.
fn split(w: &World) -> (Vec<ContainerRecord>, Vec<ContainerRecord>) {
    atomic_support::split(&w.records)
}

#[test]
fn every_arrival_order_ends_with_the_same_rows() {
    let w = world(DevnetConfig::small());
    let (x, p) = split(&w);
    let (not_c, c): (Vec<_>, Vec<_>) = w
        .records
        .iter()
        .cloned()
        .partition(|r| r.path != IndexPath::CBlock);
    assert!(!c.is_empty());
    let orders: [(&str, Vec<ContainerRecord>, usize); 7] = [
        ("devnet order", w.records.clone(), 7),
        ("C last", [not_c.clone(), c.clone()].concat(), 6),
        ("C first", [c.clone(), not_c.clone()].concat(), 4),
        ("X first", [x.clone(), p.clone()].concat(), 64),
        ("P first", [p.clone(), x.clone()].concat(), 5),
        ("P behind", shifted(&x, &p, 0.3), 3),
        ("P ahead", shifted(&x, &p, -0.3), 2),
    ];
    let mut want: Option<(Vec<String>, Vec<String>)> = None;
    for (name, records, batch) in orders {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let stats = run(&store, &w, &records, batch, None).unwrap();
        assert_eq!(stats.missing_inputs, 0, "{name}");
        if name != "devnet order" {
            assert!(stats.early_spends > 0, "{name}: some import came first");
        }
        assert_eq!(
            count::<XhEarlySpends>(&store),
            0,
            "{name}: every export came"
        );
        assert_eq!(count::<XAtomicEarlyImports>(&store), 0, "{name}");
        let got = (dump_history(&store), dump_state(&store));
        match &want {
            None => want = Some(got),
            Some(want) => {
                assert_eq!(got.0, want.0, "{name}: history");
                assert_eq!(got.1, want.1, "{name}: state");
            }
        }
    }
}

#[test]
fn imports_ahead_of_their_exports_are_remembered_until_the_export() {
    let w = world(DevnetConfig::small().with_seed(4));
    let (x, p) = split(&w);
    // The X-Chain alone: its imports from P wait for the P-Chain's exports.
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    run(&store, &w, &x, 16, None).unwrap();
    let waiting = count::<XhEarlySpends>(&store);
    assert!(waiting > 0);
    assert_eq!(count::<XAtomicEarlyImports>(&store), waiting);
    assert!(
        store
            .scan::<XAtomicUtxos, _>(.., Direction::Forward)
            .unwrap()
            .all(|e| e.unwrap().0.0 != w.p_chain),
        "nothing of P's is in X's shared memory yet"
    );
    // Then the P-Chain: every remembered import finds its export, created consumed.
    run(&store, &w, &[x.clone(), p.clone()].concat(), 16, None).unwrap();
    assert_eq!(count::<XhEarlySpends>(&store), 0);
    assert_eq!(count::<XAtomicEarlyImports>(&store), 0);

    // The P-Chain alone: its imports of X's exports wait for the X-Chain.
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    run(&store, &w, &p, 4, None).unwrap();
    assert!(count::<XhEarlySpends>(&store) > 0);
    assert!(
        store
            .scan::<XAtomicUtxos, _>(.., Direction::Forward)
            .unwrap()
            .any(|e| e.unwrap().0.0 == w.p_chain),
        "P's exports wait in X's shared memory"
    );
}

/// What atomic memory between X and P should hold, from the tx bodies alone: every export's
/// outputs (`(destination, utxo id)`, indexes after the tx's outputs) and every import's inputs.
struct Traffic {
    exported: BTreeMap<Id, (Id, Id)>,
    imported: BTreeSet<Id>,
}

fn traffic(w: &World) -> Traffic {
    let mut t = traffic_of(w, &w.records);
    // Exports waiting at genesis (none in the devnet any more: C's come in `C/block`).
    for (source, u) in &w.genesis.atomic_utxos {
        t.exported.insert(u.id(), (*source, w.x_chain));
    }
    t
}

/// The exports and imports of `records`' txs (each tx once).
fn traffic_of(w: &World, records: &[ContainerRecord]) -> Traffic {
    let chains = atomic_support::Chains {
        network_id: 12345,
        x: w.x_chain,
        p: w.p_chain,
        c: w.c_chain,
    };
    let t = atomic_support::traffic_of(&chains, records);
    Traffic {
        exported: t.exported,
        imported: t.imported.into_keys().collect(),
    }
}

#[test]
fn live_atomic_utxos_are_the_exports_not_imported() {
    let w = world(DevnetConfig::small().with_seed(2));
    let t = traffic(&w);
    let live: BTreeMap<Id, (Id, Id)> = t
        .exported
        .iter()
        .filter(|(u, _)| !t.imported.contains(*u))
        .map(|(u, c)| (*u, *c))
        .collect();
    let x = w.x_chain;
    // X's side of atomic memory: what waits on X (from P or C) and what X exported (to P or C).
    let want_history: BTreeMap<Id, (Id, Id)> = live
        .iter()
        .filter(|(_, (from, to))| *from == x || *to == x)
        .map(|(u, c)| (*u, *c))
        .collect();
    let want_state: BTreeSet<(Id, Id)> = live
        .iter()
        .filter(|(_, (_, to))| *to == x)
        .map(|(u, (from, _))| (*from, *u))
        .collect();
    assert!(
        want_history.values().any(|c| *c == (w.p_chain, x)),
        "P exports wait"
    );
    assert!(
        t.exported.values().any(|c| *c == (x, w.p_chain)),
        "X exports to P"
    );
    assert!(
        t.imported.iter().any(|u| t.exported[u].0 == x),
        "the P-Chain imports X's exports"
    );
    let (xs, ps) = split(&w);
    for records in [
        w.records.clone(),
        [ps.clone(), xs.clone()].concat(),
        [xs, ps].concat(),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        run(&store, &w, &records, 9, None).unwrap();
        let got_history: BTreeMap<Id, (Id, Id)> = store
            .scan::<XhUtxos, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|(_, r)| r.holding != Holding::Native && r.consumed.is_none())
            .map(|(u, r)| (u, (r.created_on, r.consumed_on)))
            .collect();
        assert_eq!(got_history, want_history);
        let got_state: BTreeSet<(Id, Id)> = store
            .scan::<XAtomicUtxos, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| e.unwrap().0)
            .collect();
        assert_eq!(got_state, want_state);
    }
}

/// The first UTXO exported from `from` to `to` and imported there, with its import's place.
fn first_imported(w: &World, from: Id, to: Id) -> Id {
    let t = traffic(w);
    *t.imported
        .iter()
        .find(|u| t.exported.get(*u) == Some(&(from, to)))
        .expect("an import of an export")
}

#[test]
fn an_export_is_in_the_destination_atomic_memory_until_imported() {
    let w = world(DevnetConfig::small());
    let r = replay(&w);
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    run(&store, &w, &w.records, 11, None).unwrap();
    let reader = XHistoryReader::new(&store);
    let (x, p) = (w.x_chain, w.p_chain);
    for (from, to) in [(x, p), (p, x)] {
        let id = first_imported(&w, from, to);
        let rec = store.get::<XhUtxos>(&id).unwrap().unwrap();
        let want = &r.utxos[&id];
        let (import_tx, import_time) = want.consumed.unwrap();
        assert_eq!((rec.created_on, rec.consumed_on), (from, to));
        assert_eq!(rec.shared_with(), Some(p), "shared with P either way");
        assert_eq!(
            rec.consumed,
            Some(Event {
                tx_id: import_tx,
                height: r.height_of(&import_tx),
                timestamp: import_time,
            }),
            "consumed by the import, at its container's height and time"
        );
        assert_eq!(rec.created.tx_id, want.created_tx);
        assert_eq!(rec.created.height, r.height_of(&want.created_tx));
        assert!(rec.created.height.is_some());
        if from == p {
            // Created on P: the P block's height and time.
            let (time, height, _) = r.p_txs[&rec.created.tx_id];
            assert_eq!(
                (rec.created.timestamp, rec.created.height),
                (time, Some(height))
            );
        }
        let created = rec.created.timestamp;
        assert!(import_time > created);
        let owners: BTreeSet<ShortId> = want.owners();
        let addrs: Vec<ShortId> = owners.iter().copied().collect();
        for t in [
            created - 1,
            created,
            import_time - 1,
            import_time,
            import_time + 1,
        ] {
            let got = reader.balances(&addrs, Some(t), t).unwrap();
            assert_eq!(got, naive_balances(&r, &owners, Some(t), t), "t = {t}");
            let key = (p, rec.utxo().unwrap().asset_id);
            let shared = got.atomic_unlocked.get(&key).map_or(0, |a| a.amount);
            if (created..import_time).contains(&t) {
                assert!(shared >= u128::from(rec.amount), "in atomic memory at {t}");
            }
        }
        // Not among the unspent any more, still among all.
        let owner = addrs[0];
        let listed = |spent: bool| {
            reader
                .utxos_by_address(
                    &owner,
                    UtxoOrder::Timestamp,
                    spent,
                    None,
                    Direction::Forward,
                )
                .unwrap()
                .any(|pos| pos.unwrap().utxo_id == id)
        };
        assert!(!listed(false) && listed(true));
    }
}

#[test]
fn before_its_import_an_export_waits_unspent_in_both_derivers() {
    let w = world(DevnetConfig::small());
    let (x, p) = (w.x_chain, w.p_chain);
    for (from, to) in [(x, p), (p, x)] {
        let id = first_imported(&w, from, to);
        // The container holding the import: everything before it, then the rest.
        let at = w
            .records
            .iter()
            .position(|r| {
                traffic_of(&w, std::slice::from_ref(r))
                    .imported
                    .contains(&id)
            })
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        run(&store, &w, &w.records[..at], 5, None).unwrap();
        let rec = store.get::<XhUtxos>(&id).unwrap().unwrap();
        assert_eq!(rec.consumed, None, "waiting in atomic memory");
        let in_state = store.get::<XAtomicUtxos>(&(p, id)).unwrap().is_some();
        assert_eq!(in_state, from == p, "X's shared memory holds P's exports");
        run(&store, &w, &w.records, 5, None).unwrap();
        let rec = store.get::<XhUtxos>(&id).unwrap().unwrap();
        assert!(rec.consumed.is_some());
        assert!(store.get::<XAtomicUtxos>(&(p, id)).unwrap().is_none());
    }
}
