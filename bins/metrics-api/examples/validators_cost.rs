//! What a validators-by-date-range request costs: `cargo run --release -p metrics-api --example
//! validators_cost -- TXS ROUNDS` ingests the P-Chain of `DevnetConfig::large(TXS)` into a fresh
//! store, then times `PChainPages::validators_by_date_range` on the primary network (a first
//! page of 1,000 over all time, and one of 1,000 over the middle day of the history) `ROUNDS`
//! times each and prints the validator rows and the best times.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod common;

use std::sync::Arc;
use std::time::Instant;

use snowline_chain_p::metrics::ValidatorRangeQuery;
use snowline_chain_p::pages::PChainPages;
use snowline_chain_p::tables::PhValidatorsBySubnet;
use snowline_store::{Direction, ReadView};
use snowline_types::Id;

fn main() {
    let mut args = std::env::args().skip(1);
    let txs: u64 = args.next().map_or(100_000, |a| a.parse().unwrap());
    let rounds: usize = args.next().map_or(5, |a| a.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let (store, blocks, _) = common::large_devnet_p_chain(dir.path(), txs);
    let rows: Vec<u64> = store
        .scan::<PhValidatorsBySubnet, _>(.., Direction::Forward)
        .unwrap()
        .map(|r| r.unwrap().0.1)
        .collect();
    let mid = rows[rows.len() / 2];
    let pages = PChainPages::new(Arc::clone(&store));
    let time = |from, to| {
        let q = ValidatorRangeQuery {
            subnet: Id::default(),
            from,
            to,
            page_size: 1_000,
            after: None,
        };
        let mut best = f64::MAX;
        let mut n = 0;
        for _ in 0..rounds.max(1) {
            let t = Instant::now();
            n = pages.validators_by_date_range(&q).unwrap().validators.len();
            best = best.min(t.elapsed().as_secs_f64());
        }
        (n, best * 1e3)
    };
    let (all_n, all_ms) = time(0, u64::MAX);
    let (day_n, day_ms) = time(mid, mid + 86_400);
    println!(
        "{} P-Chain blocks, {} validator rows; all time: {all_n} validators in {all_ms:.3} ms; \
         a day mid-history: {day_n} validators in {day_ms:.3} ms (best of {rounds})",
        blocks,
        rows.len(),
    );
}
