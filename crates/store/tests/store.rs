//! Store behaviour against a real RocksDB in temp dirs: reads, scans, batches, snapshots, reopen,
//! the schema guard, read-only and secondary opens.

// Test helpers outside #[test] fns may unwrap: a failure there is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::ops::Bound;

use common::*;
use snowline_store::{
    Direction, Entry, Mode, Part, ReadView, Schema, Store, StoreError, Table, WriteBatch,
};
use snowline_types::Id;

/// Heights 0..10, each with ids (h, 0) and (h, 1).
fn filled(dir: &std::path::Path) -> Store {
    let store = Store::open(dir, &schema()).unwrap();
    let mut b = WriteBatch::new();
    for h in 0..10u64 {
        for i in 0..2u64 {
            let id = id(h * 10 + i);
            b.put::<Blocks>(&(h, id), &format!("block {h}/{i}").into_bytes());
            b.put::<BlockIds>(&id, &h);
        }
    }
    b.put::<Cursor>(&(), &9);
    store.write(b).unwrap();
    store
}

fn heights<T: Table<Key = (u64, Id)>>(
    scan: impl Iterator<Item = snowline_store::Result<((u64, Id), T::Value)>>,
) -> Vec<(u64, u64)> {
    scan.map(|r| {
        let ((h, id), _) = r.unwrap();
        (h, u64::from_be_bytes(id.0[..8].try_into().unwrap()) % 10)
    })
    .collect()
}

#[test]
fn get_and_multi_get() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());
    assert_eq!(store.get::<BlockIds>(&id(31)).unwrap(), Some(3));
    assert_eq!(store.get::<BlockIds>(&id(32)).unwrap(), None);
    assert_eq!(
        store.get::<Blocks>(&(3, id(31))).unwrap(),
        Some(b"block 3/1".to_vec())
    );
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(9));
    assert_eq!(
        store
            .multi_get::<BlockIds>(&[id(50), id(77), id(91)])
            .unwrap(),
        vec![Some(5), None, Some(9)]
    );
}

