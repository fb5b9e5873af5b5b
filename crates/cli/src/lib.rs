//! What Snowline's binaries (`node-rpc`, `data-api`, `metrics-api`) share, so each stays thin
//! wiring: the common flags, opening the store for a schema, the async runtime and logging,
//! importing a file of containers with progress shown, a store's digest, glibc's malloc bounded
//! for RocksDB, waiting at start for what is not there yet, and the `--config` file.

mod config;
mod digest;
mod flags;
mod import;
mod malloc;
mod open;
mod wait;

pub use config::{CONFIG_ENV, ConfigArg, Failure, parse_from, parse_with_config};
pub use digest::print_digest;
pub use flags::{
    DevnetSeed, GenesisSource, HeadLimit, ImportBatch, LookingGlassArgs, NetworkArg, UpstreamBatch,
    UpstreamCalls,
};
pub use import::{ImportProgress, import_with_progress};
pub use malloc::{MALLOC_SETTINGS, bound_glibc_malloc};
pub use open::{init_logging, open_store, runtime};
pub use wait::{Backoff, Waiting, host_port, wait_for_upstream};

/// The schema version of the data-api store (`DATA_DIR/index`): `data-api` writes it, and
/// `metrics-api` opens it as a RocksDB secondary, so both name it from here. The history of its
/// changes is at `bins/data-api/src/ingest.rs`.
pub const DATA_API_SCHEMA_VERSION: u32 = 20;
