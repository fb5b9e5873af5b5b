//! The ingest loop shared by every container source: stage whole containers into a batch
//! together with the rows a [`Derive`] hook adds, write the batch atomically with the index's
//! cursor, repeat (the protocol is `snowline_derive`'s).
//!
//! A hook's store-independent work (decoding and hashing a container) is its [`Prepare`] type, so
//! sources can run it ahead of the single writer thread: the import on its parse threads, the
//! follower while the previous page is written.

use snowline_derive::{Derive, Prepare, WriteBehind, drop_batch, write_batch};
use snowline_store::{Store, WriteBatch};
use snowline_types::container::ContainerLine;

use crate::error::IndexError;
use crate::writer::{IndexWriter, Staged};

/// A container line with its [`Prepare`] (or the error preparing it gave), as
/// [`ingest_prepared`] takes it.
#[derive(Debug)]
pub struct PreparedLine<P> {
    /// The line.
    pub line: ContainerLine,
    /// Its preparation.
    pub prepared: Result<P, IndexError>,
    /// Its line number in the source file, if it came from one: errors staging it name it
    /// even when the source has been read ahead of it (write-behind pages).
    pub number: Option<u64>,
}

impl<P: Prepare> PreparedLine<P> {
    /// Prepares `line` on the calling thread.
    pub fn new(line: ContainerLine) -> Self {
        let prepared = P::prepare(&line.record).map_err(IndexError::from);
        Self {
            line,
            prepared,
            number: None,
        }
    }

    /// The same line, numbered `number` in its source file.
    pub fn numbered(self, number: u64) -> Self {
        Self {
            number: Some(number),
            ..self
        }
    }
}

/// `e` as the error of source line `number`, when it is known and `e` does not already name a
/// line (store errors are the store's, not a line's).
pub(crate) fn with_line_number(number: Option<u64>, e: IndexError) -> IndexError {
    match (number, e) {
        (_, e @ (IndexError::Line { .. } | IndexError::Store(_))) | (None, e) => e,
        (Some(line), source) => IndexError::Line {
            line,
            source: Box::new(source),
        },
    }
}

/// Counters of an ingest run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IngestStats {
    /// Records read from the source.
    pub read: u64,
    /// Containers added to the index.
    pub added: u64,
    /// Records skipped because their container was already indexed.
    pub duplicates: u64,
    /// Batches written.
    pub batches: u64,
}

/// Stages one container into `batch` (its index rows, then what `derive` adds when it is new).
/// An error names the line's source line when it has one.
/// On an error nothing is undone here: the caller drops the batch ([`drop_batch`]).
pub(crate) fn stage_line<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    batch: &mut WriteBatch,
    derive: &mut D,
    line: PreparedLine<D::Prepared>,
) -> Result<Staged, IndexError> {
    let number = line.number;
    stage_record(store, writer, batch, derive, line).map_err(|e| with_line_number(number, e))
}

/// [`stage_line`] without naming the source line in its errors.
fn stage_record<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    batch: &mut WriteBatch,
    derive: &mut D,
    line: PreparedLine<D::Prepared>,
) -> Result<Staged, IndexError> {
    let PreparedLine { line, prepared, .. } = line;
    let staged = match line.index {
        Some(stated) => writer.stage_expecting(store, batch, &line.record, stated)?,
        None => writer.stage(store, batch, &line.record)?,
    };
    if let Staged::New { index } = staged {
        derive.derive(batch, store, &line.record, index, &prepared?)?;
    }
    Ok(staged)
}

/// Staged write data (encoded keys and values, [`WriteBatch::size_bytes`]) at which a batch is
/// cut unless the caller sets its own budget: the batch ends after the container that reaches it,
/// so it always holds whole containers (and a single container larger than the budget still
/// makes a batch of its own). Two batches are in memory at once with write-behind (one staged,
/// one being written) and RocksDB copies each into its memtables, so this bounds what a batch
/// costs in memory whatever the containers' sizes (`docs/benchmarks.md`, "Memory while
/// following").
pub const DEFAULT_BATCH_BYTES: usize = 16 << 20;

/// How large one atomic batch may grow: at most `containers` new containers and, counted after
/// each container, at most `bytes` of staged write data (the container that crosses the budget
/// is the batch's last). Either bound cuts the batch; 0 is read as 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLimits {
    /// New containers per batch.
    pub containers: usize,
    /// Staged write data per batch, in bytes.
    pub bytes: usize,
}

