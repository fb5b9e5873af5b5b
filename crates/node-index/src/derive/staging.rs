//! The batch protocol every source and every deriver follows: rows are *staged* into a batch,
//! the complete batch is *finished* (held-back rows added) and *sealed*, then *written* in one
//! atomic write together with the cursor that follows it, and each part is told how the write
//! *settled*: committed, or discarded with everything staged after it.

use snowline_store::{Store, StoreError, WriteBatch};

use crate::error::IndexError;

/// What keeps state about batches not yet written: a cursor (the next index of each path), a
/// deriver's overlays. The protocol calls [`Staging::finish`] and [`Staging::seal`] once the
/// staged batch is complete, then [`Staging::committed`] or [`Staging::discard`].
pub trait Staging {
    /// The staged batch is complete: add to it the rows held back until now (e.g. the final
    /// value of a row many of its containers changed, written once).
    fn finish(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), IndexError> {
        Ok(())
    }

    /// The staged batch goes to the store: what is staged from now on belongs to the next one.
    fn seal(&mut self);

    /// The sealed batch was written.
    fn committed(&mut self);

    /// The batches not written (the staged one, and the sealed one if its write failed) were
    /// dropped: forget what they held.
    fn discard(&mut self);
}

impl<T: Staging + ?Sized> Staging for &mut T {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), IndexError> {
        (**self).finish(batch, view)
    }
    fn seal(&mut self) {
        (**self).seal();
    }
    fn committed(&mut self) {
        (**self).committed();
    }
    fn discard(&mut self) {
        (**self).discard();
    }
}

/// Two parts of one batch (a deriver and the cursor, or two derivers): the first finishes first.
impl<A: Staging, B: Staging> Staging for (A, B) {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), IndexError> {
        self.0.finish(batch, view)?;
        self.1.finish(batch, view)
    }
    fn seal(&mut self) {
        self.0.seal();
        self.1.seal();
    }
    fn committed(&mut self) {
        self.0.committed();
        self.1.committed();
    }
    fn discard(&mut self) {
        self.0.discard();
        self.1.discard();
    }
}

/// A deriver's generations of unwritten rows, driven together in the array's order (a deriver
/// lists its parts once and forwards each step to the list).
impl<const N: usize> Staging for [&mut dyn Staging; N] {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), IndexError> {
        self.iter_mut()
            .try_for_each(|part| part.finish(batch, view))
    }
    fn seal(&mut self) {
        self.iter_mut().for_each(|part| part.seal());
    }
    fn committed(&mut self) {
        self.iter_mut().for_each(|part| part.committed());
    }
    fn discard(&mut self) {
        self.iter_mut().for_each(|part| part.discard());
    }
}

/// Drops what `batch` staged: empties it and tells `parts` to forget it.
pub fn drop_batch(parts: &mut impl Staging, batch: &mut WriteBatch) {
    batch.clear();
    parts.discard();
}

/// Finishes and seals the staged batch; on a failure to finish it is dropped.
pub fn seal_batch(
    store: &Store,
    parts: &mut impl Staging,
    batch: &mut WriteBatch,
) -> Result<(), IndexError> {
    if let Err(e) = parts.finish(batch, store) {
        drop_batch(parts, batch);
        return Err(e);
    }
    parts.seal();
    Ok(())
}

/// Finishes, seals and writes `batch` (then empties it, keeping its allocation), and tells
/// `parts` whether it landed.
pub fn write_batch(
    store: &Store,
    parts: &mut impl Staging,
    batch: &mut WriteBatch,
) -> Result<(), IndexError> {
    seal_batch(store, parts, batch)?;
    let written = store.write(&*batch);
    batch.clear();
    Ok(settle(written, parts)?)
}

/// Tells `parts` how the write of the sealed batch ended: on success it is committed; on
/// failure everything not written (it, and anything staged after it) is dropped.
pub fn settle(written: Result<(), StoreError>, parts: &mut impl Staging) -> Result<(), StoreError> {
    match written {
        Ok(()) => parts.committed(),
        Err(_) => parts.discard(),
    }
    written
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use snowline_store::Schema;

    /// Records the calls it gets, in order, into a shared log; fails `finish` when told to.
    struct Probe<'a> {
        name: char,
        fail_finish: bool,
        log: &'a std::cell::RefCell<String>,
    }

    impl Staging for Probe<'_> {
        fn finish(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), IndexError> {
            self.log.borrow_mut().extend([self.name, 'f']);
            if self.fail_finish {
                return Err(IndexError::Derive("probe".into()));
            }
            Ok(())
        }
        fn seal(&mut self) {
            self.log.borrow_mut().extend([self.name, 's']);
        }
        fn committed(&mut self) {
            self.log.borrow_mut().extend([self.name, 'c']);
        }
        fn discard(&mut self) {
            self.log.borrow_mut().extend([self.name, 'd']);
        }
    }

    #[test]
    fn a_pair_finishes_in_order_and_hears_how_the_write_settled() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Schema::new(1)).unwrap();
        let log = std::cell::RefCell::new(String::new());
        let probe = |name, fail_finish| Probe {
            name,
            fail_finish,
            log: &log,
        };
        let mut batch = WriteBatch::new();
        write_batch(
            &store,
            &mut (probe('a', false), probe('b', false)),
            &mut batch,
        )
        .unwrap();
        assert_eq!(log.take(), "afbfasbsacbc");

        // A failing first part stops the second one's finish and drops the batch for both.
        let failed = write_batch(
            &store,
            &mut (probe('a', true), probe('b', false)),
            &mut batch,
        );
        assert!(failed.is_err());
        assert_eq!(log.take(), "afadbd");

        settle(
            Err(StoreError::ReadOnly),
            &mut (probe('a', false), probe('b', false)),
        )
        .unwrap_err();
        assert_eq!(log.take(), "adbd");
    }
}
