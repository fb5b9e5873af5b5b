//! The shape of a store's LSM tree: for every column family of a store directory (any schema
//! version), the table files at each level, read without changing anything.
//!
//! `levels DIR [compact]`
//!
//! With `compact`, every column family is first compacted in full with table settings close to
//! the store's own (`store/src/options.rs`: bloom filters, partitioned index, LZ4 and ZSTD level
//! 1 at the bottom), so two stores of any schema version can be brought to the same shape before
//! their pages are compared.
//!
//! A read that scans (a keyset page) merges every level-0 file with each deeper level, so two
//! imports of the same chain can serve the same page at different costs until compaction has
//! caught up: benchmarks that compare pages print this beside their figures.

use std::time::Instant;

use rocksdb::{BlockBasedIndexType, BlockBasedOptions, DB, DBCompressionType, Options};

fn main() {
    if let Err(e) = run() {
        eprintln!("levels: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dir, compact) = match args.as_slice() {
        [dir] => (dir, false),
        [dir, c] if c == "compact" => (dir, true),
        _ => return Err("usage: levels DIR [compact]".into()),
    };
    let names = DB::list_cf(&Options::default(), dir).map_err(|e| e.to_string())?;
    let db = if compact {
        let db = DB::open_cf(&table_options(), dir, &names).map_err(|e| e.to_string())?;
        let started = Instant::now();
        for name in &names {
            let cf = db
                .cf_handle(name)
                .ok_or(format!("no column family {name}"))?;
            db.compact_range_cf(&cf, None::<&[u8]>, None::<&[u8]>);
        }
        let secs = started.elapsed().as_secs_f64();
        println!("compacted {} tables in {secs:.1} s", names.len());
        db
    } else {
        DB::open_cf_for_read_only(&Options::default(), dir, &names, false)
            .map_err(|e| e.to_string())?
    };
    let (mut files, mut l0) = (0u64, 0u64);
    for name in &names {
        let cf = db
            .cf_handle(name)
            .ok_or(format!("no column family {name}"))?;
        let per_level: Vec<u64> = (0..7)
            .map(|level| {
                db.property_int_value_cf(&cf, &format!("rocksdb.num-files-at-level{level}"))
                    .ok()
                    .flatten()
                    .unwrap_or(0)
            })
            .collect();
        let n: u64 = per_level.iter().sum();
        if n > 0 {
            println!("{name}: {per_level:?}");
        }
        files += n;
        l0 += per_level[0];
    }
    println!("{} tables, {files} files, {l0} at level 0", names.len());
    Ok(())
}

/// Table settings close to the store's, for a compaction done here.
fn table_options() -> Options {
    let mut bb = BlockBasedOptions::default();
    bb.set_block_size(16 << 10);
    bb.set_format_version(5);
    bb.set_index_type(BlockBasedIndexType::TwoLevelIndexSearch);
    bb.set_partition_filters(true);
    bb.set_metadata_block_size(4 << 10);
    bb.set_bloom_filter(10.0, false);
    bb.set_whole_key_filtering(true);
    let mut o = Options::default();
    o.set_block_based_table_factory(&bb);
    o.set_level_compaction_dynamic_level_bytes(true);
    o.set_compression_type(DBCompressionType::Lz4);
    o.set_bottommost_compression_type(DBCompressionType::Zstd);
    o.set_bottommost_compression_options(-14, 1, 0, 0, true);
    o.set_target_file_size_base(64 << 20);
    o
}