#[test]
fn scans_respect_bounds_in_both_directions() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());

    let all = heights::<Blocks>(store.scan::<Blocks, _>(.., Direction::Forward).unwrap());
    assert_eq!(all.len(), 20);
    assert_eq!(all.first(), Some(&(0, 0)));
    assert_eq!(all.last(), Some(&(9, 1)));
    let mut rev = heights::<Blocks>(store.scan::<Blocks, _>(.., Direction::Reverse).unwrap());
    rev.reverse();
    assert_eq!(rev, all);

    // [ (3,id30), (5,id50) ) forward and reverse.
    let lo = (3, id(30));
    let hi = (5, id(50));
    let fwd = heights::<Blocks>(store.scan::<Blocks, _>(lo..hi, Direction::Forward).unwrap());
    assert_eq!(fwd, vec![(3, 0), (3, 1), (4, 0), (4, 1)]);
    let back = heights::<Blocks>(store.scan::<Blocks, _>(lo..hi, Direction::Reverse).unwrap());
    assert_eq!(back, vec![(4, 1), (4, 0), (3, 1), (3, 0)]);

    // Inclusive end; excluded start.
    let r = (Bound::Excluded(lo), Bound::Included(hi));
    let fwd = heights::<Blocks>(store.scan::<Blocks, _>(r, Direction::Forward).unwrap());
    assert_eq!(fwd, vec![(3, 1), (4, 0), (4, 1), (5, 0)]);
    let back = heights::<Blocks>(store.scan::<Blocks, _>(r, Direction::Reverse).unwrap());
    assert_eq!(back, vec![(5, 0), (4, 1), (4, 0), (3, 1)]);

    // Start from a position that is not itself a key, reverse with take().
    let from = (Bound::Unbounded, Bound::Excluded((7, Id::EMPTY)));
    let back = heights::<Blocks>(
        store
            .scan::<Blocks, _>(from, Direction::Reverse)
            .unwrap()
            .take(3),
    );
    assert_eq!(back, vec![(6, 1), (6, 0), (5, 1)]);

    // Empty and inverted ranges yield nothing.
    assert_eq!(
        store
            .scan::<Blocks, _>(hi..lo, Direction::Forward)
            .unwrap()
            .count(),
        0
    );
    assert_eq!(
        store
            .scan::<Blocks, _>(lo..lo, Direction::Reverse)
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn prefix_scans_page_like_keysets() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());
    // Everything at height 4, both ways; bare leading component and 1-tuple both work.
    let fwd = heights::<Blocks>(
        store
            .prefix_scan::<Blocks, _>(&4u64, None, Direction::Forward)
            .unwrap(),
    );
    assert_eq!(fwd, vec![(4, 0), (4, 1)]);
    let back = heights::<Blocks>(
        store
            .prefix_scan::<Blocks, _>(&(4u64,), None, Direction::Reverse)
            .unwrap(),
    );
    assert_eq!(back, vec![(4, 1), (4, 0)]);
    // Resume strictly after a full key.
    let after = (4, id(40));
    let fwd = heights::<Blocks>(
        store
            .prefix_scan::<Blocks, _>(&4u64, Some(&after), Direction::Forward)
            .unwrap(),
    );
    assert_eq!(fwd, vec![(4, 1)]);
    let after = (4, id(41));
    let back = heights::<Blocks>(
        store
            .prefix_scan::<Blocks, _>(&4u64, Some(&after), Direction::Reverse)
            .unwrap(),
    );
    assert_eq!(back, vec![(4, 0)]);
    // A full-key prefix is the key itself; a missing prefix yields nothing.
    let exact = store
        .prefix_scan::<Blocks, _>(&(2u64, id(21)), None, Direction::Forward)
        .unwrap();
    assert_eq!(heights::<Blocks>(exact), vec![(2, 1)]);
    assert_eq!(
        store
            .prefix_scan::<Blocks, _>(&42u64, None, Direction::Forward)
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn keyset_pagination_visits_everything_once() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());
    for dir_ in [Direction::Forward, Direction::Reverse] {
        let mut seen = Vec::new();
        let mut after: Option<(u64, Id)> = None;
        loop {
            let page: Vec<_> = store
                .scan::<Blocks, _>(
                    match (dir_, after) {
                        (_, None) => (Bound::Unbounded, Bound::Unbounded),
                        (Direction::Forward, Some(k)) => (Bound::Excluded(k), Bound::Unbounded),
                        (Direction::Reverse, Some(k)) => (Bound::Unbounded, Bound::Excluded(k)),
                    },
                    dir_,
                )
                .unwrap()
                .take(3)
                .map(|r| r.unwrap().0)
                .collect();
            let Some(last) = page.last().copied() else {
                break;
            };
            seen.extend(page);
            after = Some(last);
        }
        assert_eq!(seen.len(), 20);
        let mut sorted = seen.clone();
        sorted.sort();
        if dir_ == Direction::Reverse {
            sorted.reverse();
        }
        assert_eq!(seen, sorted);
    }
}

#[test]
fn failed_batch_writes_nothing_and_snapshots_are_stable() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    let before = store.snapshot();

    // A batch that touches a table outside the schema fails as a whole.
    let mut bad = WriteBatch::new();
    bad.put::<BlockIds>(&id(1), &1);
    bad.put::<Extra>(&1, &vec![1]);
    assert_eq!(
        store.write(bad),
        Err(StoreError::UnknownTable("extra".into()))
    );
    assert_eq!(store.get::<BlockIds>(&id(1)).unwrap(), None);

    let mut good = WriteBatch::new();
    for n in 0..100 {
        good.put::<BlockIds>(&id(n), &n);
    }
    good.put::<Cursor>(&(), &99);
    store.write(good).unwrap();
    assert_eq!(
        store
            .scan::<BlockIds, _>(.., Direction::Forward)
            .unwrap()
            .count(),
        100
    );
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(99));

    // The snapshot taken before sees none of it, by get, multi_get or scan.
    assert_eq!(before.get::<BlockIds>(&id(5)).unwrap(), None);
    assert_eq!(before.get::<Cursor>(&()).unwrap(), None);
    assert_eq!(before.multi_get::<BlockIds>(&[id(5)]).unwrap(), vec![None]);
    assert_eq!(
        before
            .scan::<BlockIds, _>(.., Direction::Reverse)
            .unwrap()
            .count(),
        0
    );
    let after = store.snapshot();
    let mut del = WriteBatch::new();
    del.delete::<BlockIds>(&id(5));
    store.write(del).unwrap();
    assert_eq!(store.get::<BlockIds>(&id(5)).unwrap(), None);
    assert_eq!(after.get::<BlockIds>(&id(5)).unwrap(), Some(5));
}

