//! What a staking-metrics request costs: `cargo run --release -p metrics-api --example
//! staking_cost -- TXS ROUNDS` ingests the P-Chain of `DevnetConfig::large(TXS)` into a fresh
//! store (timed: the per-day staking rows are written with the blocks), then times
//! `PChainPages::staking_metrics` (daily points, one page of 100) `ROUNDS` times and prints the
//! staker rows, their bytes, the day rows and the best time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::Instant;

use snowline_chain_p::PChain;
use snowline_chain_p::pages::{PChainPages, StakingQuery};
use snowline_chain_p::tables::{PhStakers, PhStakingDays};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, Linear, ReadView, Schema, Store};
use snowline_types::Id;
use snowline_types::container::{ContainerLine, IndexPath};

fn main() {
    let mut args = std::env::args().skip(1);
    let txs: u64 = args.next().map_or(100_000, |a| a.parse().unwrap());
    let rounds: usize = args.next().map_or(5, |a| a.parse().unwrap());
    let dir = tempfile::tempdir().unwrap();
    let schema = snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_p::tables())
        .fold(Schema::new(1), Schema::with_spec);
    let store = Arc::new(Store::open(dir.path(), &schema).unwrap());
    let mut devnet = Devnet::generate(DevnetConfig::large(txs)).unwrap();
    let records: Vec<_> = devnet
        .by_ref()
        .map(|r| r.unwrap())
        .filter(|r| r.path == IndexPath::PBlock)
        .collect();
    let net = devnet.genesis().network.clone();
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(&store, &devnet.p_genesis()).unwrap();
    let mut writer = IndexWriter::open(&*store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    let t = Instant::now();
    ingest(&store, &mut writer, src, 256, &mut p, |_| {}).unwrap();
    let ingest_s = t.elapsed().as_secs_f64();
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
        records.len(),
        best * 1e3,
    );
}
