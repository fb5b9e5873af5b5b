//! The ingest loop shared by every container source: stage whole containers into a batch
//! together with the rows a [`Derive`] hook adds, write the batch atomically with the index's
//! cursor, repeat (the protocol is [`crate::derive`]'s).
//!
//! A hook's store-independent work (decoding and hashing a container) is its [`Prepare`] type, so
//! sources can run it ahead of the single writer thread: the import on its parse threads, the
//! follower while the previous page is written.

use snowline_store::{Store, WriteBatch};
use snowline_types::container::ContainerLine;

use crate::derive::{Derive, Prepare, WriteBehind, drop_batch, write_batch};
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
        let prepared = P::prepare(&line.record);
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

/// Stages a page of lines into `batch` (each container at its stated index, with what
/// `derive` adds); returns the new containers. On an error the batch is left as it is, for
/// the caller to drop.
pub(crate) fn stage_page<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    lines: Vec<PreparedLine<D::Prepared>>,
) -> Result<u64, IndexError> {
    let mut added = 0u64;
    for line in lines {
        if let Staged::New { .. } = stage_line(store, writer, batch, derive, line)? {
            added += 1;
        }
    }
    Ok(added)
}

/// Stages a page and writes it as one batch; returns the new containers. `batch` is empty
/// before and after.
pub(crate) fn write_page<D: Derive>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    lines: Vec<PreparedLine<D::Prepared>>,
) -> Result<u64, IndexError> {
    let staged = stage_page(store, writer, derive, batch, lines);
    let mut parts = (derive, writer);
    match staged {
        Ok(added) if added > 0 => {
            write_batch(store, &mut parts, batch)?;
            Ok(added)
        }
        // Only duplicates: nothing was derived, nothing to write.
        Ok(_) => {
            drop_batch(&mut parts, batch);
            Ok(0)
        }
        Err(e) => {
            drop_batch(&mut parts, batch);
            Err(e)
        }
    }
}

/// Stages `page` while `behind` writes the sealed batch (see [`WriteBehind::overlap`]).
pub(crate) fn overlap_page<D: Derive>(
    behind: &mut WriteBehind,
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    page: Vec<PreparedLine<D::Prepared>>,
) -> Result<u64, IndexError> {
    behind.overlap(store, &mut (derive, writer), batch, |(d, w), b| {
        stage_page(store, w, &mut **d, b, page)
    })
}

/// Reads `source` to its end, writing batches of at most `batch_size` new containers (whole
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
    mut on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<PreparedLine<D::Prepared>, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
    let batch_size = batch_size.max(1);
    if derive.overlaps_writes() {
        return ingest_behind(store, writer, source, batch_size, derive, on_batch);
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
        if in_batch >= batch_size {
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

/// [`ingest_prepared`] with write-behind ([`Derive::overlaps_writes`]): pages of `batch_size`
/// records, each staged while the previous page's batch is written on another thread. A source
/// error first writes the finished batch (it is whole), then drops the page being read, as
/// [`ingest_prepared`] drops its current batch.
fn ingest_behind<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    batch_size: usize,
    derive: &mut D,
    mut on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<PreparedLine<D::Prepared>, IndexError>>,
    D: Derive,
    F: FnMut(&IngestStats),
{
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
        if read > 0 {
            let landed = overlap_page(&mut behind, store, writer, derive, &mut batch, page)?;
            let added = behind.sealed_added();
            stats.added += added;
            stats.duplicates += read as u64 - added;
            if landed > 0 {
                stats.batches += 1;
                on_batch(&stats);
            }
        }
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
