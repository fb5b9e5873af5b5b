//! The batch protocol every source and every deriver follows: rows are *staged* into a batch,
//! the complete batch is *finished* (held-back rows added) and *sealed*, then *written* in one
//! atomic write together with the cursor that follows it, and each part is told how the write
//! *settled*: committed, or discarded with everything staged after it.

use snowline_store::{Store, StoreError, WriteBatch};

use crate::error::DeriveError;

/// What keeps state about batches not yet written: a cursor (the next index of each path), a
/// deriver's overlays. The protocol calls [`Staging::finish`] and [`Staging::seal`] once the
/// staged batch is complete, then [`Staging::committed`] or [`Staging::discard`].
pub trait Staging {
    /// The staged batch is complete: add to it the rows held back until now (e.g. the final
    /// value of a row many of its containers changed, written once).
    fn finish(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
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

/// What stages as its parts: a deriver that lists its overlays and unwritten rows once
/// ([`StagingParts::parts`]) and gets its [`Staging`] from the blanket implementation, which
/// drives the parts in order and then the deriver's own steps (a cursor, a flag), each empty
/// unless the deriver has one.
pub trait StagingParts {
    /// The parts, driven together in order (an array of `&mut dyn Staging`, a pair...).
    fn parts(&mut self) -> impl Staging + '_;

    /// After the parts finished: the deriver's own held-back rows.
    fn finish_own(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
        Ok(())
    }

    /// After the parts were sealed.
    fn seal_own(&mut self) {}

    /// After the parts heard that the sealed batch was written.
    fn committed_own(&mut self) {}

    /// After the parts forgot the batches not written.
    fn discard_own(&mut self) {}
}

/// The one forwarding of the batch protocol to a deriver's parts.
impl<T: StagingParts> Staging for T {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
        self.parts().finish(batch, view)?;
        self.finish_own(batch, view)
    }
    fn seal(&mut self) {
        self.parts().seal();
        self.seal_own();
    }
    fn committed(&mut self) {
        self.parts().committed();
        self.committed_own();
    }
    fn discard(&mut self) {
        self.parts().discard();
        self.discard_own();
    }
}

/// A borrowed part stages as what it borrows (so a pair of borrows is a part too).
impl<T: Staging + ?Sized> StagingParts for &mut T {
    fn parts(&mut self) -> impl Staging + '_ {
        Borrowed(&mut **self)
    }
}

/// What a `&mut T` stages through: `T`'s own steps.
struct Borrowed<'a, T: ?Sized>(&'a mut T);

impl<T: Staging + ?Sized> Staging for Borrowed<'_, T> {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
        self.0.finish(batch, view)
    }
    fn seal(&mut self) {
        self.0.seal();
    }
    fn committed(&mut self) {
        self.0.committed();
    }
    fn discard(&mut self) {
        self.0.discard();
    }
}

/// Two parts of one batch (a deriver and the cursor, or two derivers): the first finishes first.
impl<A: Staging, B: Staging> Staging for (A, B) {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
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
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
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
) -> Result<(), DeriveError> {
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
) -> Result<(), DeriveError> {
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
        fn finish(&mut self, _batch: &mut WriteBatch, _view: &Store) -> Result<(), DeriveError> {
            self.log.borrow_mut().extend([self.name, 'f']);
            if self.fail_finish {
                return Err(DeriveError::Derive("probe".into()));
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

    /// Two probes as parts, and its own steps logged as `o`.
    struct Deriver<'a> {
        a: Probe<'a>,
        b: Probe<'a>,
        fail_own: bool,
    }

    impl StagingParts for Deriver<'_> {
        fn parts(&mut self) -> impl Staging + '_ {
            [&mut self.a as &mut dyn Staging, &mut self.b]
        }
        fn finish_own(
            &mut self,
            _batch: &mut WriteBatch,
            _view: &Store,
        ) -> Result<(), DeriveError> {
            self.a.log.borrow_mut().push_str("of");
            if self.fail_own {
                return Err(DeriveError::Derive("own".into()));
            }
            Ok(())
        }
        fn seal_own(&mut self) {
            self.a.log.borrow_mut().push_str("os");
        }
        fn committed_own(&mut self) {
            self.a.log.borrow_mut().push_str("oc");
        }
        fn discard_own(&mut self) {
            self.a.log.borrow_mut().push_str("od");
        }
    }

    #[test]
    fn a_deriver_of_parts_drives_them_in_order_then_its_own_steps() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Schema::new(1)).unwrap();
        let log = std::cell::RefCell::new(String::new());
        let deriver = |fail_a, fail_own| Deriver {
            a: Probe {
                name: 'a',
                fail_finish: fail_a,
                log: &log,
            },
            b: Probe {
                name: 'b',
                fail_finish: false,
                log: &log,
            },
            fail_own,
        };
        let mut batch = WriteBatch::new();
        write_batch(&store, &mut deriver(false, false), &mut batch).unwrap();
        assert_eq!(log.take(), "afbfofasbsosacbcoc");

        // A part's failure stops the rest of the finish, its own steps included.
        assert!(write_batch(&store, &mut deriver(true, false), &mut batch).is_err());
        assert_eq!(log.take(), "afadbdod");
        assert!(write_batch(&store, &mut deriver(false, true), &mut batch).is_err());
        assert_eq!(log.take(), "afbfofadbdod");

        // Borrowed, and paired with a borrowed cursor, it stages the same.
        let (mut d, mut cursor) = (deriver(false, false), deriver(false, false));
        write_batch(&store, &mut (&mut d, &mut cursor), &mut batch).unwrap();
        assert_eq!(log.take(), "afbfofafbfofasbsosasbsosacbcocacbcoc");
    }
}
