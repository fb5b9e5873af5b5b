//! The index's tables, writer, reader, ingest loop and JSON-lines import.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Cursor;

use snowline_derive::{Derive, DeriveError, NoDerive, Prepare, Staging};
use snowline_node_index::{
    ContainerIds, Containers, IndexReader, IndexWriter, Staged, import_file, import_jsonl, tables,
    validate_jsonl,
};
use snowline_store::{Direction, ReadView, Schema, Store, Table, WriteBatch};
use snowline_types::Id;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::hashing::sha256;

fn schema() -> Schema {
    tables()
        .into_iter()
        .fold(Schema::new(1), |s, t| s.with_spec(t))
        .with::<Derived>()
}

/// A derived table, as an X-Chain indexer would add: id -> byte length.
struct Derived;
impl Table for Derived {
    const NAME: &'static str = "test_derived";
    type Key = Id;
    type Value = u64;
}

fn record(path: IndexPath, i: u64) -> ContainerRecord {
    let bytes = format!("{path} container {i}").into_bytes();
    ContainerRecord {
        path,
        id: Id(sha256(&bytes)),
        bytes,
        timestamp_ns: 1_600_000_000_000_000_000 + i64::try_from(i).unwrap() * 1_000_001,
    }
}

fn open(dir: &tempfile::TempDir) -> Store {
    Store::open(dir.path(), &schema()).unwrap()
}

#[test]
fn write_then_read_every_way() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut batch = WriteBatch::new();
    for i in 0..5 {
        assert_eq!(
            w.stage(&store, &mut batch, &record(IndexPath::XTx, i))
                .unwrap(),
            Staged::New { index: i }
        );
    }
    assert_eq!(
        w.stage(&store, &mut batch, &record(IndexPath::PBlock, 0))
            .unwrap(),
        Staged::New { index: 0 }
    );
    // Nothing is visible (or counted as committed) before the write.
    assert_eq!(w.next_index(IndexPath::XTx), 0);
    assert_eq!(w.staged_next_index(IndexPath::XTx), 5);
    assert!(IndexReader::new(&store, IndexPath::XTx).is_empty().unwrap());
    w.write(&store, &batch).unwrap();
    assert_eq!(w.next_index(IndexPath::XTx), 5);

    let r = IndexReader::new(&store, IndexPath::XTx);
    assert_eq!(r.len().unwrap(), 5);
    let rec = record(IndexPath::XTx, 3);
    let c = r.by_index(3).unwrap().unwrap();
    assert_eq!(
        (c.index, c.id, &c.bytes, c.timestamp_ns),
        (3, rec.id, &rec.bytes, rec.timestamp_ns)
    );
    assert_eq!(r.index_of(&rec.id).unwrap(), Some(3));
    assert_eq!(r.by_id(&rec.id).unwrap().unwrap(), c);
    assert_eq!(r.by_index(5).unwrap(), None);
    assert_eq!(r.last_accepted().unwrap().unwrap().index, 4);
    let idx: Vec<u64> = r.range(1, 3).unwrap().iter().map(|c| c.index).collect();
    assert_eq!(idx, [1, 2, 3]);
    let idx: Vec<u64> = r.range(3, 100).unwrap().iter().map(|c| c.index).collect();
    assert_eq!(idx, [3, 4]);
    assert!(r.range(0, 0).unwrap().is_empty());
    assert!(r.range(9, 5).unwrap().is_empty());
    assert!(r.range(u64::MAX, 1024).unwrap().is_empty());

    // Paths are separate: the P-Chain id is not in X/tx and vice versa.
    let p0 = record(IndexPath::PBlock, 0);
    assert_eq!(r.index_of(&p0.id).unwrap(), None);
    let rp = IndexReader::new(&store, IndexPath::PBlock);
    assert_eq!(rp.index_of(&p0.id).unwrap(), Some(0));
    assert_eq!(rp.index_of(&rec.id).unwrap(), None);
    assert!(
        IndexReader::new(&store, IndexPath::CBlock)
            .last_accepted()
            .unwrap()
            .is_none()
    );

    // A reopened writer resumes at the stored next index.
    drop(store);
    let store = open(&dir);
    let w = IndexWriter::open(&store).unwrap();
    assert_eq!(w.next_index(IndexPath::XTx), 5);
    assert_eq!(w.next_index(IndexPath::PBlock), 1);
    assert_eq!(w.next_index(IndexPath::XBlock), 0);
}

