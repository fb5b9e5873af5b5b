//! Store smoke test: write a batch, read it back by get and by scans both ways, reopen, check the
//! schema guard. Prints a short summary; exits non-zero on any failure.
//!
//! Usage: `cargo run -p snowline-store --example smoke [-- <dir>]` (a temp dir when none given).

use std::process::ExitCode;

use snowline_store::{Direction, ReadView, Schema, Store, StoreError, Table, WriteBatch};
use snowline_types::Id;

/// (height, id) -> block bytes.
struct Blocks;
impl Table for Blocks {
    const NAME: &'static str = "smoke_blocks";
    type Key = (u64, Id);
    type Value = Vec<u8>;
}

/// The indexer cursor, written in the same batch as the blocks.
struct Cursor;
impl Table for Cursor {
    const NAME: &'static str = "smoke_cursor";
    type Key = ();
    type Value = u64;
}

const KEYS: u64 = 1_000;

fn id_for(h: u64) -> Id {
    Id::of_bytes(&h.to_be_bytes())
}

fn check(ok: bool, what: &str) -> Result<(), String> {
    if ok {
        println!("  ok   {what}");
        Ok(())
    } else {
        Err(format!("FAILED {what}"))
    }
}

fn run(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let schema = Schema::new(1).with::<Blocks>().with::<Cursor>();
    println!("store smoke test in {}", dir.display());
    {
        let store = Store::open(dir, &schema)?;
        let mut batch = WriteBatch::new();
        for h in 0..KEYS {
            batch.put::<Blocks>(
                &(h, id_for(h)),
                &format!("block at height {h}").into_bytes(),
            );
        }
        batch.put::<Cursor>(&(), &(KEYS - 1));
        let (ops, bytes) = (batch.len(), batch.size_bytes());
        store.write(batch)?;
        println!("  wrote one atomic batch: {ops} entries, {bytes} bytes");

        let mut found = 0;
        for h in 0..KEYS {
            if store.get::<Blocks>(&(h, id_for(h)))?
                == Some(format!("block at height {h}").into_bytes())
            {
                found += 1;
            }
        }
        check(
            found == KEYS,
            &format!("get: {found}/{KEYS} entries read back"),
        )?;

        let fwd: Vec<u64> = store
            .scan::<Blocks, _>(.., Direction::Forward)?
            .map(|r| r.map(|((h, _), _)| h))
            .collect::<Result<_, _>>()?;
        check(
            fwd == (0..KEYS).collect::<Vec<_>>(),
            "forward scan: all heights ascending",
        )?;
        let page: Vec<u64> = store
            .scan::<Blocks, _>(..(500, Id::EMPTY), Direction::Reverse)?
            .take(3)
            .map(|r| r.map(|((h, _), _)| h))
            .collect::<Result<_, _>>()?;
        check(
            page == [499, 498, 497],
            "reverse scan from height 500: 499, 498, 497",
        )?;
        let at: Vec<u64> = store
            .prefix_scan::<Blocks, _>(&42u64, None, Direction::Reverse)?
            .map(|r| r.map(|((h, _), _)| h))
            .collect::<Result<_, _>>()?;
        check(at == [42], "prefix scan at height 42")?;
    }
    {
        let store = Store::open(dir, &schema)?;
        let cursor = store.get::<Cursor>(&())?;
        check(cursor == Some(KEYS - 1), "reopen: cursor persisted")?;
        let n = store.scan::<Blocks, _>(.., Direction::Reverse)?.count() as u64;
        check(n == KEYS, &format!("reopen: {n} entries by reverse scan"))?;
    }
    let newer = Schema::new(2).with::<Blocks>().with::<Cursor>();
    match Store::open(dir, &newer) {
        Err(
            e @ StoreError::SchemaMismatch {
                found: 1,
                expected: 2,
            },
        ) => {
            check(true, &format!("schema guard: {e}"))?;
        }
        other => check(
            false,
            &format!("schema guard refused version 2 (got {other:?})"),
        )?,
    }
    Ok(())
}

fn main() -> ExitCode {
    let tmp;
    let dir = match std::env::args_os().nth(1) {
        Some(p) => std::path::PathBuf::from(p),
        None => match tempfile::tempdir() {
            Ok(t) => {
                tmp = t;
                tmp.path().to_path_buf()
            }
            Err(e) => {
                eprintln!("cannot create a temp dir: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    match run(&dir) {
        Ok(()) => {
            println!("store smoke test passed");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("store smoke test failed: {e}");
            ExitCode::FAILURE
        }
    }
}