#[test]
fn concurrent_readers_never_see_part_of_a_batch() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), &schema()).unwrap();
    const PER_BATCH: u64 = 50;
    const BATCHES: u64 = 40;
    std::thread::scope(|s| {
        s.spawn(|| {
            for b in 0..BATCHES {
                let mut batch = WriteBatch::new();
                for i in 0..PER_BATCH {
                    let n = b * PER_BATCH + i;
                    batch.put::<BlockIds>(&id(n), &n);
                }
                batch.put::<Cursor>(&(), &b);
                store.write(batch).unwrap();
            }
        });
        s.spawn(|| {
            loop {
                let snap = store.snapshot();
                let count = snap
                    .scan::<BlockIds, _>(.., Direction::Forward)
                    .unwrap()
                    .count() as u64;
                assert_eq!(count % PER_BATCH, 0, "saw a partial batch");
                let cursor = snap.get::<Cursor>(&()).unwrap();
                assert_eq!(
                    cursor.map_or(0, |c| (c + 1) * PER_BATCH),
                    count,
                    "cursor and data disagree"
                );
                if count == PER_BATCH * BATCHES {
                    break;
                }
            }
        });
    });
}

#[test]
fn data_survives_reopen() {
    let dir = tempfile::tempdir().unwrap();
    drop(filled(dir.path()));
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert_eq!(store.get::<BlockIds>(&id(91)).unwrap(), Some(9));
    assert_eq!(
        store
            .scan::<Blocks, _>(.., Direction::Forward)
            .unwrap()
            .count(),
        20
    );
    // Also after a flush to table files.
    store.flush().unwrap();
    drop(store);
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(9));
}

#[test]
fn schema_version_is_guarded() {
    let dir = tempfile::tempdir().unwrap();
    drop(filled(dir.path()));
    let v2 = Schema::new(2)
        .with::<Blocks>()
        .with::<BlockIds>()
        .with::<Cursor>();
    let err = Store::open(dir.path(), &v2).unwrap_err();
    assert_eq!(
        err,
        StoreError::SchemaMismatch {
            found: 1,
            expected: 2
        }
    );
    assert!(
        err.to_string()
            .contains("store has version 1, this build expects 2")
    );
    assert_eq!(
        Store::open_read_only(dir.path(), &v2).unwrap_err(),
        StoreError::SchemaMismatch {
            found: 1,
            expected: 2
        }
    );
    // The failed open changed nothing: version 1 still opens.
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(9));
}

#[test]
fn tables_added_and_dropped_between_opens() {
    let dir = tempfile::tempdir().unwrap();
    drop(filled(dir.path()));
    // Same version with an extra table: a reader cannot create it, a writer does.
    let more = schema().with::<Extra>();
    assert_eq!(
        Store::open_read_only(dir.path(), &more).unwrap_err(),
        StoreError::MissingTables(vec!["extra".into()])
    );
    let store = Store::open(dir.path(), &more).unwrap();
    store.put::<Extra>(&1, &b"x".to_vec()).unwrap();
    assert!(store.unknown_tables().is_empty());
    drop(store);
    // A schema without `extra` keeps it on disk, untouched, and reports it.
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert_eq!(store.unknown_tables(), ["extra".to_owned()]);
    drop(store);
    let store = Store::open(dir.path(), &more).unwrap();
    assert_eq!(store.get::<Extra>(&1).unwrap(), Some(b"x".to_vec()));
}

#[test]
fn invalid_schemas_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let dup = Schema::new(1).with::<BlockIds>().with::<BlockIdsAsId>();
    assert!(matches!(
        Store::open(dir.path(), &dup),
        Err(StoreError::InvalidSchema(_))
    ));
}

#[test]
fn decode_errors_name_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());
    // block_ids values are 8-byte heights; reading them as 32-byte ids fails cleanly.
    match store.get::<BlockIdsAsId>(&id(0)) {
        Err(StoreError::Decode { table, part, .. }) => {
            assert_eq!(table, "block_ids");
            assert_eq!(part, Part::Value);
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
    let mut scan = store
        .scan::<BlockIdsAsId, _>(.., Direction::Forward)
        .unwrap();
    assert!(matches!(
        scan.next(),
        Some(Err(StoreError::Decode {
            table: "block_ids",
            ..
        }))
    ));
    assert!(scan.next().is_none(), "a scan stops after an error");
}

#[test]
fn read_only_sees_data_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let writer = filled(dir.path());
    // Read-only opens alongside the live writer.
    let ro = Store::open_read_only(dir.path(), &schema()).unwrap();
    assert_eq!(ro.mode(), Mode::ReadOnly);
    assert_eq!(ro.get::<BlockIds>(&id(71)).unwrap(), Some(7));
    assert_eq!(
        ro.scan::<Blocks, _>(.., Direction::Reverse)
            .unwrap()
            .count(),
        20
    );
    assert_eq!(ro.put::<Cursor>(&(), &1), Err(StoreError::ReadOnly));
    assert_eq!(ro.flush(), Err(StoreError::ReadOnly));
    assert_eq!(ro.catch_up(), Err(StoreError::NotSecondary));
    drop(writer);
    let missing = tempfile::tempdir().unwrap();
    assert!(Store::open_read_only(missing.path().join("nope"), &schema()).is_err());
}