#[test]
fn duplicates_are_detected_committed_and_staged() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut batch = WriteBatch::new();
    w.stage(&store, &mut batch, &record(IndexPath::XTx, 0))
        .unwrap();
    let ops = batch.len();
    assert_eq!(
        w.stage(&store, &mut batch, &record(IndexPath::XTx, 0))
            .unwrap(),
        Staged::Duplicate { index: 0 }
    );
    assert_eq!(batch.len(), ops, "a duplicate adds no rows");
    w.write(&store, &batch).unwrap();
    let mut batch = WriteBatch::new();
    assert_eq!(
        w.stage(&store, &mut batch, &record(IndexPath::XTx, 0))
            .unwrap(),
        Staged::Duplicate { index: 0 }
    );
    assert!(batch.is_empty());
    // The same container in another path is a different entry.
    let mut other = record(IndexPath::XTx, 0);
    other.path = IndexPath::XVtx;
    assert_eq!(
        w.stage(&store, &mut batch, &other).unwrap(),
        Staged::New { index: 0 }
    );
}

#[test]
fn a_sealed_batch_counts_until_written_and_is_dropped_with_a_failure() {
    // The follower's write-behind: batch 1 is sealed and written while batch 2 is staged.
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut first = WriteBatch::new();
    w.stage(&store, &mut first, &record(IndexPath::XTx, 0))
        .unwrap();
    w.seal();
    let mut second = WriteBatch::new();
    // The sealed container is not in the store yet, and still a duplicate.
    assert_eq!(
        w.stage(&store, &mut second, &record(IndexPath::XTx, 0))
            .unwrap(),
        Staged::Duplicate { index: 0 }
    );
    assert_eq!(
        w.stage_expecting(&store, &mut second, &record(IndexPath::XTx, 1), 1)
            .unwrap(),
        Staged::New { index: 1 }
    );
    assert_eq!(w.next_index(IndexPath::XTx), 0);
    store.write(&first).unwrap();
    w.committed();
    // Only the sealed batch counts as written; the staged one is still pending.
    assert_eq!(w.next_index(IndexPath::XTx), 1);
    assert_eq!(w.staged_next_index(IndexPath::XTx), 2);
    assert!(w.has_staged());
    w.seal();
    // A failed write drops the sealed batch and anything staged after it.
    let mut third = WriteBatch::new();
    w.stage(&store, &mut third, &record(IndexPath::XTx, 2))
        .unwrap();
    w.discard();
    assert_eq!(w.next_index(IndexPath::XTx), 1);
    assert!(!w.has_staged());
    let mut again = WriteBatch::new();
    assert_eq!(
        w.stage(&store, &mut again, &record(IndexPath::XTx, 1))
            .unwrap(),
        Staged::New { index: 1 }
    );
}

#[test]
fn discard_forgets_staged_rows() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut batch = WriteBatch::new();
    w.stage(&store, &mut batch, &record(IndexPath::XTx, 0))
        .unwrap();
    assert!(w.has_staged());
    w.discard();
    assert!(!w.has_staged());
    let mut batch = WriteBatch::new();
    assert_eq!(
        w.stage(&store, &mut batch, &record(IndexPath::XTx, 7))
            .unwrap(),
        Staged::New { index: 0 }
    );
}

#[test]
fn stated_index_must_match() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut batch = WriteBatch::new();
    let err = w
        .stage_expecting(&store, &mut batch, &record(IndexPath::XTx, 0), 1)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "container {} in X/tx is at index 0 but the source says 1",
            record(IndexPath::XTx, 0).id
        )
    );
    assert!(batch.is_empty());
    assert_eq!(
        w.stage_expecting(&store, &mut batch, &record(IndexPath::XTx, 0), 0)
            .unwrap(),
        Staged::New { index: 0 }
    );
}

fn jsonl(n: u64) -> String {
    let mut out = String::new();
    for i in 0..n {
        for path in [IndexPath::XTx, IndexPath::CBlock] {
            out.push_str(&record(path, i).to_json_line(Some(i)));
            out.push('\n');
        }
    }
    out
}

/// Every row of both index tables, for comparing stores.
fn dump(store: &Store) -> (Vec<String>, Vec<String>) {
    let a = store
        .scan::<Containers, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| format!("{:?}", e.unwrap()))
        .collect();
    let b = store
        .scan::<ContainerIds, _>(.., Direction::Forward)
        .unwrap()
        .map(|e| format!("{:?}", e.unwrap()))
        .collect();
    (a, b)
}

