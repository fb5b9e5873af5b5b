//! Point gets and 100-entry range scans on a 1M-key table, through the store API and through raw
//! RocksDB calls on the same files in the same run (raw RocksDB is used here only, as the
//! baseline). Target: the store API within 2x of raw RocksDB.
//!
//! The database is built once per run in a temp dir with the store API, flushed and compacted,
//! then opened read-only twice: once as a `Store`, once as a raw `rocksdb::DB` configured like the
//! store's tables (same block cache size, bloom filters, block size), so the difference measured
//! is the API's own cost (key encoding, column family lookup, value decoding).

// The bench aborts on any store error: there is nothing to measure after one.
#![allow(clippy::expect_used)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rocksdb::{BlockBasedOptions, Cache, ColumnFamilyDescriptor, DB, Options};
use snowline_store::{
    Direction, ReadView, Schema, Store, StoreOptions, Table, WriteBatch, encode_key,
};
use snowline_types::Id;

/// (height, id) -> ~100-byte value.
struct Blocks;
impl Table for Blocks {
    const NAME: &'static str = "bench_blocks";
    type Key = (u64, Id);
    type Value = Vec<u8>;
}

const KEYS: u64 = 1_000_000;
const SCAN_LEN: usize = 100;

fn key(i: u64) -> (u64, Id) {
    let mut id = [0u8; 32];
    id[..8].copy_from_slice(&i.wrapping_mul(0x9E37_79B9_7F4A_7C15).to_le_bytes());
    id[31] = (i % 251) as u8;
    (i, Id(id))
}

fn value(i: u64) -> Vec<u8> {
    let mut v = vec![0u8; 100];
    for (n, b) in v.iter_mut().enumerate() {
        *b = (i as usize).wrapping_add(n * 31) as u8;
    }
    v
}

/// A cheap deterministic sequence of indexes (xorshift), so both sides see the same keys.
struct Rng(u64);
impl Rng {
    fn next(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

fn build(dir: &std::path::Path, schema: &Schema) {
    let started = std::time::Instant::now();
    let store = Store::open_with(dir, schema, &StoreOptions::bulk_ingest()).expect("open");
    let mut batch = WriteBatch::new();
    for i in 0..KEYS {
        batch.put::<Blocks>(&key(i), &value(i));
        if batch.len() == 10_000 {
            store.write(std::mem::take(&mut batch)).expect("write");
        }
    }
    store.write(batch).expect("write");
    store.flush().expect("flush");
    store.compact::<Blocks>().expect("compact");
    eprintln!("built {KEYS} keys in {:.1?}", started.elapsed());
}

fn raw_db(dir: &std::path::Path) -> DB {
    let defaults = StoreOptions::default();
    let cache = Cache::new_lru_cache(defaults.block_cache_bytes);
    let mut bb = BlockBasedOptions::default();
    bb.set_block_cache(&cache);
    bb.set_block_size(defaults.block_size);
    bb.set_format_version(5);
    bb.set_bloom_filter(defaults.bloom_bits_per_key, false);
    bb.set_cache_index_and_filter_blocks(true);
    bb.set_pin_l0_filter_and_index_blocks_in_cache(true);
    let mut cf = Options::default();
    cf.set_block_based_table_factory(&bb);
    let mut db = Options::default();
    db.set_max_open_files(-1);
    let names = DB::list_cf(&Options::default(), dir).expect("list cfs");
    let cfs = names.into_iter().map(|n| {
        let o = if n == Blocks::NAME {
            cf.clone()
        } else {
            Options::default()
        };
        ColumnFamilyDescriptor::new(n, o)
    });
    DB::open_cf_descriptors_read_only(&db, dir, cfs, false).expect("raw open")
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = Schema::new(1).with::<Blocks>();
    build(dir.path(), &schema);
    let store = Store::open_read_only(dir.path(), &schema).expect("store open");
    let raw = raw_db(dir.path());
    let cf = raw.cf_handle(Blocks::NAME).expect("cf");
    let keys: Vec<(u64, Id)> = (0..KEYS).map(key).collect();
    let raw_keys: Vec<Vec<u8>> = keys.iter().map(encode_key).collect();
    let pick = |rng: &mut Rng| rng.next(KEYS) as usize;

    let mut g = c.benchmark_group("point_get");
    g.throughput(Throughput::Elements(1));
    let mut rng = Rng(0x1234_5678);
    g.bench_function("store", |b| {
        b.iter(|| {
            let k = &keys[pick(&mut rng)];
            let v = store.get::<Blocks>(k).expect("get").expect("present");
            black_box(v.len())
        })
    });
    let mut rng = Rng(0x1234_5678);
    g.bench_function("raw_rocksdb", |b| {
        b.iter(|| {
            let k = &raw_keys[pick(&mut rng)];
            let v = raw.get_pinned_cf(cf, k).expect("get").expect("present");
            black_box(v.len())
        })
    });
    g.finish();

    let mut g = c.benchmark_group("range_scan_100");
    g.throughput(Throughput::Elements(1));
    let max_start = KEYS - SCAN_LEN as u64;
    let mut rng = Rng(0x9abc_def0);
    g.bench_function("store", |b| {
        b.iter(|| {
            let start = &keys[rng.next(max_start) as usize];
            let mut total = 0usize;
            for entry in store
                .scan::<Blocks, _>(start.., Direction::Forward)
                .expect("scan")
                .take(SCAN_LEN)
            {
                let ((h, _), v) = entry.expect("entry");
                total += v.len() + h as usize;
            }
            black_box(total)
        })
    });
    let mut rng = Rng(0x9abc_def0);
    g.bench_function("raw_rocksdb", |b| {
        b.iter(|| {
            let start = &raw_keys[rng.next(max_start) as usize];
            let mut it = raw.raw_iterator_cf(cf);
            it.seek(start);
            let mut total = 0usize;
            let mut n = 0;
            while n < SCAN_LEN {
                let Some((k, v)) = it.item() else { break };
                total += v.len() + k.len();
                n += 1;
                it.next();
            }
            black_box(total)
        })
    });
    g.bench_function("store_reverse", |b| {
        b.iter(|| {
            let end = &keys[rng.next(max_start) as usize + SCAN_LEN];
            let n = store
                .scan::<Blocks, _>(..end, Direction::Reverse)
                .expect("scan")
                .take(SCAN_LEN)
                .count();
            black_box(n)
        })
    });
    g.finish();
}

criterion_group! {
    name = store;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    targets = benches
}
criterion_main!(store);
