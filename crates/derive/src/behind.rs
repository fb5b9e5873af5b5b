//! Write-behind: a sealed batch is written on a scoped thread while the next page is staged, so
//! the store's sort, copy and memtable inserts leave the deriving thread's path. Each batch stays
//! whole and atomic with its cursor; a batch is sealed only after the previous one is written,
//! and a failed write drops everything staged on top of it. Used by parts whose derivers keep
//! the sealed batch readable until it lands ([`Derive::overlaps_writes`](crate::Derive)).

use snowline_store::{Store, WriteBatch};

use crate::error::DeriveError;
use crate::staging::{Staging, drop_batch, seal_batch, settle};

/// At most one sealed batch waiting to be written, and an emptied batch to stage into next.
#[derive(Default)]
pub struct WriteBehind {
    /// The sealed batch not yet written, and what it adds (the caller's count, e.g. containers).
    sealed: Option<(WriteBatch, u64)>,
    /// An emptied batch, to stage the page after next into (keeps its allocation).
    spare: WriteBatch,
}

impl WriteBehind {
    /// What the sealed batch not yet written adds.
    pub fn sealed_added(&self) -> u64 {
        self.sealed.as_ref().map_or(0, |(_, n)| *n)
    }

    /// Writes the sealed batch while `stage` stages the next page into `batch` (returning what
    /// it adds), then seals `batch` and keeps it to write with the next page. Returns what the
    /// written batch added (0 when none was waiting). A page that adds nothing is dropped, not
    /// kept. On any error, what was staged is dropped and `parts` told so. Staging may fail with
    /// the caller's own error `E`, which the kit's errors convert into.
    pub fn overlap<S: Staging, E: From<DeriveError>>(
        &mut self,
        store: &Store,
        parts: &mut S,
        batch: &mut WriteBatch,
        stage: impl FnOnce(&mut S, &mut WriteBatch) -> Result<u64, E>,
    ) -> Result<u64, E> {
        let sealed = self.sealed.take();
        let (staged, written) = std::thread::scope(|s| {
            let write = sealed
                .as_ref()
                .map(|(b, _)| s.spawn(move || store.write(b)));
            let staged = stage(parts, batch);
            (staged, write.map(|w| w.join()))
        });
        // The written batch first: what was staged builds on it.
        let mut landed = 0;
        if let (Some((mut done, added)), Some(written)) = (sealed, written) {
            let Ok(written) = written else {
                drop_batch(parts, batch);
                return Err(DeriveError::Corrupt("the batch writer thread panicked".into()).into());
            };
            if let Err(e) = settle(written, parts) {
                batch.clear();
                return Err(DeriveError::from(e).into());
            }
            done.clear();
            self.spare = done;
            landed = added;
        }
        let added = match staged {
            Ok(added) => added,
            Err(e) => {
                drop_batch(parts, batch);
                return Err(e);
            }
        };
        if added == 0 {
            // Nothing new (only duplicates): nothing was derived, nothing to write.
            drop_batch(parts, batch);
            return Ok(landed);
        }
        seal_batch(store, parts, batch).map_err(E::from)?;
        let next = std::mem::take(&mut self.spare);
        self.sealed = Some((std::mem::replace(batch, next), added));
        Ok(landed)
    }

    /// Writes the sealed batch, if any; returns what it added.
    pub fn land(self, store: &Store, parts: &mut impl Staging) -> Result<u64, DeriveError> {
        let Some((batch, added)) = self.sealed else {
            return Ok(0);
        };
        settle(store.write(&batch), parts)?;
        Ok(added)
    }
}
