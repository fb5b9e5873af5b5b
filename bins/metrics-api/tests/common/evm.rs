//! A data-api index holding the EVM recordings (43112 moved in time across days, weeks and a
//! month; 99999 as recorded), built with the metrics hook as data-api builds it, and the binary
//! started over it.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};
use snowline_chain_metrics::ChainMetrics;
use snowline_evm_devnet::metrics_model::{Expected, SPREAD_GAPS, retime};
use snowline_evm_devnet::recording_path;
use snowline_store::Store;

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

/// The data-api store: the EVM and metrics tables.
pub fn open_index(dir: &Path) -> Arc<Store> {
    super::index::open(dir, Vec::new())
}

/// Indexes `chain`'s recording up to block `to` (at most its last) with the metrics hook.
pub fn index(rt: &tokio::runtime::Runtime, store: &Store, chain: u64, to: u64) {
    super::index::recording(rt, store, &text(chain), to, ChainMetrics::hooks());
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
    super::index::runtime()
}
