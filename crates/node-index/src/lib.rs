//! The container index a node serves under `/ext/index/{X/tx, X/block, X/vtx, P/block, C/block}`
//! (avalanchego `indexer/index.go`): per path an append-only list of accepted containers,
//! `index -> (id, acceptance time in ns, bytes)` and `id -> index`.
//!
//! - [`tables`]: the two tables, keyed `(path, …)` so each path is one key range;
//! - [`IndexWriter`]: stages containers into a caller's [`WriteBatch`](snowline_store::WriteBatch)
//!   (so derived rows commit in the same atomic batch) and advances only after the write succeeded;
//! - [`IndexReader`]: reads over any [`ReadView`](snowline_store::ReadView) (store or snapshot);
//! - sources: [`import_jsonl`] / [`import_file`] (JSON lines exported from a node), the
//!   [`Follower`] (mirrors an upstream node's index API), [`run_live`] (a live source appended
//!   at a set rate), and the generic [`ingest`] loop.
//!
//! The hooks that derive rows from the containers, and the batch protocol the writer follows with
//! them, are the derive kit (`snowline_derive`), a crate of its own so that a room without
//! containers (EVM, ICM, metrics) derives without depending on this one.
//!
//! See `docs/node-index.md`.

mod error;
mod follower;
mod import;
mod ingest;
mod live;
mod metrics;
mod range_wire;
mod reader;
mod status;
mod store_metrics;
mod tables;
mod writer;

pub use error::IndexError;
pub use follower::{FollowConfig, Follower, PathProgress};
pub use import::{ImportStats, import_file, import_jsonl, validate_jsonl};
pub use ingest::{
    BatchLimits, DEFAULT_BATCH_BYTES, IngestStats, PreparedLine, ingest, ingest_limited,
    ingest_prepared,
};
pub use live::{LiveStats, run_live};
pub use metrics::{FollowMetrics, follow_metrics_text};
pub use range_wire::{RemoteContainer, parse_range_result};
pub use reader::{ContainerIndex, IndexReader, IndexedContainer};
pub use status::{FollowSnapshot, FollowStatus, PathLag};
pub use store_metrics::StoreMetrics;
pub use tables::{ContainerIds, Containers, StoredContainer, path_code, path_from_code, tables};
pub use writer::{IndexWriter, Staged};

/// Most containers one `index.getContainerRange` call returns (avalanchego `MaxFetchedByRange`).
pub const MAX_FETCHED_BY_RANGE: u64 = 1024;
