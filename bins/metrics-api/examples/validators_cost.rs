//! What a validators-by-date-range request costs: `cargo run --release -p metrics-api --example
//! validators_cost -- TXS ROUNDS` ingests the P-Chain of `DevnetConfig::large(TXS)` into a fresh
//! store, then times `PChainPages::validators_by_date_range` on the primary network (a first
//! page of 1,000 over all time, and one of 1,000 over the middle day of the history) `ROUNDS`
//! times each and prints the validator rows and the best times.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::Arc;
use std::time::Instant;

use snowline_chain_p::PChain;
use snowline_chain_p::pages::{PChainPages, ValidatorRangeQuery};
use snowline_chain_p::tables::PhValidatorsBySubnet;
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_store::{Direction, ReadView, Schema, Store};
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
    let genesis = devnet.p_genesis();
    let mut p = PChain::new(
        net.network_id,
        net.p_chain_id,
        net.x_chain_id,
        net.avax_asset_id,
    );
    p.apply_genesis(&store, &genesis).unwrap();
    let mut writer = IndexWriter::open(&*store).unwrap();
    let src = records.iter().map(|r| {
        Ok(ContainerLine {
            record: r.clone(),
            index: None,
        })
    });
    ingest(&store, &mut writer, src, 256, &mut p, |_| {}).unwrap();
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
        records.len(),
        rows.len(),
    );
}
