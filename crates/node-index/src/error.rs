//! Errors of the container index.

use snowline_derive::DeriveError;
use snowline_store::StoreError;
use snowline_types::Id;
use snowline_types::container::{ContainerError, IndexPath};

/// Why an index operation failed.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A container record is invalid (bad hex, bad id, bad timestamp...).
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// A line of an import file is invalid; `line` is 1-based.
    #[error("line {line}: {source}")]
    Line {
        /// The 1-based line number.
        line: u64,
        /// What is wrong with it.
        source: Box<IndexError>,
    },
    /// Reading the import source failed.
    #[error("reading input: {0}")]
    Io(#[from] std::io::Error),
    /// A record states an index that differs from the one the index gives it.
    #[error("container {id} in {path} is at index {actual} but the source says {stated}")]
    IndexMismatch {
        /// The path.
        path: IndexPath,
        /// The container.
        id: Id,
        /// The index the source stated.
        stated: u64,
        /// The index it has (or would get) here.
        actual: u64,
    },
    /// The upstream node's answer is not what the index API returns.
    #[error("upstream {path}: {message}")]
    Upstream {
        /// The path followed.
        path: IndexPath,
        /// What was wrong.
        message: String,
    },
    /// The upstream node could not be reached or answered an error, after every retry.
    #[error("upstream {path} unavailable after {attempts} attempts: {message}")]
    Unavailable {
        /// The path followed.
        path: IndexPath,
        /// Attempts made.
        attempts: u32,
        /// The last error.
        message: String,
    },
    /// The upstream holds fewer or other containers than the index below the next index (a
    /// node rewound or replaced, another chain): nothing of it is written.
    #[error("upstream diverged: {message}")]
    Diverged {
        /// The path followed.
        path: IndexPath,
        /// What differs.
        message: String,
    },
    /// A live source could not make its next containers.
    #[error("live source: {0}")]
    Source(String),
    /// A derive hook, or the batch protocol it follows, failed.
    #[error(transparent)]
    Derive(#[from] DeriveError),
    /// Stored data contradicts the index's invariants (a corrupt or foreign store).
    #[error("corrupt index: {0}")]
    Corrupt(String),
}
