//! Crash safety of writes without the WAL (`Store::set_unlogged_writes`): a child process (this
//! test binary re-invoked on its ignored `unlogged_child` test) writes batches that each hold a
//! row in two tables and the cursor, with tiny memtables so flushes happen all the time, and is
//! killed with SIGKILL. The store it leaves must hold exactly the batches up to its cursor, in
//! every table (atomic flush), and what was written before unlogged writes were turned off
//! must all be there.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::*;
use snowline_store::{Direction, ReadView, Store, StoreOptions, WriteBatch};

/// Batches the child writes before it turns unlogged writes off and waits to be killed.
const BATCHES: u64 = 6_000;

fn options() -> StoreOptions {
    StoreOptions {
        write_buffer_bytes: 64 << 10,
        total_write_buffer_bytes: 0,
        ..StoreOptions::default()
    }
}

/// Runs in the child: writes `BATCHES` unlogged batches, printing progress, then turns unlogged
/// writes off (a flush), prints `flushed` and sleeps until killed.
#[test]
#[ignore = "child process of unlogged_writes_survive_kill_9"]
fn unlogged_child() {
    let dir = std::env::var("SNOWLINE_UNLOGGED_DIR").unwrap();
    let store = Store::open_with(&dir, &schema(), &options()).unwrap();
    store.set_unlogged_writes(true).unwrap();
    for n in 0..BATCHES {
        let mut b = WriteBatch::new();
        b.put::<Blocks>(&(n, id(n)), &vec![(n % 251) as u8; 700]);
        b.put::<BlockIds>(&id(n), &n);
        b.put::<Cursor>(&(), &n);
        store.write(b).unwrap();
        if n % 100 == 0 {
            println!("wrote {n}");
        }
    }
    store.set_unlogged_writes(false).unwrap();
    println!("flushed");
    std::thread::sleep(std::time::Duration::from_secs(600));
}

/// Spawns the child on `dir`, kills it once it printed `line`, and returns the store it left.
fn kill_after(dir: &std::path::Path, line: &str) -> Store {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "unlogged_child", "--nocapture"])
        .env("SNOWLINE_UNLOGGED_DIR", dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = false;
    for l in out.lines() {
        if l.unwrap().trim() == line {
            seen = true;
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(seen, "the child never printed {line:?}");
    Store::open_with(dir, &schema(), &options()).unwrap()
}

/// The cursor, and checks that both tables hold exactly the batches `0..=cursor`.
fn consistent_prefix(store: &Store) -> Option<u64> {
    let cursor = store.get::<Cursor>(&()).unwrap();
    let want: Vec<u64> = cursor.map_or(Vec::new(), |c| (0..=c).collect());
    let blocks: Vec<u64> = store
        .scan::<Blocks, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.0)
        .collect();
    let ids: Vec<u64> = store
        .scan::<BlockIds, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().1)
        .collect();
    assert_eq!(blocks, want, "blocks table vs cursor {cursor:?}");
    let mut ids_sorted = ids;
    ids_sorted.sort_unstable();
    assert_eq!(ids_sorted, want, "id table vs cursor {cursor:?}");
    cursor
}

#[test]
fn unlogged_writes_survive_kill_9() {
    // Killed mid-run: a consistent prefix, and (64 KiB memtables) not an empty one.
    for at in [1_000u64, 3_000, 5_000] {
        let dir = tempfile::tempdir().unwrap();
        let store = kill_after(dir.path(), &format!("wrote {at}"));
        let cursor = consistent_prefix(&store);
        assert!(
            cursor.is_some_and(|c| c > 0),
            "killed after batch {at}: flushes should have kept something, cursor {cursor:?}"
        );
    }
    // Killed after unlogged writes were turned off: everything is there.
    let dir = tempfile::tempdir().unwrap();
    let store = kill_after(dir.path(), "flushed");
    assert_eq!(consistent_prefix(&store), Some(BATCHES - 1));
}
