//! What the ICM room's tests share: a store with the EVM and ICM tables, and indexing a recording
//! through the replay server with the ICM hook.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::{SyncConfig, sync};
use snowline_chain_icm::IcmDeriver;
use snowline_evm_devnet::spawn_replay;
use snowline_store::{Schema, Store};
use snowline_types::evm::B256;

/// A store in `dir` with the EVM and ICM tables.
pub fn open(dir: &std::path::Path) -> Arc<Store> {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_icm::tables())
        .fold(Schema::new(1), Schema::with_spec);
    Arc::new(Store::open(dir, &schema).unwrap())
}

/// Indexes the recording `text` served by a replay server, `per_batch` blocks a batch, with the
/// ICM hook given `ids`, up to block `until` (the tip when `None`): a process that stops there.
pub async fn index_text(
    store: &Store,
    text: &str,
    per_batch: usize,
    ids: &BTreeMap<u64, B256>,
    until: Option<u64>,
) {
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
        stop_after: Some(until.unwrap_or(replay.head).min(replay.head)),
        hooks: IcmDeriver::hooks(ids.clone()),
        tokens: None,
        ..SyncConfig::default()
    };
    sync(store, &source, &sync_config).await.unwrap();
}
