//! [`DeriveBoth`]: two [`Derive`] hooks run by one ingest, their rows in the same batch (e.g. the
//! node-rpc state and the Data API history from one pass over the containers).
//!
//! A `(A, B)` tuple cannot implement the foreign `Derive` trait here (Rust's orphan rule), so the
//! pair is a small local struct.

use snowline_node_index::{Derive, IndexError};
use snowline_store::{Store, WriteBatch};
use snowline_types::container::ContainerRecord;

/// Runs `A` then `B` on every container; both see the same batch and the same prepared
/// container (prepared once: the two hooks must take the same [`Prepare`](snowline_node_index::Prepare)
/// type), and both are told when it was written or dropped (a failure of either drops the batch
/// for both).
#[derive(Debug, Default)]
pub struct DeriveBoth<A, B>(pub A, pub B);

impl<A: Derive, B: Derive<Prepared = A::Prepared>> Derive for DeriveBoth<A, B> {
    type Prepared = A::Prepared;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
        prepared: &A::Prepared,
    ) -> Result<(), IndexError> {
        self.0.derive(batch, view, record, index, prepared)?;
        self.1.derive(batch, view, record, index, prepared)
    }

    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), IndexError> {
        self.0.finish(batch, view)?;
        self.1.finish(batch, view)
    }

    fn committed(&mut self) {
        self.0.committed();
        self.1.committed();
    }

    fn discard(&mut self) {
        self.0.discard();
        self.1.discard();
    }

    fn overlaps_writes(&self) -> bool {
        self.0.overlaps_writes() && self.1.overlaps_writes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use snowline_store::Schema;
    use snowline_types::Id;
    use snowline_types::container::IndexPath;

    /// Records the calls it gets; fails `derive` when told to.
    #[derive(Default)]
    struct Probe {
        fail: bool,
        derived: u32,
        committed: u32,
        discarded: u32,
    }

    impl Derive for Probe {
        type Prepared = ();

        fn derive(
            &mut self,
            _batch: &mut WriteBatch,
            _view: &Store,
            _record: &ContainerRecord,
            _index: u64,
            _prepared: &(),
        ) -> Result<(), IndexError> {
            self.derived += 1;
            if self.fail {
                Err(IndexError::Derive("probe".into()))
            } else {
                Ok(())
            }
        }
        fn committed(&mut self) {
            self.committed += 1;
        }
        fn discard(&mut self) {
            self.discarded += 1;
        }
    }

    #[test]
    fn both_hooks_run_in_order_and_hear_of_the_batch() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &Schema::new(1)).unwrap();
        let record = ContainerRecord {
            path: IndexPath::XTx,
            id: Id::EMPTY,
            bytes: Vec::new(),
            timestamp_ns: 0,
        };
        let mut batch = WriteBatch::new();
        let mut both = DeriveBoth(Probe::default(), Probe::default());
        both.derive(&mut batch, &store, &record, 0, &()).unwrap();
        both.committed();
        assert_eq!((both.0.derived, both.1.derived), (1, 1));
        assert_eq!((both.0.committed, both.1.committed), (1, 1));

        // A failing first hook stops the second and fails the pair; a discard reaches both.
        both.0.fail = true;
        assert!(both.derive(&mut batch, &store, &record, 1, &()).is_err());
        assert_eq!((both.0.derived, both.1.derived), (2, 1));
        both.discard();
        assert_eq!((both.0.discarded, both.1.discarded), (1, 1));
    }
}
