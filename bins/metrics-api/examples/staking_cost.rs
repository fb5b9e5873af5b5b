//! What a staking-metrics request costs: `cargo run --release -p metrics-api --example
//! staking_cost -- TXS ROUNDS` ingests the P-Chain of `DevnetConfig::large(TXS)` into a fresh
//! store (timed: the per-day staking rows are written with the blocks), then times
//! `PChainPages::staking_metrics` (daily points, one page of 100) `ROUNDS` times and prints the
//! staker rows, their bytes, the day rows and the best time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

use std::sync::Arc;
use std::time::Instant;

use snowline_chain_p::metrics::StakingQuery;
use snowline_chain_p::pages::PChainPages;
use snowline_chain_p::tables::{PhStakers, PhStakingDays};
use snowline_store::{Direction, Linear, ReadView};
use snowline_types::Id;

fn main() {
    let mut args = std::env::args().skip(1);
    let txs: u64 = args.next().map_or(100_000, |a| a.parse().unwrap());
    let rounds: usize = args.next().map_or(5, |a| a.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let (store, blocks, ingest) = common::large_devnet_p_chain(dir.path(), txs);
    let ingest_s = ingest.as_secs_f64();
    let days = store
        .scan::<PhStakingDays, _>(.., Direction::Forward)
        .unwrap()
        .count();
    let (mut rows, mut bytes) = (0u64, 0usize);
    for r in store.scan::<PhStakers, _>(.., Direction::Forward).unwrap() {
        let (_, Linear(s)) = r.unwrap();
        rows += 1;
        bytes += s.unsigned_tx.len();
    }
    let pages = PChainPages::new(Arc::clone(&store));
    let q = StakingQuery {
        subnet: Id::default(),
        from: 0,
        to: u64::MAX,
        page_size: 100,
    };
    let mut best = f64::MAX;
    let mut points = 0;
    for _ in 0..rounds.max(1) {
        let t = Instant::now();
        points = pages.staking_metrics(&q).unwrap().points.len();
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} P-Chain blocks ingested in {ingest_s:.2} s, {rows} staker rows ({bytes} bytes of \
         txs), {days} staking day rows, {points} daily points: best of {rounds} {:.3} ms a \
         request",
        blocks,
        best * 1e3,
    );
}
