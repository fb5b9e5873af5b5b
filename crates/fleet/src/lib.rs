//! A fleet of Snowline nodes over NATS JetStream (`docs/fleet.md`): one primary ingests and
//! publishes every batch its store commits; read replicas on other machines apply them strictly
//! in sequence, each atomically with their position, and serve every read from their own store.
//!
//! The store's journal (`snowline_store::journal`) gives the batches and applies them; this
//! crate carries them: [`publish`] (the primary's outbox to the stream, the sequence as the
//! message id), [`replicate`] (the stream to a replica's store, through the [`Applier`]'s rule),
//! and what both report ([`FleetStatus`], [`FleetMetrics`]); the state every node shares beside
//! the batches ([`Bucket`], [`watch_bucket`], [`SharedLog`], [`shared_secret`]); and checkpoints
//! of a node's index in the fleet's object store ([`publish_checkpoint`],
//! [`fetch_checkpoint`]). It never sees RocksDB.

mod apply;
mod checkpoints;
mod metrics;
mod nats;
mod publisher;
mod replica;
mod shared;
mod status;
pub mod wire;

pub use apply::{Applier, BatchSink, Outcome};
pub use checkpoints::{
    CheckpointAt, CheckpointFile, Manifest, checkpoint_bucket, fetch_checkpoint, list_checkpoints,
    publish_checkpoint,
};
pub use metrics::FleetMetrics;
pub use nats::FleetConfig;
pub use publisher::publish;
pub use replica::replicate;
pub use shared::{
    Bucket, FLEET_BUCKET, KEYS_BUCKET, Outgoing, SharedLog, USAGE_LOG, shared_secret, watch_bucket,
};
pub use status::{FleetSnapshot, FleetStatus, Role};
