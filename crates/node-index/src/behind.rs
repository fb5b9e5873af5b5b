//! Write-behind: a finished batch is written on a scoped thread while the next page is staged,
//! for the follower and the import alike (hooks whose [`Derive::overlaps_writes`] is true).

use snowline_store::{Store, WriteBatch};

use crate::error::IndexError;
use crate::ingest::{Derive, PreparedLine, drop_batch, settle, stage_line, write_batch};
use crate::writer::{IndexWriter, Staged};

/// Stages a page of lines into `batch` (each container at its stated index, with what
/// `derive` adds); returns the new containers. On an error the batch is left as it is, for
/// the caller to drop.
pub(crate) fn stage_page<D: Derive + ?Sized>(
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
pub(crate) fn write_page<D: Derive + ?Sized>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    batch: &mut WriteBatch,
    lines: Vec<PreparedLine<D::Prepared>>,
) -> Result<u64, IndexError> {
    let added = match stage_page(store, writer, derive, batch, lines) {
        Ok(added) => added,
        Err(e) => {
            drop_batch(writer, derive, batch);
            return Err(e);
        }
    };
    if added > 0 {
        write_batch(store, writer, derive, batch)?;
    } else {
        // Only duplicates: nothing was derived, nothing to write.
        drop_batch(writer, derive, batch);
    }
    Ok(added)
}

/// Write-behind (for hooks whose [`Derive::overlaps_writes`] is true): page
/// *n*'s finished batch is written on a scoped thread while page *n+1* is staged on this one,
/// so the store's sort, copy and memtable inserts leave the derive thread's path. Each batch
/// stays whole and atomic with its cursor; a batch is finished only after the previous one is
/// written, and a failed write drops everything staged on top of it.
#[derive(Default)]
pub(crate) struct WriteBehind {
    /// The finished batch not yet written, and its new containers.
    sealed: Option<(WriteBatch, u64)>,
    /// An emptied batch, to stage the page after next into (keeps its allocation).
    spare: WriteBatch,
}

impl WriteBehind {
    /// New containers in the finished batch not yet written.
    pub(crate) fn sealed_added(&self) -> u64 {
        self.sealed.as_ref().map_or(0, |(_, n)| *n)
    }

    /// Writes the finished batch while staging `lines` into `batch`, then finishes `batch`
    /// and keeps it to write with the next page. Returns the containers the written batch
    /// added (0 when none was waiting). A page of duplicates only is dropped, not kept.
    pub(crate) fn overlap<D: Derive + ?Sized>(
        &mut self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        batch: &mut WriteBatch,
        lines: Vec<PreparedLine<D::Prepared>>,
    ) -> Result<u64, IndexError> {
        let sealed = self.sealed.take();
        let (staged, written) = std::thread::scope(|s| {
            let write = sealed
                .as_ref()
                .map(|(b, _)| s.spawn(move || store.write(b)));
            let staged = stage_page(store, writer, derive, batch, lines);
            (staged, write.map(|w| w.join()))
        });
        // The written batch first: what was staged builds on it.
        let mut landed = 0;
        if let (Some((mut done, added)), Some(written)) = (sealed, written) {
            let Ok(written) = written else {
                drop_batch(writer, derive, batch);
                return Err(IndexError::Corrupt(
                    "the batch writer thread panicked".into(),
                ));
            };
            if let Err(e) = settle(written, writer, derive) {
                batch.clear();
                return Err(e);
            }
            done.clear();
            self.spare = done;
            landed = added;
        }
        let added = match staged {
            Ok(added) => added,
            Err(e) => {
                drop_batch(writer, derive, batch);
                return Err(e);
            }
        };
        if added == 0 {
            // Only duplicates: nothing was derived, nothing to write.
            drop_batch(writer, derive, batch);
            return Ok(landed);
        }
        if let Err(e) = derive.finish(batch, store) {
            drop_batch(writer, derive, batch);
            return Err(e);
        }
        writer.seal();
        let next = std::mem::take(&mut self.spare);
        self.sealed = Some((std::mem::replace(batch, next), added));
        Ok(landed)
    }

    /// Writes the finished batch, if any; returns the containers it added.
    pub(crate) fn land<D: Derive + ?Sized>(
        self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
    ) -> Result<u64, IndexError> {
        let Some((batch, added)) = self.sealed else {
            return Ok(0);
        };
        settle(store.write(&batch), writer, derive).map(|()| added)
    }
}