#[test]
fn import_is_idempotent_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let text = jsonl(25);
    // A first import of only part of the file, then the whole file: the overlap is skipped.
    let part: String = text.lines().take(17).map(|l| format!("{l}\n")).collect();
    let s = import_jsonl(&store, &mut w, Cursor::new(part), 4, &mut NoDerive, |_| {}).unwrap();
    assert_eq!((s.read, s.added, s.duplicates), (17, 17, 0));
    assert_eq!(s.batches, 5);
    let mut seen = Vec::new();
    let s = import_jsonl(
        &store,
        &mut w,
        Cursor::new(text.clone()),
        4,
        &mut NoDerive,
        |st| seen.push(st.added),
    )
    .unwrap();
    assert_eq!((s.read, s.added, s.duplicates), (50, 33, 17));
    assert_eq!(seen, [4, 8, 12, 16, 20, 24, 28, 32, 33]);

    let clean_dir = tempfile::tempdir().unwrap();
    let clean = open(&clean_dir);
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
    assert_eq!(
        IndexReader::new(&clean, IndexPath::CBlock).len().unwrap(),
        25
    );
}

/// A source error under write-behind: the finished batch before it is written, the page being
/// read is not.
#[test]
fn bad_line_under_write_behind_keeps_the_batches_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut lines: Vec<String> = (0..10)
        .map(|i| record(IndexPath::XTx, i).to_json_line(None))
        .collect();
    lines[7] = lines[7].replace("\"bytes\":\"0x", "\"bytes\":\"0x00");
    let mut d = Lengths {
        fail_at: None,
        committed: 0,
        overlap: true,
    };
    let err = import_jsonl(
        &store,
        &mut w,
        Cursor::new(lines.join("\n")),
        3,
        &mut d,
        |_| {},
    )
    .unwrap_err();
    assert!(err.to_string().starts_with("line 8: "), "{err}");
    assert_eq!(w.next_index(IndexPath::XTx), 6);
    assert_eq!(d.committed, 2);
    let derived = store
        .scan::<Derived, _>(.., Direction::Forward)
        .unwrap()
        .count();
    assert_eq!(derived, 6);
}

#[test]
fn bad_line_is_named_and_its_batch_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let mut lines: Vec<String> = jsonl(5).lines().map(str::to_owned).collect();
    lines.insert(6, String::new()); // blank lines are skipped but counted
    lines[8] = lines[8].replace("\"bytes\":\"0x", "\"bytes\":\"0x00");
    let text = lines.join("\n");
    let err = import_jsonl(
        &store,
        &mut w,
        Cursor::new(text.clone()),
        4,
        &mut NoDerive,
        |_| {},
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("line 9: invalid container bytes"),
        "{err}"
    );
    // Streaming import: the first whole batch (4 containers) is in, the batch with the bad
    // line is not.
    assert_eq!(
        w.next_index(IndexPath::XTx) + w.next_index(IndexPath::CBlock),
        4
    );
    assert_eq!(dump(&store).0.len(), 4);

    // A wrong id is caught too.
    let good = record(IndexPath::XTx, 0);
    let mut wrong = good.clone();
    wrong.id = Id([1; 32]);
    let err = validate_jsonl(Cursor::new(format!("{}\n", wrong.to_json_line(None)))).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "line 1: container id {} in X/tx is not the id of its bytes",
            wrong.id
        )
    );

    // import_file validates first: nothing at all is written.
    let dir2 = tempfile::tempdir().unwrap();
    let store2 = open(&dir2);
    let mut w2 = IndexWriter::open(&store2).unwrap();
    let file = dir2.path().join("bad.jsonl");
    std::fs::write(&file, &text).unwrap();
    let err = import_file(&store2, &mut w2, &file, 4, &mut NoDerive, |_| {}).unwrap_err();
    assert!(err.to_string().starts_with("line 9: "), "{err}");
    assert!(dump(&store2).0.is_empty());
    let good_file = dir2.path().join("good.jsonl");
    std::fs::write(&good_file, jsonl(5)).unwrap();
    let s = import_file(&store2, &mut w2, &good_file, 4, &mut NoDerive, |_| {}).unwrap();
    assert_eq!(s.added, 10);
}

