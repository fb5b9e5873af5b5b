//! Errors of the derive kit and of the hooks built on it.

use snowline_store::StoreError;

/// Why deriving or writing a batch failed.
#[derive(Debug, thiserror::Error)]
pub enum DeriveError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A hook could not derive (or prepare) a container: its bytes or the state it meets
    /// contradict the chain's rules.
    #[error("derive: {0}")]
    Derive(String),
    /// Stored data or the batch machinery contradicts the kit's invariants (a corrupt or foreign
    /// store, a writer thread that panicked).
    #[error("corrupt index: {0}")]
    Corrupt(String),
}