impl BatchLimits {
    /// At most `containers` per batch, and [`DEFAULT_BATCH_BYTES`].
    pub fn containers(containers: usize) -> Self {
        Self {
            containers,
            bytes: DEFAULT_BATCH_BYTES,
        }
    }

    /// Whether a batch of `containers` new containers and `bytes` staged bytes is full.
    fn full(self, containers: usize, bytes: usize) -> bool {
        containers >= self.containers.max(1) || bytes >= self.bytes.max(1)
    }
}

/// Stages lines of a page into `batch` (each container at its stated index, with what
/// `derive` adds) until the page ends or the batch holds `max_bytes` of write data (checked
/// after each container, so only whole containers are staged); returns the new containers.
/// The lines not staged stay in `lines` for the next batch. On an error the batch is left as
/// it is, for the caller to drop.
pub(crate) fn stage_page<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    lines: &mut impl Iterator<Item = PreparedLine<D::Prepared>>,
    max_bytes: usize,
) -> Result<u64, IndexError> {
    let mut added = 0u64;
    for line in lines {
        if let Staged::New { .. } = stage_line(store, writer, batch, derive, line)? {
            added += 1;
        }
        if batch.size_bytes() >= max_bytes.max(1) {
            break;
        }
    }
    Ok(added)
}

/// Stages a page and writes it in batches of at most `max_bytes` of write data each (whole
/// containers; one batch when the page is smaller); returns the new containers. `batch` is
/// empty before and after.
pub(crate) fn write_page<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    lines: Vec<PreparedLine<D::Prepared>>,
    max_bytes: usize,
) -> Result<u64, IndexError> {
    let mut lines = lines.into_iter().peekable();
    let mut total = 0u64;
    while lines.peek().is_some() {
        let staged = stage_page(store, writer, derive, batch, &mut lines, max_bytes);
        let mut parts = (&mut *derive, &mut *writer);
        match staged {
            Ok(added) if added > 0 => {
                write_batch(store, &mut parts, batch)?;
                total += added;
            }
            // Only duplicates: nothing was derived, nothing to write.
            Ok(_) => drop_batch(&mut parts, batch),
            Err(e) => {
                drop_batch(&mut parts, batch);
                return Err(e);
            }
        }
    }
    Ok(total)
}

/// Stages the next batch of `page` (at most `max_bytes` of write data, see [`stage_page`])
/// while `behind` writes the sealed batch (see [`WriteBehind::overlap`]). Called until `page`
/// is empty.
pub(crate) fn overlap_page<D: Derive>(
    behind: &mut WriteBehind,
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    page: &mut impl Iterator<Item = PreparedLine<D::Prepared>>,
    max_bytes: usize,
) -> Result<u64, IndexError> {
    behind.overlap(store, &mut (derive, writer), batch, |(d, w), b| {
        stage_page(store, w, &mut **d, b, page, max_bytes)
    })
}

/// Reads `source` to its end, writing batches of at most `batch_size` new containers and
/// [`DEFAULT_BATCH_BYTES`] of write data ([`BatchLimits`]; whole
/// containers with everything `derive` adds, atomically) and calling `on_batch` after each write.
/// A record with a stated index must get (or already have) exactly that index. On a source
/// error the current batch is dropped and the error returned; batches written before stay (each
/// is whole, so the index is always a consistent prefix and a rerun resumes). Each container is
/// prepared here, on the calling thread; [`ingest_prepared`] takes lines prepared elsewhere.
pub fn ingest<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<ContainerLine, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
    let source = source
        .into_iter()
        .map(|item| item.map(PreparedLine::<D::Prepared>::new));
    ingest_prepared(store, writer, source, batch_size, derive, on_batch)
}

/// [`ingest`] of lines whose [`Prepare`] was already run (by the source's own threads).
pub fn ingest_prepared<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<PreparedLine<D::Prepared>, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
    let limits = BatchLimits::containers(batch_size);
    ingest_limited(store, writer, source, limits, derive, on_batch)
}