#[test]
fn secondary_catches_up_with_primary() {
    let dir = tempfile::tempdir().unwrap();
    let sec_dir = tempfile::tempdir().unwrap();
    let primary = filled(dir.path());
    let secondary = Store::open_secondary(dir.path(), sec_dir.path(), &schema()).unwrap();
    assert_eq!(secondary.mode(), Mode::Secondary);
    assert_eq!(secondary.get::<Cursor>(&()).unwrap(), Some(9));

    // New writes: in the WAL only, then flushed to a table file.
    primary.put::<BlockIds>(&id(1000), &100).unwrap();
    primary.put::<Cursor>(&(), &100).unwrap();
    assert_eq!(secondary.get::<BlockIds>(&id(1000)).unwrap(), None);
    secondary.catch_up().unwrap();
    assert_eq!(secondary.get::<BlockIds>(&id(1000)).unwrap(), Some(100));
    assert_eq!(secondary.get::<Cursor>(&()).unwrap(), Some(100));

    primary.put::<BlockIds>(&id(1001), &101).unwrap();
    primary.flush().unwrap();
    secondary.catch_up().unwrap();
    assert_eq!(secondary.get::<BlockIds>(&id(1001)).unwrap(), Some(101));
    assert_eq!(
        secondary
            .scan::<BlockIds, _>(.., Direction::Forward)
            .unwrap()
            .count(),
        22
    );
    assert_eq!(secondary.put::<Cursor>(&(), &1), Err(StoreError::ReadOnly));
}

#[test]
fn store_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Store>();
}

#[test]
fn tuned_options_open_and_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let opts = snowline_store::StoreOptions {
        sync_writes: true,
        block_cache_bytes: 8 << 20,
        ..snowline_store::StoreOptions::bulk_ingest()
    };
    let store = Store::open_with(dir.path(), &schema(), &opts).unwrap();
    store.put::<BlockIds>(&id(3), &3).unwrap();
    store.flush().unwrap();
    store.compact::<BlockIds>().unwrap();
    assert_eq!(store.get::<BlockIds>(&id(3)).unwrap(), Some(3));
    drop(store);
    let ro = Store::open_read_only_with(dir.path(), &schema(), &opts).unwrap();
    assert_eq!(ro.get::<BlockIds>(&id(3)).unwrap(), Some(3));
}

/// The `[CFOptions "name"]` section of the newest OPTIONS file RocksDB wrote in `dir`.
fn cf_options(dir: &std::path::Path, name: &str) -> String {
    let newest = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter_map(|f| Some((f.strip_prefix("OPTIONS-")?.parse::<u64>().ok()?, f)))
        .max()
        .expect("an OPTIONS file")
        .1;
    let text = std::fs::read_to_string(dir.join(newest)).unwrap();
    let head = format!("[CFOptions \"{name}\"]");
    let start = text.find(&head).expect("the table's section");
    let body = &text[start + head.len()..];
    body[..body.find("\n[").unwrap_or(body.len())].to_owned()
}

/// An `Append` table keeps one compression at every level (a differing bottom level would
/// make RocksDB rewrite files that could move down as they are); others put ZSTD at the bottom.
#[test]
fn append_tables_use_one_compression_at_every_level() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema().with::<Log>();
    let store = Store::open(dir.path(), &schema).unwrap();
    store.put::<Log>(&7, &vec![7; 10]).unwrap();
    assert_eq!(store.get::<Log>(&7).unwrap(), Some(vec![7; 10]));
    let log = cf_options(dir.path(), "log");
    assert!(log.contains("\n  compression=kLZ4Compression"), "{log}");
    assert!(
        log.contains("\n  bottommost_compression=kDisableCompressionOption"),
        "{log}"
    );
    let blocks = cf_options(dir.path(), "blocks");
    assert!(
        blocks.contains("\n  compression=kLZ4Compression"),
        "{blocks}"
    );
    assert!(
        blocks.contains("\n  bottommost_compression=kZSTD"),
        "{blocks}"
    );
}

