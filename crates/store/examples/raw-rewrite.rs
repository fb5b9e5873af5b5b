//! The raw RocksDB write ceiling of an ingest benchmark: reads every entry of the column families
//! whose names start with one of the given prefixes (comma-separated) from a store directory,
//! then writes the same keys and values into a fresh RocksDB with plain calls, in as many atomic
//! batches as the indexer wrote, and prints how long the writes took. Raw RocksDB appears here only, as the baseline.
//!
//! `raw-rewrite SRC_DIR DEST_DIR PREFIX[,PREFIX...] BATCHES [compact]`
//!
//! With `compact`, the destination is then compacted in full and its size on disk printed: the
//! bytes the entries take once compaction has caught up.
//!
//! The destination gets the same column families with RocksDB's default options plus the store's
//! compression (LZ4, ZSTD at the bottom level), the WAL on and no fsync per batch, as the store
//! writes by default. Entries are written in the source's column-family and key order, which is
//! the friendliest order for RocksDB: the figure is a ceiling, not a replay of the indexer's
//! write pattern.

use std::path::Path;
use std::time::Instant;

use rocksdb::{DB, DBCompressionType, IteratorMode, Options, WriteBatch, WriteOptions};

fn main() {
    if let Err(e) = run() {
        eprintln!("raw-rewrite: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (src, dest, prefix, batches, compact) = match args.as_slice() {
        [src, dest, prefix, batches] => (src, dest, prefix, batches, false),
        [src, dest, prefix, batches, c] if c == "compact" => (src, dest, prefix, batches, true),
        _ => {
            return Err(
                "usage: raw-rewrite SRC_DIR DEST_DIR PREFIX[,PREFIX...] BATCHES [compact]".into(),
            );
        }
    };
    let batches: usize = batches
        .parse()
        .map_err(|_| format!("bad BATCHES {batches:?}"))?;
    let (families, entries) = read(Path::new(src), prefix)?;
    let bytes: usize = entries.iter().map(|(_, k, v)| k.len() + v.len()).sum();
    let db = create(Path::new(dest), &families)?;
    let per_batch = entries.len().div_ceil(batches.max(1)).max(1);
    let mut write = WriteOptions::default();
    write.set_sync(false);
    let start = Instant::now();
    for chunk in entries.chunks(per_batch) {
        let mut batch = WriteBatch::default();
        for (cf, k, v) in chunk {
            let handle = db
                .cf_handle(cf)
                .ok_or_else(|| format!("no column family {cf}"))?;
            batch.put_cf(&handle, k, v);
        }
        db.write_opt(batch, &write).map_err(|e| e.to_string())?;
    }
    db.flush().map_err(|e| e.to_string())?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "raw RocksDB: {} entries, {:.1} MB in {} batches of {} families, {:.3} s ({:.1} MB/s)",
        entries.len(),
        bytes as f64 / 1e6,
        entries.len().div_ceil(per_batch),
        families.len(),
        secs,
        bytes as f64 / 1e6 / secs
    );
    if compact {
        for cf in &families {
            let handle = db
                .cf_handle(cf)
                .ok_or_else(|| format!("no column family {cf}"))?;
            db.compact_range_cf(&handle, None::<&[u8]>, None::<&[u8]>);
        }
        drop(db);
        println!(
            "compacted: {} bytes of table files",
            dir_bytes(Path::new(dest)).map_err(|e| e.to_string())?
        );
    }
    Ok(())
}

/// The bytes of the table files (`*.sst`) in `dir`.
fn dir_bytes(dir: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.path().extension().is_some_and(|e| e == "sst") {
            total += entry.metadata()?.len();
        }
    }
    Ok(total)
}

/// The families whose names start with one of `prefixes` (comma-separated) and every (family,
/// key, value) of them, family by family.
type Entries = (Vec<String>, Vec<(String, Vec<u8>, Vec<u8>)>);
fn read(src: &Path, prefixes: &str) -> Result<Entries, String> {
    let names = DB::list_cf(&Options::default(), src).map_err(|e| e.to_string())?;
    let wanted: Vec<String> = names
        .iter()
        .filter(|n| prefixes.split(',').any(|p| n.starts_with(p)))
        .cloned()
        .collect();
    if wanted.is_empty() {
        return Err(format!(
            "no column family of {} starts with {prefixes:?}",
            src.display()
        ));
    }
    let db = DB::open_cf_for_read_only(&Options::default(), src, &names, false)
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for name in &wanted {
        let cf = db
            .cf_handle(name)
            .ok_or_else(|| format!("no column family {name}"))?;
        for item in db.iterator_cf(&cf, IteratorMode::Start) {
            let (k, v) = item.map_err(|e| e.to_string())?;
            out.push((name.clone(), k.into_vec(), v.into_vec()));
        }
    }
    Ok((wanted, out))
}

/// A fresh database at `dest` with `families`.
fn create(dest: &Path, families: &[String]) -> Result<DB, String> {
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(|e| e.to_string())?;
    }
    let mut o = Options::default();
    o.create_if_missing(true);
    o.create_missing_column_families(true);
    o.set_compression_type(DBCompressionType::Lz4);
    o.set_bottommost_compression_type(DBCompressionType::Zstd);
    DB::open_cf(&o, dest, families).map_err(|e| e.to_string())
}
