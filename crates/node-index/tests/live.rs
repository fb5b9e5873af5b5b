//! `run_live`: a live source's steps land whole in the index, in order, until stopped; a rerun
//! of a deterministic source skips what the index holds and goes on from there.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::mpsc;

use snowline_derive::NoDerive;
use snowline_node_index::{IndexError, IndexReader, IndexWriter, LiveStats, run_live, tables};
use snowline_store::{Schema, Store};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;

fn open(dir: &tempfile::TempDir) -> Store {
    let schema = tables().into_iter().fold(Schema::new(1), Schema::with_spec);
    Store::open(dir.path(), &schema).unwrap()
}

/// Step `i` of a deterministic source: an X block, and a P block every third step.
fn step(i: u64) -> Vec<ContainerRecord> {
    let rec = |path: IndexPath| {
        let bytes = format!("{path} live {i}").into_bytes();
        ContainerRecord {
            path,
            id: Id(sha256(&bytes)),
            bytes,
            timestamp_ns: 1_800_000_000_000_000_000 + i64::try_from(i).unwrap(),
        }
    };
    let mut out = vec![rec(IndexPath::XBlock)];
    if i % 3 == 0 {
        out.push(rec(IndexPath::PBlock));
    }
    out
}

/// Runs the source from step 0 until `steps` steps have been made, then stops the loop from
/// inside the source (as a shutdown would from outside).
fn run(store: &Store, steps: u64) -> LiveStats {
    let (stop, stopped) = mpsc::channel();
    let mut writer = IndexWriter::open(store).unwrap();
    let mut i = 0;
    run_live(
        store,
        &mut writer,
        &mut NoDerive,
        10_000.0,
        &stopped,
        || {
            let out = step(i);
            i += 1;
            if i == steps {
                stop.send(()).unwrap();
            }
            Ok::<_, IndexError>(out)
        },
    )
    .unwrap()
}

#[test]
fn steps_land_in_order_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let stats = run(&store, 30);
    assert_eq!(stats.steps, 30);
    assert_eq!(stats.added, 30 + 10);
    let x = IndexReader::new(&store, IndexPath::XBlock);
    assert_eq!(x.len().unwrap(), 30);
    assert_eq!(
        IndexReader::new(&store, IndexPath::PBlock).len().unwrap(),
        10
    );
    let last = x.last_accepted().unwrap().unwrap();
    assert_eq!(last.id, step(29)[0].id);
}

#[test]
fn a_rerun_skips_what_the_index_holds() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    run(&store, 12);
    let stats = run(&store, 20);
    assert_eq!(stats.duplicates, 12 + 4);
    assert_eq!(stats.added, 8 + 3);
    assert_eq!(
        IndexReader::new(&store, IndexPath::XBlock).len().unwrap(),
        20
    );
}

#[test]
fn a_dropped_sender_stops_it_and_a_failing_source_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut writer = IndexWriter::open(&store).unwrap();
    let (stop, stopped) = mpsc::channel::<()>();
    drop(stop);
    let stats = run_live(&store, &mut writer, &mut NoDerive, 1.0, &stopped, || {
        panic!("never asked")
    })
    .unwrap();
    assert_eq!(stats, LiveStats::default());
    let (_stop, stopped) = mpsc::channel::<()>();
    let err = run_live(&store, &mut writer, &mut NoDerive, 1.0, &stopped, || {
        Err(IndexError::Source("out of coins".into()))
    })
    .unwrap_err();
    assert!(err.to_string().contains("out of coins"), "{err}");
    assert!(
        run_live(&store, &mut writer, &mut NoDerive, 0.0, &stopped, || Ok(
            Vec::new()
        ))
        .is_err(),
        "a zero rate is refused"
    );
}
