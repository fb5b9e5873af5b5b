//! [`DeriveBoth`]: two [`Derive`] hooks run by one ingest, their rows in the same batch (e.g. the
//! node-rpc state and the Data API history from one pass over the containers).
//!
//! A `(A, B)` tuple cannot implement the foreign `Derive` trait here (Rust's orphan rule), so the
//! pair is a small local struct.

use snowline_node_index::{Derive, IndexError};
use snowline_store::{Store, WriteBatch};
use snowline_types::container::ContainerRecord;

/// Runs `A` then `B` on every container; both see the same batch, and both are told when it was
/// written or dropped (a failure of either drops the batch for both).
#[derive(Debug, Default)]
pub struct DeriveBoth<A, B>(pub A, pub B);

impl<A: Derive, B: Derive> Derive for DeriveBoth<A, B> {
    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        index: u64,
    ) -> Result<(), IndexError> {
        self.0.derive(batch, view, record, index)?;
        self.1.derive(batch, view, record, index)
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
