//! A data-api store holding only the metrics of a synthetic EVM chain, for serving benchmarks
//! (`bench/metrics-api.sh`): `DAYS` days of blocks `SECS` apart with `TXS` txs each, derived
//! with [`ChainMetrics`] into `DIR/index` at the data-api's schema version, so `metrics-api
//! serve --index-dir DIR` opens it.
//!
//! ```sh
//! cargo run --release -p snowline-chain-metrics --example synth_store -- DIR [DAYS=120] [SECS=60] [TXS=5] [ADDRESSES=20000] [CHAIN=43114]
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/synthetic.rs"]
mod synthetic;

use snowline_chain_metrics::ChainMetrics;
use snowline_derive::write_batch;
use snowline_store::{Schema, Store, WriteBatch};

fn main() {
    let dir =
        std::path::PathBuf::from(std::env::args().nth(1).expect("usage: synth_store DIR ..."));
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (days, secs, txs, addresses, chain) = (
        arg(2, 120),
        arg(3, 60),
        arg(4, 5),
        arg(5, 20_000),
        arg(6, 43_114),
    );
    let schema = snowline_chain_metrics::tables().into_iter().fold(
        Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
        Schema::with_spec,
    );
    std::fs::create_dir_all(dir.join("index")).unwrap();
    let store = Store::open(dir.join("index"), &schema).unwrap();
    let mut metrics = ChainMetrics::open(&store, chain).unwrap();
    let blocks = days * 86_400 / secs.max(1);
    let start = std::time::Instant::now();
    let mut batch = WriteBatch::new();
    let per_chunk = 1_000;
    for first in (0..blocks).step_by(per_chunk) {
        let n = (blocks - first).min(per_chunk as u64);
        let (chunk, _) = synthetic::synthetic_from(first, n, txs, addresses, secs);
        for block in &chunk {
            metrics.add(&store, block).unwrap();
        }
        write_batch(&store, &mut metrics, &mut batch).unwrap();
    }
    // To files, as a long-running index mostly is (a reverse scan of a memtable costs a
    // skip-list search per step).
    store.flush().unwrap();
    println!(
        "{blocks} blocks ({days} days, one every {secs} s, {txs} txs each) of chain {chain} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
