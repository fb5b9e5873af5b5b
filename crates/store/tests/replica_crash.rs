//! A replica applying batches without the write-ahead log (as `replicate` does) and killed with
//! SIGKILL mid-apply: a child process (this test binary re-invoked on its ignored
//! `replica_child` test) applies a primary's outbox with tiny memtables, so atomic flushes
//! happen all the time. The store it leaves must hold exactly the batches up to its position
//! in every table; resuming from that position must then give the primary's tables, with
//! nothing skipped or applied twice.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use common::*;
use snowline_store::{Direction, JournalRole, ReadView, Store, StoreOptions, WriteBatch};

/// Batches the primary writes; batch `n + 1` holds row `n` of two tables and the cursor `n`.
const BATCHES: u64 = 4_000;

fn replica_options() -> StoreOptions {
    StoreOptions {
        write_buffer_bytes: 64 << 10,
        total_write_buffer_bytes: 0,
        ..StoreOptions::default()
    }
}

/// The replica at `dir` as a replica, applying without the write-ahead log.
fn open_replica(dir: &Path) -> Store {
    let store = Store::open_with(dir, &schema(), &replica_options()).unwrap();
    store.set_journal_role(JournalRole::Replica).unwrap();
    store.set_unlogged_writes(true).unwrap();
    store
}

/// Applies the primary's outbox at `primary` to `replica` from its position to the end,
/// calling `progress` with each batch applied.
fn apply_all(primary: &Store, replica: &Store, mut progress: impl FnMut(u64)) {
    loop {
        let at = replica.journal_position().unwrap().seq;
        let entries = primary.journal_entries(at, 200, usize::MAX).unwrap();
        if entries.is_empty() {
            return;
        }
        for e in entries {
            replica
                .apply_journal(e.seq, e.committed_ms, &e.frame)
                .unwrap();
            progress(e.seq);
        }
    }
}

/// Runs in the child: applies every batch, printing progress, then sleeps until killed.
#[test]
#[ignore = "child process of a_replica_killed_mid_apply_resumes_with_nothing_skipped_or_repeated"]
fn replica_child() {
    let primary = Store::open(std::env::var("SNOWLINE_PRIMARY_DIR").unwrap(), &schema()).unwrap();
    let replica = open_replica(Path::new(&std::env::var("SNOWLINE_REPLICA_DIR").unwrap()));
    apply_all(&primary, &replica, |seq| {
        if seq % 100 == 0 {
            println!("applied {seq}");
        }
    });
    println!("done");
    std::thread::sleep(std::time::Duration::from_secs(600));
}

/// The primary: `BATCHES` journaled batches.
fn write_primary(dir: &Path) {
    let store = Store::open(dir, &schema()).unwrap();
    store.set_journal_role(JournalRole::Primary).unwrap();
    for n in 0..BATCHES {
        let mut b = WriteBatch::new();
        b.put::<Blocks>(&(n, id(n)), &vec![(n % 251) as u8; 700]);
        b.put::<BlockIds>(&id(n), &n);
        b.put::<Cursor>(&(), &n);
        store.write(&b).unwrap();
    }
    store.flush().unwrap();
}

/// Spawns the child, kills it once it printed `line`, and returns the replica's store reopened.
fn kill_after(primary: &Path, replica: &Path, line: &str) -> Store {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "replica_child", "--nocapture"])
        .env("SNOWLINE_PRIMARY_DIR", primary)
        .env("SNOWLINE_REPLICA_DIR", replica)
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
    open_replica(replica)
}

/// Checks that the replica holds exactly batches `1..=position`; returns the position.
fn consistent_prefix(store: &Store) -> u64 {
    let seq = store.journal_position().unwrap().seq;
    let want: Vec<u64> = (0..seq).collect();
    let cursor = store.get::<Cursor>(&()).unwrap();
    assert_eq!(cursor, seq.checked_sub(1), "cursor vs position {seq}");
    let blocks: Vec<u64> = store
        .scan::<Blocks, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().0.0)
        .collect();
    assert_eq!(blocks, want, "blocks table vs position {seq}");
    let mut ids: Vec<u64> = store
        .scan::<BlockIds, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| e.unwrap().1)
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, want, "id table vs position {seq}");
    seq
}

#[test]
fn a_replica_killed_mid_apply_resumes_with_nothing_skipped_or_repeated() {
    let pdir = tempfile::tempdir().unwrap();
    write_primary(pdir.path());
    for at in [1_000u64, 2_500] {
        let rdir = tempfile::tempdir().unwrap();
        let replica = kill_after(pdir.path(), rdir.path(), &format!("applied {at}"));
        let position = consistent_prefix(&replica);
        // 64 KiB memtables: flushes kept something, and the kill lost nothing it reported
        // applied beyond the stream's reach (the primary's outbox still holds it all).
        assert!(position > 0, "killed after batch {at}: nothing kept");
        let primary = Store::open(pdir.path(), &schema()).unwrap();
        // Resumed from its position: every later batch applies in sequence (a batch skipped
        // or applied twice is a gap `apply_journal` refuses), and the tables end equal.
        let mut next = position + 1;
        apply_all(&primary, &replica, |seq| {
            assert_eq!(seq, next);
            next += 1;
        });
        assert_eq!(next, BATCHES + 1);
        assert_eq!(consistent_prefix(&replica), BATCHES);
        assert_eq!(tables(&replica), tables(&primary));
        // The resumed replica can be promoted and number its own batches after the stream's.
        replica.set_journal_role(JournalRole::Primary).unwrap();
        replica.put::<Cursor>(&(), &BATCHES).unwrap();
        assert_eq!(replica.journal_position().unwrap().seq, BATCHES + 1);
        drop(primary);
    }
    // Killed once every batch was applied: after a reopen it may stand anywhere up to the end,
    // but always on a consistent prefix.
    let rdir = tempfile::tempdir().unwrap();
    let replica = kill_after(pdir.path(), rdir.path(), "done");
    consistent_prefix(&replica);
}
