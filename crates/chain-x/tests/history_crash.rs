//! Crash safety of the history: an ingest cut between batches (the source fails, the pending
//! batch is dropped, the store is closed), then reopened and continued with fresh derivers, ends
//! with every table equal, entry by entry, to a clean run's, whatever the cut point and batch
//! sizes; and a snapshot reader keeps one state while ingest goes on.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod history_support;

use std::collections::BTreeSet;

use history_support::{dump_history, dump_state, open, run, world};
use snowline_chain_x::history::tables::XhAllByTime;
use snowline_chain_x::history::{UtxoOrder, XHistoryReader};
use snowline_devnet::DevnetConfig;
use snowline_store::{Direction, ReadView};
use snowline_types::ShortId;

#[test]
fn interrupted_runs_end_with_the_tables_of_a_clean_run() {
    let w = world(DevnetConfig::small());
    // The devnet's order, then the X-Chain's containers before the P-Chain's blocks, so cuts
    // also fall among imports remembered before their exports (`xh_early_spends`).
    let (x, p): (Vec<_>, Vec<_>) = w
        .records
        .iter()
        .cloned()
        .partition(|r| snowline_chain_x::X_PATHS.contains(&r.path));
    for records in [w.records.clone(), [x, p].concat()] {
        interrupted_runs_of(&w, &records);
    }
}

fn interrupted_runs_of(
    w: &history_support::World,
    records: &[snowline_types::container::ContainerRecord],
) {
    let clean_dir = tempfile::tempdir().unwrap();
    let clean = open(clean_dir.path());
    run(&clean, w, records, 64, None).unwrap();
    let want_history = dump_history(&clean);
    let want_state = dump_state(&clean);
    assert!(want_history.len() > 1000);

    let n = records.len();
    for (cut, first_batch, second_batch) in [
        (1, 1, 64),
        (n / 7, 5, 3),
        (n / 3, 8, 1000),
        (n / 2 + 3, 64, 7),
        (n - 1, 13, 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            let cut_run = run(&store, w, records, first_batch, Some(cut));
            assert!(cut_run.is_err(), "the source was cut at {cut}");
            // Dropping the store here is the crash: only whole batches were written.
        }
        let store = open(dir.path());
        // Behind the source (a cut among P-Chain blocks that touch no X atomic memory may
        // leave the X tables whole already).
        let indexed = store
            .scan::<snowline_node_index::Containers, _>(.., Direction::Forward)
            .unwrap()
            .count();
        assert!(indexed < records.len(), "cut at {cut}");
        run(&store, w, records, second_batch, None).unwrap();
        assert_eq!(dump_history(&store), want_history, "cut at {cut}");
        assert_eq!(dump_state(&store), want_state, "cut at {cut}");
        // Rerunning over a complete store changes nothing.
        run(&store, w, records, 5, None).unwrap();
        assert_eq!(dump_history(&store), want_history);
    }
}

#[test]
fn batch_size_does_not_change_the_tables() {
    let w = world(DevnetConfig::small().with_seed(7));
    let a_dir = tempfile::tempdir().unwrap();
    let a = open(a_dir.path());
    run(&a, &w, &w.records, 1, None).unwrap();
    let b_dir = tempfile::tempdir().unwrap();
    let b = open(b_dir.path());
    run(&b, &w, &w.records, 100_000, None).unwrap();
    assert_eq!(dump_history(&a), dump_history(&b));
}

fn addresses(store: &snowline_store::Store) -> BTreeSet<ShortId> {
    store
        .scan::<XhAllByTime, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.0)
        .collect()
}

/// How many (address, UTXO) pairs the reader lists, spent included.
fn positions<V: ReadView>(r: &XHistoryReader<'_, V>, addrs: &BTreeSet<ShortId>) -> usize {
    addrs
        .iter()
        .map(|a| {
            r.utxos_by_address(a, UtxoOrder::Amount, true, None, Direction::Forward)
                .unwrap()
                .count()
        })
        .sum()
}

#[test]
fn a_snapshot_reader_keeps_its_state_while_ingest_goes_on() {
    let w = world(DevnetConfig::small());
    let dir = tempfile::tempdir().unwrap();
    let store = open(dir.path());
    let half = w.records.len() / 2;
    run(&store, &w, &w.records[..half], 16, None).unwrap();
    let before = dump_history(&store);
    let snap = store.snapshot();
    let r = XHistoryReader::new(&snap);
    let seen_before = positions(&r, &addresses(&store));
    let summary_before = r.summary().unwrap();
    run(&store, &w, &w.records, 16, None).unwrap();
    assert_ne!(dump_history(&store), before);
    assert_eq!(
        positions(&r, &addresses(&store)),
        seen_before,
        "the snapshot did not move"
    );
    assert_eq!(r.summary().unwrap(), summary_before);
    let live = XHistoryReader::new(&store);
    assert!(positions(&live, &addresses(&store)) > seen_before);
    assert!(live.summary().unwrap().block_height > summary_before.block_height);
}
