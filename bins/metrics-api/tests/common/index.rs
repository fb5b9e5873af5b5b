//! The data-api index a metrics test serves: opened with the tables it needs, and filled by
//! indexing an EVM recording (served over JSON-RPC by the recording server) with the hooks the
//! test names.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::{BlockHooks, SyncConfig, sync};
use snowline_evm_devnet::{Recording, serve};
use snowline_store::{Schema, Store, TableSpec};

/// The data-api store in `dir/data-api/index` (its schema version): the EVM and metrics tables,
/// and `more`.
pub fn open(dir: &Path, more: Vec<TableSpec>) -> Arc<Store> {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .chain(more)
        .fold(
            Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
            Schema::with_spec,
        );
    let path = dir.join("data-api/index");
    std::fs::create_dir_all(&path).unwrap();
    Arc::new(Store::open(path, &schema).unwrap())
}

/// Indexes the recording `text` up to block `to` (at most its last) with `hooks`.
pub fn recording(
    rt: &tokio::runtime::Runtime,
    store: &Store,
    text: &str,
    to: u64,
    hooks: BlockHooks,
) {
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let recording = Recording::parse(text).unwrap();
        let to = to.min(recording.head().unwrap());
        tokio::spawn(serve(listener, Arc::new(recording)));
        let source = Arc::new(EvmSource::new(&url, SourceConfig::default()).unwrap());
        let config = SyncConfig {
            poll: Duration::from_millis(5),
            stop_after: Some(to),
            hooks,
            tokens: None,
            ..SyncConfig::default()
        };
        sync(store, &source, &config).await.unwrap();
    });
}

/// A runtime for indexing: two worker threads, as the machines have.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