/// A first open killed after creating column families but before writing the schema version
/// (the version is written last) leaves an empty store without a version: the next open must
/// finish the creation. One that holds data without a version is foreign and refused.
#[test]
fn an_interrupted_first_open_is_finished_by_the_next() {
    let raw_opts = || {
        let mut o = rocksdb::Options::default();
        o.create_if_missing(true);
        o.create_missing_column_families(true);
        o
    };
    // Killed after the meta and one table were created, before the version.
    let dir = tempfile::tempdir().unwrap();
    drop(rocksdb::DB::open_cf(&raw_opts(), dir.path(), ["__snowline_meta", "blocks"]).unwrap());
    let store = Store::open(dir.path(), &schema()).unwrap();
    store.put::<Cursor>(&(), &3).unwrap();
    drop(store);
    let store = Store::open(dir.path(), &schema()).unwrap();
    assert_eq!(store.get::<Cursor>(&()).unwrap(), Some(3));
    drop(store);

    // The same shape but holding data: not ours to adopt.
    let dir = tempfile::tempdir().unwrap();
    let db = rocksdb::DB::open_cf(&raw_opts(), dir.path(), ["__snowline_meta", "blocks"]).unwrap();
    db.put_cf(db.cf_handle("blocks").unwrap(), b"k", b"v")
        .unwrap();
    drop(db);
    assert!(matches!(
        Store::open(dir.path(), &schema()),
        Err(StoreError::MissingSchemaVersion(_))
    ));
}

#[test]
fn compact_all_leaves_no_level0_file_and_keeps_every_entry() {
    let dir = tempfile::tempdir().unwrap();
    // The import's settings: level-0 files are not compacted before eight have piled up.
    let store = Store::open_with(
        dir.path(),
        &schema(),
        &snowline_store::StoreOptions::bulk_ingest(),
    )
    .unwrap();
    for round in 0..3u32 {
        for n in 0..100u32 {
            store
                .put::<BlockIds>(&id((round * 100 + n).into()), &u64::from(n))
                .unwrap();
        }
        store.flush().unwrap();
    }
    assert_eq!(store.level0_files().unwrap(), 3, "one file per flush");
    store.compact_all().unwrap();
    assert_eq!(store.level0_files().unwrap(), 0);
    let all: Vec<_> = store
        .scan::<BlockIds, _>(.., Direction::Forward)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(all.len(), 300);
    drop(store);
    let ro = Store::open_read_only(dir.path(), &schema()).unwrap();
    assert_eq!(ro.compact_all(), Err(StoreError::ReadOnly));
}

#[test]
fn last_in_each_range_is_the_last_key_at_or_below_its_end_and_not_below_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let store = filled(dir.path());
    let snapshot = store.snapshot();
    // Written after the snapshot: the store sees it, the snapshot does not.
    let mut b = WriteBatch::new();
    b.put::<Blocks>(&(3, id(35)), &b"late".to_vec());
    store.write(b).unwrap();
    let ranges = [
        ((3, id(0)), (3, id(99))),  // the last of height 3
        ((3, id(0)), (3, id(30))),  // its end is a key: included
        ((4, id(45)), (4, id(49))), // nothing there; the key before it is below the start
        ((10, id(0)), (12, id(0))), // past every key
        ((0, id(0)), (0, id(0))),   // one key
        ((2, id(0)), (9, id(0))),   // across heights, sought after a later range
    ];
    let last = |got: Vec<Option<Entry<Blocks>>>| -> Vec<Option<(u64, u64)>> {
        got.into_iter()
            .map(|e| e.map(|((h, i), _)| (h, u64::from_be_bytes(i.0[..8].try_into().unwrap()))))
            .collect()
    };
    // The model: heights 0..10 hold ids h*10 and h*10+1 (`filled`), plus the late (3, 35).
    let want_snapshot = vec![
        Some((3, 31)),
        Some((3, 30)),
        None,
        None,
        Some((0, 0)),
        Some((8, 81)),
    ];
    let mut want_store = want_snapshot.clone();
    want_store[0] = Some((3, 35));
    assert_eq!(
        last(snapshot.last_in_each::<Blocks>(&ranges).unwrap()),
        want_snapshot
    );
    assert_eq!(
        last(store.last_in_each::<Blocks>(&ranges).unwrap()),
        want_store
    );
    assert_eq!(store.last_in_each::<Blocks>(&[]).unwrap(), vec![]);
}
