//! The one error type of this crate.

use snowline_store::StoreError;

/// Everything that can go wrong managing keys or usage records.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AccessError {
    /// The underlying store failed (I/O, schema, decoding).
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No key has this id.
    #[error("no API key with id {0:?}")]
    UnknownKey(String),
    /// A key id is not 16 lowercase hex characters.
    #[error("invalid API key id {0:?}: expected 16 hex characters")]
    InvalidKeyId(String),
    /// A tier name is not one of the tiers (or not allowed where it was given).
    #[error("invalid tier {given:?}: expected one of {allowed}")]
    InvalidTier {
        /// The name given.
        given: String,
        /// The names accepted there, comma-separated.
        allowed: String,
    },
    /// A key's name or organisation id is empty or too long.
    #[error("invalid {field} {value:?}: must be 1 to {max} bytes")]
    InvalidField {
        /// Which field (`name`, `org_id`).
        field: &'static str,
        /// The value given.
        value: String,
        /// The longest accepted, in bytes.
        max: usize,
    },
    /// The operating system's random source failed while creating a secret.
    #[error("random source failed: {0}")]
    Random(String),
    /// A usage query's range ends before it starts.
    #[error("invalid time range: start {start_ms} ms is after end {end_ms} ms")]
    InvalidRange {
        /// Start, ms since the epoch (inclusive).
        start_ms: u64,
        /// End, ms since the epoch (exclusive).
        end_ms: u64,
    },
    /// A usage query parameter has a value outside its domain.
    #[error("invalid {name} {value:?}: {reason}")]
    InvalidParameter {
        /// The parameter (`responseCode`, `timeInterval`, `groupBy`, ...).
        name: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        reason: String,
    },
    /// A background thread could not be started.
    #[error("could not start a thread: {0}")]
    Thread(String),
    /// The usage writer's background thread has stopped (after shutdown, or it panicked).
    #[error("the usage writer has stopped")]
    WriterStopped,
}

/// The result type of this crate.
pub type Result<T, E = AccessError> = std::result::Result<T, E>;
