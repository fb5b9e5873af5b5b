//! What the metrics room's recording tests share: a store with the EVM and metrics tables, and
//! indexing a recording's text through the replay server with the metrics hook.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::{SyncConfig, sync};
use snowline_chain_metrics::ChainMetrics;
use snowline_evm_devnet::spawn_replay;
use snowline_store::{Schema, Store};

/// A store in `dir` with the EVM and metrics tables.
pub fn open(dir: &std::path::Path) -> Arc<Store> {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .fold(Schema::new(1), Schema::with_spec);
    Arc::new(Store::open(dir, &schema).unwrap())
}

/// Indexes `text` (a recording) with the metrics hook, `per_batch` blocks a batch, up to its
/// recorded head.
pub async fn index(store: &Store, text: &str, per_batch: usize) {
    let replay = spawn_replay(text).await.unwrap();
    let config = SourceConfig {
        blocks_per_batch: per_batch,
        in_flight: 2,
        retry_initial: Duration::from_millis(1),
        retry_max: Duration::from_millis(2),
        max_attempts: 2,
        call_timeout: Duration::from_secs(30),
    };
    let source = Arc::new(EvmSource::new(&replay.url, config).unwrap());
    let sync_config = SyncConfig {
        poll: Duration::from_millis(5),
        stop_after: Some(replay.head),
        hooks: ChainMetrics::hooks(),
        tokens: None,
        ..SyncConfig::default()
    };
    sync(store, &source, &sync_config).await.unwrap();
}