#[test]
fn validate_checks_stated_indexes_run_on() {
    let a = record(IndexPath::XTx, 0).to_json_line(Some(5));
    let b = record(IndexPath::XTx, 1).to_json_line(Some(7));
    let err = validate_jsonl(Cursor::new(format!("{a}\n{b}\n"))).unwrap_err();
    assert!(err.to_string().starts_with("line 2: container"), "{err}");
    assert!(
        err.to_string()
            .ends_with("is at index 6 but the source says 7"),
        "{err}"
    );
    let counts = validate_jsonl(Cursor::new(jsonl(3))).unwrap();
    assert_eq!(counts.get(&IndexPath::XTx), Some(&3));
}

/// A container's length, prepared off the writer thread; containers whose bytes start with
/// `bad` cannot be prepared.
struct Len(u64);

impl Prepare for Len {
    fn prepare(record: &ContainerRecord) -> Result<Self, DeriveError> {
        if record.bytes.starts_with(b"bad") {
            return Err(DeriveError::Derive("unpreparable".into()));
        }
        Ok(Len(record.bytes.len() as u64))
    }
}

/// Adds a derived row per container (its prepared length), and fails on demand. With `overlap`
/// it lets the next batch be staged while the previous one is written (write-behind).
struct Lengths {
    fail_at: Option<u64>,
    committed: u64,
    overlap: bool,
}

/// Holds its rows back until the batch is complete (as the Data API's history does), and
/// fails there on demand.
struct Deferred {
    rows: Vec<(Id, u64)>,
    fail_finish: bool,
}

impl Derive for Deferred {
    const PATHS: &'static [IndexPath] = &IndexPath::ALL;
    type Prepared = Len;

    fn derive(
        &mut self,
        _batch: &mut WriteBatch,
        _view: &Store,
        record: &ContainerRecord,
        _index: u64,
        prepared: &Len,
    ) -> Result<(), DeriveError> {
        self.rows.push((record.id, prepared.0));
        Ok(())
    }
}

impl Staging for Deferred {
    fn finish(&mut self, batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        if self.fail_finish {
            return Err(DeriveError::Derive("cannot finish".into()));
        }
        for (id, len) in self.rows.drain(..) {
            batch.put::<Derived>(&id, &len);
        }
        Ok(())
    }

    fn seal(&mut self) {}

    fn committed(&mut self) {}

    fn discard(&mut self) {
        self.rows.clear();
    }
}

impl Derive for Lengths {
    const PATHS: &'static [IndexPath] = &IndexPath::ALL;
    type Prepared = Len;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        _view: &Store,
        record: &ContainerRecord,
        index: u64,
        prepared: &Len,
    ) -> Result<(), DeriveError> {
        if self.fail_at == Some(index) {
            return Err(DeriveError::Derive(format!("refusing {index}")));
        }
        batch.put::<Derived>(&record.id, &prepared.0);
        Ok(())
    }
    fn overlaps_writes(&self) -> bool {
        self.overlap
    }
}

impl Staging for Lengths {
    fn seal(&mut self) {}
    fn committed(&mut self) {
        self.committed += 1;
    }
    fn discard(&mut self) {}
}

#[test]
fn derived_rows_commit_with_their_containers() {
    derived_rows_commit_with_their_containers_when(false);
}

/// The same with write-behind: a failure still leaves exactly the whole batches before it.
#[test]
fn write_behind_commits_the_same_batches() {
    derived_rows_commit_with_their_containers_when(true);
}

