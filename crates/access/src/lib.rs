//! Who may call the Data API and what they used.
//!
//! - [`keys`]: API keys. A secret (`snl_` + base58 of 32 random bytes) is shown once; only its
//!   SHA-256 is stored, in a small store of its own that the `data-api keys` CLI writes while the
//!   server follows it as a RocksDB secondary. [`keys::ApiKeys::resolve`] turns a presented key into
//!   a [`keys::KeyLookup`] with one point read.
//! - [`usage`]: usage metering. [`usage::UsageWriter`] records [`usage::UsageEvent`]s without ever
//!   blocking the request path; [`usage::UsageLog`] keeps them by time, prunes them and aggregates
//!   them into the Data API's `UsageMetrics` ([`usage::response`]).
//! - [`rpc`]: JSON-RPC usage metering. `node-rpc` records [`rpc::RpcCall`]s with an
//!   [`rpc::RpcMeter`] into a store of its own; the Data API aggregates them
//!   ([`rpc::RpcUsageLog`]) into its two RPC usage metrics.
//!
//! This crate knows nothing of HTTP; the REST edge calls it through small traits of its own that
//! the binary implements with these types. See `docs/access.md`.

mod batch;
mod bytes;
pub mod error;
pub mod keys;
pub mod rpc;
mod side_store;
pub mod usage;

pub use error::{AccessError, Result};
