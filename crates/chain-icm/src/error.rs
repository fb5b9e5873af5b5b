//! Errors of the ICM reads.

use snowline_store::StoreError;

/// Why reading the ICM tables failed (our fault).
#[derive(Debug, thiserror::Error)]
pub enum IcmError {
    /// The store failed.
    #[error(transparent)]
    Read(#[from] StoreError),
    /// A stored row does not decode.
    #[error("corrupt ICM row: {0}")]
    Corrupt(String),
}

impl snowline_store::ReadFailure for IcmError {}
