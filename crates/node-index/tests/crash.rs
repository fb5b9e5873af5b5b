//! Crash safety of the importer: an import is killed with SIGKILL mid-run in a child process
//! (this test binary re-invoked on its ignored `crash_child` test); the store it leaves must be
//! a consistent prefix, and re-running the import must give exactly the index of a clean run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Cursor};
use std::process::{Command, Stdio};

use snowline_derive::NoDerive;
use snowline_node_index::{
    ContainerIds, Containers, IndexReader, IndexWriter, import_file, import_jsonl, tables,
};
use snowline_store::{Direction, ReadView, Schema, Store};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;

const PATHS: [IndexPath; 3] = [IndexPath::XTx, IndexPath::PBlock, IndexPath::CBlock];
const PER_PATH: u64 = 400;
const BATCH: usize = 7;

fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(1), |s, t| s.with_spec(t))
}

fn file_text() -> String {
    let mut out = String::new();
    for i in 0..PER_PATH {
        for path in PATHS {
            let bytes = format!("{path} #{i} {}", "x".repeat(200)).into_bytes();
            let r = ContainerRecord {
                path,
                id: Id(sha256(&bytes)),
                bytes,
                timestamp_ns: 1_700_000_000_123_456_789 + i64::try_from(i).unwrap(),
            };
            out.push_str(&r.to_json_line(Some(i)));
            out.push('\n');
        }
    }
    out
}

fn dump(store: &Store) -> Vec<String> {
    let mut rows: Vec<String> = store
        .scan::<Containers, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| format!("{:?}", e.unwrap()))
        .collect();
    rows.extend(
        store
            .scan::<ContainerIds, _>(.., Direction::Forward)
            .unwrap()
            .map(|e| format!("{:?}", e.unwrap())),
    );
    rows
}

/// Runs in the child: imports the file slowly, printing after each batch, until killed.
#[test]
#[ignore = "child process of import_survives_kill_9"]
fn crash_child() {
    let dir = std::env::var("SNOWLINE_CRASH_DIR").unwrap();
    let file = std::env::var("SNOWLINE_CRASH_FILE").unwrap();
    let store = Store::open(&dir, &schema()).unwrap();
    let mut w = IndexWriter::open(&store).unwrap();
    import_file(&store, &mut w, file.as_ref(), BATCH, &mut NoDerive, |s| {
        println!("batch {}", s.batches);
        // Slow the child down so the parent's kill lands mid-run.
        std::thread::sleep(std::time::Duration::from_millis(5));
    })
    .unwrap();
    println!("finished");
}

#[test]
fn import_survives_kill_9() {
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("containers.jsonl");
    let text = file_text();
    std::fs::write(&file, &text).unwrap();
    let dir = work.path().join("store");

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("SNOWLINE_CRASH_DIR", &dir)
        .env("SNOWLINE_CRASH_FILE", &file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut batches = 0;
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if line.starts_with("batch ") {
            batches += 1;
            if batches == 20 {
                break;
            }
        }
    }
    assert_eq!(batches, 20, "child printed fewer batches than expected");
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "the child must have been killed, not finished"
    );

    // What the killed import left: for each path a contiguous prefix 0..n, both tables agreeing.
    let store = Store::open(&dir, &schema()).unwrap();
    let mut total = 0;
    for path in PATHS {
        let r = IndexReader::new(&store, path);
        let n = r.len().unwrap();
        let all = r.range(0, n.max(1)).unwrap();
        assert_eq!(all.len() as u64, n);
        for (i, c) in all.iter().enumerate() {
            assert_eq!(c.index, i as u64);
            assert_eq!(r.index_of(&c.id).unwrap(), Some(c.index));
        }
        total += n;
    }
    let ids = store
        .scan::<ContainerIds, _>(.., Direction::Forward)
        .unwrap()
        .count() as u64;
    assert_eq!(ids, total);
    assert!(
        total >= 20 * BATCH as u64,
        "at least the printed batches are durable"
    );
    assert!(total < PER_PATH * 3, "the kill landed mid-run");

    // Restart: the same import completes the index, equal to a clean run.
    let mut w = IndexWriter::open(&store).unwrap();
    let s = import_file(&store, &mut w, &file, BATCH, &mut NoDerive, |_| {}).unwrap();
    assert_eq!(s.added + s.duplicates, PER_PATH * 3);
    let clean_dir = work.path().join("clean");
    let clean = Store::open(&clean_dir, &schema()).unwrap();
    let mut cw = IndexWriter::open(&clean).unwrap();
    import_jsonl(
        &clean,
        &mut cw,
        Cursor::new(text),
        1000,
        &mut NoDerive,
        |_| {},
    )
    .unwrap();
    assert_eq!(dump(&store), dump(&clean));
}
