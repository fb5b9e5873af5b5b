//! What the metrics hook costs EVM ingest: the same synthetic blocks derived and written by the
//! EVM deriver (`chain_evm::write_blocks`) into fresh stores, without and with
//! [`ChainMetrics`]' hook, interleaved over a few rounds; prints txs/s of each and the ratio.
//! Only the derive-and-write stage is measured (no JSON-RPC, no parsing, no `eth_call`s).
//!
//! ```sh
//! cargo run --release -p snowline-chain-metrics --example ingest_cost -- \
//!     [BLOCKS=2000] [TXS_PER_BLOCK=50] [ADDRESSES=50000] [BLOCKS_PER_BATCH=16] [ROUNDS=3]
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use snowline_chain_evm::enrich::Enrichment;
use snowline_chain_evm::parse::Block;
use snowline_chain_evm::{EvmChain, write_blocks};
use snowline_chain_metrics::ChainMetrics;
use snowline_store::{Schema, Store};

#[path = "common/synthetic.rs"]
mod synthetic;

use synthetic::synthetic;

const CHAIN: u64 = 43_114;

/// Derives and writes every block into a fresh store, `per_batch` blocks a batch; the time.
fn run(blocks: &[Block], enrichments: &[Enrichment], per_batch: usize, metrics: bool) -> Duration {
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_chain_evm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Store::open(dir.path(), &schema).unwrap();
    let mut chain = EvmChain::open(&store, CHAIN, 0).unwrap();
    if metrics {
        chain = chain.with_hooks(ChainMetrics::hooks().open(&store, CHAIN).unwrap());
    }
    let start = Instant::now();
    for (b, e) in blocks.chunks(per_batch).zip(enrichments.chunks(per_batch)) {
        write_blocks(&store, &mut chain, b, e).unwrap();
    }
    start.elapsed()
}

fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (n, txs, addresses) = (arg(1, 2_000), arg(2, 50), arg(3, 50_000));
    let (per_batch, rounds) = (arg(4, 16) as usize, arg(5, 3));
    let (blocks, enrichments) = synthetic(n, txs, addresses, 2);
    let total = (n * txs) as f64;
    let (mut without, mut with) = (Duration::MAX, Duration::MAX);
    for round in 1..=rounds {
        let a = run(&blocks, &enrichments, per_batch, false);
        let b = run(&blocks, &enrichments, per_batch, true);
        println!(
            "round {round}: without {:.0} txs/s, with metrics {:.0} txs/s",
            total / a.as_secs_f64(),
            total / b.as_secs_f64()
        );
        without = without.min(a);
        with = with.min(b);
    }
    let (a, b) = (total / without.as_secs_f64(), total / with.as_secs_f64());
    println!(
        "best of {rounds}: {n} blocks x {txs} txs, {addresses} addresses, {per_batch} blocks a \
         batch: without {a:.0} txs/s, with metrics {b:.0} txs/s ({:.1}% of the rate without)",
        100.0 * b / a
    );
}
