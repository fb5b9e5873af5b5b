//! Backlog mode (`Store::backlog`): while a hold names a table, its level-0 files pile up to the
//! backlog trigger before a compaction merges them; without one (or once the last hold naming it
//! is dropped) the configured trigger of 4 compacts them. Flushes are forced one row at a time,
//! so each one is one level-0 file of one table.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::time::{Duration, Instant};

use common::*;
use snowline_store::{BACKLOG_LEVEL0_TRIGGER, Store, Table};

/// The bound on waiting for a compaction that is due.
const LONG: Duration = Duration::from_secs(30);
/// How long a compaction that is not due is given to (wrongly) happen.
const SHORT: Duration = Duration::from_millis(500);

/// Writes one row and flushes it: one more level-0 file.
fn one_file(store: &Store, n: u64) {
    store.put::<Blocks>(&(n, id(n)), &vec![7u8; 100]).unwrap();
    store.flush().unwrap();
}

/// Waits until compactions leave fewer than `files` level-0 files, at most `wait`; returns the
/// count then.
fn settles_below(store: &Store, files: u64, wait: Duration) -> u64 {
    let deadline = Instant::now() + wait;
    loop {
        let now = store.level0_files().unwrap();
        if now < files || Instant::now() > deadline {
            return now;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn level0_files_wait_for_the_backlog_trigger_and_compact_when_it_ends() {
    let files = u64::try_from(BACKLOG_LEVEL0_TRIGGER).unwrap() - 1;

    // Without a hold, the configured trigger (4) compacts them: what the mode changes.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    for n in 0..files {
        one_file(&store, n);
    }
    assert!(
        settles_below(&store, 4, LONG) < 4,
        "the default trigger compacts"
    );
    drop(store);

    // With two holds, they stay; with one left, still; with none, they are compacted.
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    let first = store.backlog(&[Blocks::NAME]).unwrap();
    let second = store.backlog(&[BlockIds::NAME, Blocks::NAME]).unwrap();
    assert!(store.in_backlog(Blocks::NAME) && store.in_backlog(BlockIds::NAME));
    for n in 0..files - 1 {
        one_file(&store, n);
    }
    drop(first);
    assert!(store.in_backlog(Blocks::NAME), "one hold is left");
    one_file(&store, files);
    // No compaction is due below the backlog trigger: given the time the default trigger's
    // compaction takes above, every flush is still a file of level 0.
    assert_eq!(settles_below(&store, files, SHORT), files);
    drop(second);
    assert!(!store.in_backlog(Blocks::NAME) && !store.in_backlog(BlockIds::NAME));
    assert!(
        settles_below(&store, 4, LONG) < 4,
        "leaving the mode compacts"
    );
}

#[test]
fn a_hold_is_only_for_the_tables_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    let _ids = store.backlog(&[BlockIds::NAME]).unwrap();
    assert!(!store.in_backlog(Blocks::NAME));
    for n in 0..u64::try_from(BACKLOG_LEVEL0_TRIGGER).unwrap() - 1 {
        one_file(&store, n);
    }
    assert!(
        settles_below(&store, 4, LONG) < 4,
        "a table not named compacts at 4"
    );
}

#[test]
fn unknown_tables_and_read_only_stores_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert!(store.backlog(&["no_such_table"]).is_err());
    drop(store);
    let store = Store::open_read_only(dir.path(), &schema()).unwrap();
    assert!(store.backlog(&[Blocks::NAME]).is_err());
}