/// [`ingest_prepared`] with both bounds of a batch set by the caller ([`BatchLimits`]).
pub fn ingest_limited<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    limits: BatchLimits,
    derive: &mut D,
    mut on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<PreparedLine<D::Prepared>, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
    if derive.overlaps_writes() {
        return ingest_behind(store, writer, source, limits, derive, on_batch);
    }
    let mut stats = IngestStats::default();
    let mut batch = WriteBatch::new();
    let mut in_batch = 0usize;
    for item in source {
        let staged = item.and_then(|line| {
            stats.read += 1;
            stage_line(store, writer, &mut batch, derive, line)
        });
        match staged {
            Ok(Staged::New { .. }) => {
                stats.added += 1;
                in_batch += 1;
            }
            Ok(Staged::Duplicate { .. }) => stats.duplicates += 1,
            Err(e) => {
                drop_batch(&mut (derive, writer), &mut batch);
                return Err(e);
            }
        }
        if limits.full(in_batch, batch.size_bytes()) {
            write_batch(store, &mut (&mut *derive, &mut *writer), &mut batch)?;
            stats.batches += 1;
            in_batch = 0;
            on_batch(&stats);
        }
    }
    if in_batch > 0 {
        write_batch(store, &mut (derive, writer), &mut batch)?;
        stats.batches += 1;
        on_batch(&stats);
    }
    Ok(stats)
}

/// Records a write-behind page reserves room for before it is read.
const PAGE_RESERVE: usize = 4096;

