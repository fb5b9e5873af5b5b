//! A data-api index holding the EVM recordings (43112 moved in time across days, weeks and a
//! month; 99999 as recorded), built with the metrics hook as data-api builds it, and the binary
//! started over it.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use snowline_chain_evm::source::{EvmSource, SourceConfig};
use snowline_chain_evm::{SyncConfig, sync};
use snowline_chain_metrics::ChainMetrics;
use snowline_evm_devnet::metrics_model::{Expected, SPREAD_GAPS, retime};
use snowline_evm_devnet::{Recording, recording_path, serve};
use snowline_store::{Schema, Store};

use super::MetricsApi;

/// The recordings' text: 43112 spread over a month, 99999 as recorded.
pub fn text(chain: u64) -> String {
    let raw = std::fs::read_to_string(recording_path(chain)).unwrap();
    if chain == 43112 {
        retime(&raw, 1_700_000_000, &SPREAD_GAPS)
    } else {
        raw
    }
}

/// The data-api store (its schema version; the EVM and metrics tables) in `dir/data-api/index`.
pub fn open_index(dir: &Path) -> Arc<Store> {
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .fold(
            Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
            Schema::with_spec,
        );
    let path = dir.join("data-api/index");
    std::fs::create_dir_all(&path).unwrap();
    Arc::new(Store::open(path, &schema).unwrap())
}

/// Indexes `chain`'s recording up to block `to` (at most its last) with the metrics hook.
pub fn index(rt: &tokio::runtime::Runtime, store: &Store, chain: u64, to: u64) {
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let recording = Recording::parse(&text(chain)).unwrap();
        let to = to.min(recording.head().unwrap());
        tokio::spawn(serve(listener, Arc::new(recording)));
        let source = Arc::new(EvmSource::new(&url, SourceConfig::default()).unwrap());
        let config = SyncConfig {
            poll: Duration::from_millis(5),
            stop_after: Some(to),
            hooks: ChainMetrics::hooks(),
            ..SyncConfig::default()
        };
        sync(store, &source, &config).await.unwrap();
    });
}

/// The sources file describing chain 99999 (the registry lists 43112 already).
pub fn evm_config(dir: &Path) -> String {
    let config = json!({"chains": [{"chainId": 99999, "rpcUrl": "http://127.0.0.1:1/",
        "network": "local", "chainName": "Snowline L1",
        "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}}]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// The binary over `dir`'s index with 99999 described, catching up every 50 ms, `extra` added.
pub fn start(dir: &Path, extra: &[&str]) -> MetricsApi {
    let config = evm_config(dir);
    let mut args = vec!["--evm-config", &config, "--catch-up-ms", "50"];
    args.extend_from_slice(extra);
    super::start(dir, &args)
}

/// Whether a JSON value is the expected count (exactly) or ratio (within 1e-9 relative).
pub fn same(got: &Value, want: Expected) -> bool {
    match want {
        Expected::Count(n) => got.as_u64().map(u128::from) == Some(n) || got == &json!(n),
        Expected::Ratio(x) => got
            .as_f64()
            .is_some_and(|g| (g - x).abs() <= 1e-9 * g.abs().max(x.abs()).max(1.0)),
    }
}

/// A two-thread runtime for indexing.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
