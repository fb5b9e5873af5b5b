//! The UTXO pages of the X-Chain history and of the P-Chain, read as the Data API reads them: the
//! first page of the five addresses holding the most UTXOs, a page deep in the same listing, a
//! page by amount above a minimum, and a page whose filter matches nothing (it ends on the
//! examination budget). The store is a devnet ingested with both rooms' hooks, as `data-api`
//! does; it is built once into `SNOWLINE_BENCH_DIR` (default a directory under the system's temp
//! dir, named for the size) and reused by later runs, so two builds of the pages can be compared
//! on the same rows. `SNOWLINE_BENCH_TXS` sets the devnet's size (default 40,000 txs).
//!
//! `cargo bench -p snowline-chain-p --bench utxo_pages`

// The bench aborts on any error: there is nothing to measure after one.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use snowline_chain_p::pages::{PChainPages, PUtxoQuery};
use snowline_chain_p::tables::PhAllByTime;
use snowline_chain_p::{PChain, tables};
use snowline_chain_x::history::tables::XhAllByTime;
use snowline_chain_x::history::{UtxoOrder, UtxoQuery, XHistory, XHistoryPages};
use snowline_devnet::{Devnet, DevnetConfig};
use snowline_node_index::{IndexWriter, ingest};
use snowline_query::SortOrder;
use snowline_query::params::UtxoSortBy;
use snowline_store::{Direction, ReadView, Schema, Store, Table};
use snowline_types::container::ContainerLine;
use snowline_types::{Id, ShortId};

fn schema() -> Schema {
    snowline_node_index::tables()
        .into_iter()
        .chain(snowline_chain_x::history::tables())
        .chain(tables())
        .fold(Schema::new(1), Schema::with_spec)
}

/// The devnet: few keys, so each address holds many UTXOs.
fn config() -> DevnetConfig {
    let txs = std::env::var("SNOWLINE_BENCH_TXS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40_000u64);
    let mut cfg = DevnetConfig::large(txs);
    cfg.keys = 40;
    cfg
}

/// The store, ingested on first use.
fn store() -> Arc<Store> {
    let cfg = config();
    let dir = std::env::var_os("SNOWLINE_BENCH_DIR").map_or_else(
        || std::env::temp_dir().join(format!("snowline-utxo-pages-{}", cfg.blocks)),
        PathBuf::from,
    );
    let done = dir.join("ingested");
    if !done.exists() {
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::open(&dir, &schema()).unwrap();
        let mut devnet = Devnet::generate(cfg).unwrap();
        let records: Vec<_> = devnet.by_ref().map(|r| r.unwrap()).collect();
        let net = devnet.genesis().network.clone();
        let mut hooks = (
            XHistory::new(net.x_chain_id, net.p_chain_id),
            PChain::new(
                net.network_id,
                net.p_chain_id,
                net.x_chain_id,
                net.avax_asset_id,
            ),
        );
        hooks
            .0
            .apply_genesis(&store, &devnet.x_genesis(), 0)
            .unwrap();
        hooks.1.apply_genesis(&store, &devnet.p_genesis()).unwrap();
        let mut writer = IndexWriter::open(&store).unwrap();
        let src = records.into_iter().map(|record| {
            Ok(ContainerLine {
                record,
                index: None,
            })
        });
        ingest(&store, &mut writer, src, 256, &mut hooks, |_| {}).unwrap();
        drop(store);
        std::fs::write(&done, b"").unwrap();
    }
    Arc::new(Store::open(&dir, &schema()).unwrap())
}

/// The five addresses with the most entries in table `T`.
fn busiest<T: Table<Key = (ShortId, u64, Id), Value = ()>>(store: &Store) -> Vec<ShortId> {
    let mut counts: HashMap<ShortId, usize> = HashMap::new();
    for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
        *counts.entry(e.unwrap().0.0).or_default() += 1;
    }
    let mut by_count: Vec<(usize, ShortId)> = counts.into_iter().map(|(a, n)| (n, a)).collect();
    by_count.sort_unstable_by(|a, b| b.cmp(a));
    by_count.into_iter().take(5).map(|(_, a)| a).collect()
}

fn x_pages(c: &mut Criterion) {
    let store = store();
    let pages = XHistoryPages::new(store.clone());
    let addresses = busiest::<XhAllByTime>(&store);
    let q = UtxoQuery {
        addresses,
        page_size: 100,
        asset: None,
        min_amount: 0,
        include_spent: true,
        order: UtxoOrder::Timestamp,
        sort: SortOrder::Desc,
    };
    // The position after page 10 of the listing.
    let mut deep = None;
    for _ in 0..10 {
        deep = pages.utxos(&q, deep.as_deref()).unwrap().next;
    }
    let deep = deep.expect("the listing has more than 10 pages: use a bigger devnet");
    let first = pages.utxos(&q, None).unwrap();
    let amounts: Vec<u64> = first.utxos.iter().map(|u| u.record.amount).collect();
    let median = amounts.get(amounts.len() / 2).copied().unwrap_or(1);
    let mut g = c.benchmark_group("x_utxos");
    g.bench_function("page_1", |b| {
        b.iter(|| black_box(pages.utxos(&q, None).unwrap()));
    });
    g.bench_function("page_11", |b| {
        b.iter(|| black_box(pages.utxos(&q, Some(&deep)).unwrap()));
    });
    let by_amount = UtxoQuery {
        order: UtxoOrder::Amount,
        sort: SortOrder::Asc,
        min_amount: median,
        include_spent: false,
        ..q.clone()
    };
    g.bench_function("amount_from_min", |b| {
        b.iter(|| black_box(pages.utxos(&by_amount, None).unwrap()));
    });
    let nothing = UtxoQuery {
        asset: Some(Id([0xee; 32])),
        ..q.clone()
    };
    g.bench_function("no_match_budget", |b| {
        b.iter(|| black_box(pages.utxos(&nothing, None).unwrap()));
    });
    g.finish();
}

fn p_pages(c: &mut Criterion) {
    let store = store();
    let pages = PChainPages::new(store.clone());
    let addresses = busiest::<PhAllByTime>(&store);
    let q = PUtxoQuery {
        addresses,
        page_size: 100,
        min_amount: 0,
        include_spent: true,
        order: UtxoSortBy::Timestamp,
        sort: SortOrder::Desc,
    };
    let mut deep = None;
    for _ in 0..3 {
        deep = pages.utxos(&q, deep.as_deref()).unwrap().next;
    }
    let mut g = c.benchmark_group("p_utxos");
    g.bench_function("page_1", |b| {
        b.iter(|| black_box(pages.utxos(&q, None).unwrap()));
    });
    if let Some(deep) = deep {
        g.bench_function("page_4", |b| {
            b.iter(|| black_box(pages.utxos(&q, Some(&deep)).unwrap()));
        });
    }
    let big = PUtxoQuery {
        order: UtxoSortBy::Amount,
        sort: SortOrder::Desc,
        min_amount: u64::MAX / 2,
        ..q.clone()
    };
    g.bench_function("amount_desc_above_all", |b| {
        b.iter(|| black_box(pages.utxos(&big, None).unwrap()));
    });
    g.finish();
}

fn short() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = short();
    targets = x_pages, p_pages
}
criterion_main!(benches);