fn derived_rows_commit_with_their_containers_when(overlap: bool) {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let text: String = (0..10)
        .map(|i| format!("{}\n", record(IndexPath::XTx, i).to_json_line(None)))
        .collect();
    let mut d = Lengths {
        fail_at: Some(6),
        committed: 0,
        overlap,
    };
    let err =
        import_jsonl(&store, &mut w, Cursor::new(text.clone()), 3, &mut d, |_| {}).unwrap_err();
    assert_eq!(err.to_string(), "line 7: derive: refusing 6");
    assert_eq!(d.committed, 2);
    // Containers 0..6 and exactly their derived rows.
    assert_eq!(w.next_index(IndexPath::XTx), 6);
    let derived = store
        .scan::<Derived, _>(.., Direction::Forward)
        .unwrap()
        .count();
    assert_eq!(derived, 6);
    for i in 0..10 {
        let r = record(IndexPath::XTx, i);
        assert_eq!(store.get::<Derived>(&r.id).unwrap().is_some(), i < 6);
    }
    d.fail_at = None;
    let mut seen = Vec::new();
    let s = import_jsonl(&store, &mut w, Cursor::new(text.clone()), 3, &mut d, |s| {
        seen.push((s.added, s.batches))
    })
    .unwrap();
    assert_eq!((s.read, s.added, s.duplicates), (10, 4, 6));
    // Pages of 3 records: the first two are duplicates only (nothing written), then 6..9.
    assert_eq!(s.batches, 2);
    assert_eq!(seen.last(), Some(&(4, 2)));
    assert_eq!(w.next_index(IndexPath::XTx), 10);
    assert_eq!(
        store
            .scan::<Derived, _>(.., Direction::Forward)
            .unwrap()
            .count(),
        10
    );
}

/// A record of `path` whose bytes are `bytes` (its id their sha256).
fn record_of(path: IndexPath, bytes: &[u8]) -> ContainerRecord {
    ContainerRecord {
        path,
        id: Id(sha256(bytes)),
        bytes: bytes.to_vec(),
        timestamp_ns: 1_600_000_000_000_000_000,
    }
}

#[test]
fn prepare_errors_surface_only_for_new_containers() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    // "good" and i spaces: 4 + i bytes.
    let good = |i: usize| record_of(IndexPath::XTx, format!("good{}", " ".repeat(i)).as_bytes());
    let bad = record_of(IndexPath::XTx, b"bad one");
    let line = |r: &ContainerRecord| format!("{}\n", r.to_json_line(None));
    let file = dir.path().join("c.jsonl");

    // Through the parallel import: the derive hook sees the prepared lengths; the unpreparable
    // container stops the import at its line, its batch unwritten.
    let text: String = [good(0), good(1), bad.clone(), good(2)]
        .iter()
        .map(line)
        .collect();
    std::fs::write(&file, &text).unwrap();
    let mut d = Lengths {
        fail_at: None,
        committed: 0,
        overlap: false,
    };
    let err = import_file(&store, &mut w, &file, 2, &mut d, |_| {}).unwrap_err();
    assert_eq!(err.to_string(), "line 3: derive: unpreparable");
    assert_eq!(w.next_index(IndexPath::XTx), 2);
    assert_eq!(store.get::<Derived>(&good(1).id).unwrap(), Some(5));

    // Once the container is indexed (here without a hook), its failing preparation is never
    // looked at again: a duplicate is not derived.
    import_jsonl(
        &store,
        &mut w,
        Cursor::new(line(&bad)),
        2,
        &mut NoDerive,
        |_| {},
    )
    .unwrap();
    let s = import_file(&store, &mut w, &file, 2, &mut d, |_| {}).unwrap();
    assert_eq!((s.added, s.duplicates), (1, 3));
    assert_eq!(store.get::<Derived>(&good(2).id).unwrap(), Some(6));
    assert_eq!(store.get::<Derived>(&bad.id).unwrap(), None);
}

#[test]
fn rows_held_back_until_finish_land_with_their_batch() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir);
    let mut w = IndexWriter::open(&store).unwrap();
    let text: String = (0..5)
        .map(|i| format!("{}\n", record(IndexPath::XTx, i).to_json_line(None)))
        .collect();
    let mut d = Deferred {
        rows: Vec::new(),
        fail_finish: true,
    };
    let err =
        import_jsonl(&store, &mut w, Cursor::new(text.clone()), 2, &mut d, |_| {}).unwrap_err();
    assert!(err.to_string().contains("cannot finish"), "{err}");
    // The failed finish dropped the whole first batch: no container, no row.
    assert_eq!(w.next_index(IndexPath::XTx), 0);
    assert_eq!(
        IndexWriter::open(&store)
            .unwrap()
            .next_index(IndexPath::XTx),
        0
    );
    d.fail_finish = false;
    let s = import_jsonl(&store, &mut w, Cursor::new(text), 2, &mut d, |_| {}).unwrap();
    assert_eq!((s.added, s.batches), (5, 3));
    for i in 0..5 {
        let r = record(IndexPath::XTx, i);
        assert_eq!(
            store.get::<Derived>(&r.id).unwrap(),
            Some(r.bytes.len() as u64)
        );
    }
}
