//! The ingest loop shared by every source: stage whole containers into a batch together with the
//! rows a [`Derive`] hook adds, write the batch atomically, repeat.

use snowline_store::{Store, WriteBatch};
use snowline_types::container::{ContainerLine, ContainerRecord};

use crate::error::IndexError;
use crate::writer::{IndexWriter, Staged};

/// Rows derived from each new container (an X-Chain indexer's tx, UTXO and address rows), written
/// in the same atomic batch as the container itself.
pub trait Derive {
    /// Adds the rows derived from `record` (now at `index` in its path) to `batch`. `view` is the
    /// store as committed before this batch; earlier containers of the same batch are not visible
    /// there, so a hook that needs them keeps its own pending state until
    /// [`Derive::committed`].
    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
    ) -> Result<(), IndexError>;

    /// The batch holding everything derived since the last call was written.
    fn committed(&mut self) {}

    /// The batch was dropped (an error): forget pending state.
    fn discard(&mut self) {}
}

/// A [`Derive`] that adds nothing: the container index alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoDerive;

impl Derive for NoDerive {
    fn derive(
        &mut self,
        _batch: &mut WriteBatch,
        _view: &Store,
        _record: &ContainerRecord,
        _index: u64,
    ) -> Result<(), IndexError> {
        Ok(())
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

/// Reads `source` to its end, writing batches of at most `batch_size` new containers (whole
/// containers with everything `derive` adds, atomically) and calling `on_batch` after each write.
/// A record with a stated index must get (or already have) exactly that index. On a source
/// error the current batch is dropped and the error returned; batches written before stay (each
/// is whole, so the index is always a consistent prefix and a rerun resumes).
pub fn ingest<I, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    source: I,
    batch_size: usize,
    derive: &mut D,
    mut on_batch: F,
) -> Result<IngestStats, IndexError>
where
    I: IntoIterator<Item = Result<ContainerLine, IndexError>>,
    D: Derive + ?Sized,
    F: FnMut(&IngestStats),
{
    let batch_size = batch_size.max(1);
    let mut stats = IngestStats::default();
    let mut batch = WriteBatch::new();
    let mut in_batch = 0usize;
    for item in source {
        let staged = item.and_then(|line| {
            stats.read += 1;
            let staged = match line.index {
                Some(stated) => writer.stage_expecting(store, &mut batch, &line.record, stated)?,
                None => writer.stage(store, &mut batch, &line.record)?,
            };
            if let Staged::New { index } = staged {
                derive.derive(&mut batch, store, &line.record, index)?;
            }
            Ok(staged)
        });
        match staged {
            Ok(Staged::New { .. }) => {
                stats.added += 1;
                in_batch += 1;
            }
            Ok(Staged::Duplicate { .. }) => stats.duplicates += 1,
            Err(e) => {
                writer.discard();
                derive.discard();
                return Err(e);
            }
        }
        if in_batch >= batch_size {
            flush(store, writer, derive, &mut batch, &mut stats)?;
            in_batch = 0;
            on_batch(&stats);
        }
    }
    if in_batch > 0 {
        flush(store, writer, derive, &mut batch, &mut stats)?;
        on_batch(&stats);
    }
    Ok(stats)
}

fn flush<D: Derive + ?Sized>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    stats: &mut IngestStats,
) -> Result<(), IndexError> {
    let full = std::mem::take(batch);
    match writer.write(store, full) {
        Ok(()) => {
            derive.committed();
            stats.batches += 1;
            Ok(())
        }
        Err(e) => {
            derive.discard();
            Err(e)
        }
    }
}