/// [`ingest_prepared`] with write-behind ([`Derive::overlaps_writes`]): pages of
/// `limits.containers` records, each staged in batches of at most `limits.bytes` while the
/// previous batch is written on another thread. A source
/// error first writes the finished batch (it is whole), then drops the page being read, as
/// [`ingest_prepared`] drops its current batch.
fn ingest_behind<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    limits: BatchLimits,
    derive: &mut D,
    mut on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<PreparedLine<D::Prepared>, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
    let batch_size = limits.containers.max(1);
    let mut stats = IngestStats::default();
    let mut batch = WriteBatch::new();
    let mut behind = WriteBehind::default();
    let mut source = source.into_iter();
    loop {
        // A page grows as it is read: `batch_size` comes from the command line, and reserving
        // all of a huge one up front could exhaust memory before a single line is read.
        let mut page = Vec::with_capacity(batch_size.min(PAGE_RESERVE));
        let mut failed = None;
        while page.len() < batch_size {
            match source.next() {
                Some(Ok(line)) => page.push(line),
                Some(Err(e)) => {
                    failed = Some(e);
                    break;
                }
                None => break,
            }
        }
        let (read, last) = (page.len(), page.len() < batch_size);
        stats.read += read as u64;
        if let Some(e) = failed {
            // The page read so far is dropped, as the unbatched loop drops its batch.
            behind.land(store, &mut (derive, writer))?;
            return Err(e);
        }
        let mut page = page.into_iter().peekable();
        let mut page_added = 0u64;
        while page.peek().is_some() {
            let landed = overlap_page(
                &mut behind,
                store,
                writer,
                derive,
                &mut batch,
                &mut page,
                limits.bytes,
            )?;
            let added = behind.sealed_added();
            stats.added += added;
            page_added += added;
            if landed > 0 {
                stats.batches += 1;
                on_batch(&stats);
            }
        }
        stats.duplicates += read as u64 - page_added;
        if last {
            let landed = behind.land(store, &mut (derive, writer))?;
            if landed > 0 {
                stats.batches += 1;
                on_batch(&stats);
            }
            return Ok(stats);
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use snowline_store::Schema;
    use snowline_types::Id;
    use snowline_types::container::{ContainerRecord, IndexPath};
    use snowline_types::hashing::sha256;

    use super::*;
    use crate::reader::IndexReader;
    use crate::tables::tables;
    use snowline_derive::{DeriveError, NoDerive, Staging};

    fn store(dir: &tempfile::TempDir) -> Store {
        let schema = tables()
            .into_iter()
            .fold(Schema::new(1), |s, t| s.with_spec(t));
        Store::open(dir.path(), &schema).unwrap()
    }

    /// Container `i` of X/tx, `size` bytes long.
    fn line(i: u64, size: usize) -> PreparedLine<()> {
        let mut bytes = vec![7u8; size.max(8)];
        bytes[..8].copy_from_slice(&i.to_be_bytes());
        PreparedLine::new(ContainerLine {
            record: ContainerRecord {
                path: IndexPath::XTx,
                id: Id(sha256(&bytes)),
                bytes,
                timestamp_ns: 1,
            },
            index: None,
        })
    }

    /// [`NoDerive`] with write-behind, so `ingest_limited` takes its write-behind path.
    struct Behind;
    impl Staging for Behind {
        fn seal(&mut self) {}
        fn committed(&mut self) {}
        fn discard(&mut self) {}
    }
    impl Derive for Behind {
        const PATHS: &'static [IndexPath] = &IndexPath::ALL;
        type Prepared = ();
        fn derive(
            &mut self,
            _: &mut WriteBatch,
            _: &Store,
            _: &ContainerRecord,
            _: u64,
            _: &(),
        ) -> Result<(), DeriveError> {
            Ok(())
        }
        fn overlaps_writes(&self) -> bool {
            true
        }
    }

    /// What one container of 1,000 bytes stages (its two index rows), in bytes.
    fn staged_bytes_of_one(store: &Store) -> usize {
        let mut batch = WriteBatch::new();
        let mut writer = IndexWriter::open(store).unwrap();
        writer
            .stage(store, &mut batch, &line(99, 1000).line.record)
            .unwrap();
        batch.size_bytes()
    }

    #[test]
    fn a_batch_is_cut_at_the_byte_budget_after_whole_containers() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir);
        let mut writer = IndexWriter::open(&store).unwrap();
        let one = staged_bytes_of_one(&store);
        assert!(one > 1000, "{one}");
        // A budget of 2.5 containers: the third container crosses it and ends the batch.
        let budget = one * 5 / 2;
        let mut lines = (0..10).map(|i| line(i, 1000));
        let mut batch = WriteBatch::new();
        let added = stage_page(
            &store,
            &mut writer,
            &mut NoDerive,
            &mut batch,
            &mut lines,
            budget,
        )
        .unwrap();
        assert_eq!(added, 3);
        assert_eq!(
            batch.len(),
            6,
            "two rows per container, whole containers only"
        );
        assert_eq!(batch.size_bytes(), 3 * one);
        assert_eq!(lines.count(), 7, "the rest waits for the next batch");
        write_batch(&store, &mut (NoDerive, &mut writer), &mut batch).unwrap();
        assert_eq!(writer.next_index(IndexPath::XTx), 3);
        // A container larger than the budget is a batch of its own.
        let mut big = [line(50, 4 * budget), line(51, 10)].into_iter();
        let added = stage_page(
            &store,
            &mut writer,
            &mut NoDerive,
            &mut batch,
            &mut big,
            budget,
        );
        assert_eq!(added.unwrap(), 1);
        assert_eq!(big.count(), 1);
    }

    #[test]
    fn ingest_writes_batches_bounded_by_bytes_and_by_containers() {
        let one = {
            let dir = tempfile::tempdir().unwrap();
            staged_bytes_of_one(&store(&dir))
        };
        let cases = [
            // (limits, batches written for 10 containers of 1,000 bytes, without and with
            // write-behind: the latter reads pages of `containers` and cuts each by bytes)
            (
                BatchLimits {
                    containers: 1024,
                    bytes: one * 5 / 2,
                },
                [4, 4],
            ),
            (
                BatchLimits {
                    containers: 2,
                    bytes: usize::MAX,
                },
                [5, 5],
            ),
            (
                BatchLimits {
                    containers: 4,
                    bytes: one * 5 / 2,
                },
                [4, 5],
            ),
            (
                BatchLimits {
                    containers: 1024,
                    bytes: 1,
                },
                [10, 10],
            ),
        ];
        for (limits, batches) in cases {
            for (behind, batches) in [false, true].into_iter().zip(batches) {
                let dir = tempfile::tempdir().unwrap();
                let store = store(&dir);
                let mut writer = IndexWriter::open(&store).unwrap();
                let source = (0..10).map(|i| Ok(line(i, 1000)));
                let mut seen = Vec::new();
                let on_batch = |s: &IngestStats| seen.push(s.added);
                let stats = if behind {
                    ingest_limited(&store, &mut writer, source, limits, &mut Behind, on_batch)
                } else {
                    ingest_limited(&store, &mut writer, source, limits, &mut NoDerive, on_batch)
                }
                .unwrap();
                assert_eq!(stats.added, 10, "{limits:?} behind={behind}");
                assert_eq!(stats.batches, batches, "{limits:?} behind={behind}");
                assert_eq!(seen.len(), batches as usize);
                assert_eq!(IndexReader::new(&store, IndexPath::XTx).len().unwrap(), 10);
            }
        }
    }
}
