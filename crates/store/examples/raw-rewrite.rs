//! The raw RocksDB write ceiling of an ingest benchmark: reads every entry of the column families
//! whose names start with one of the given prefixes (comma-separated) from a store directory,
//! then writes the same keys and values into a fresh RocksDB with plain calls, in as many atomic
//! batches as the indexer wrote, and prints how long the writes took. Raw RocksDB appears here only, as the baseline.
//! Each batch's entries are read just before its write, outside the clock, so memory stays bounded on
//! an index of any size (a 10M-tx index holds about 17 GB of entries).
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
use std::time::{Duration, Instant};

use rocksdb::{
    ColumnFamily, DB, DBCompressionType, IteratorMode, Options, WriteBatch, WriteOptions,
};

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
    let src_db = open_source(Path::new(src))?;
    let families = wanted(&src_db, prefix)?;
    let (count, bytes) = count(&src_db, &families)?;
    let db = create(Path::new(dest), &families)?;
    let per_batch = count.div_ceil(batches.max(1)).max(1);
    let mut write = WriteOptions::default();
    write.set_sync(false);
    let mut timed = Duration::ZERO;
    let mut written = 0usize;
    let mut batch = WriteBatch::default();
    for name in &families {
        let (from, to) = (cf(&src_db, name)?, cf(&db, name)?);
        for item in src_db.iterator_cf(&from, IteratorMode::Start) {
            let (k, v) = item.map_err(|e| e.to_string())?;
            batch.put_cf(&to, &k, &v);
            if batch.len() == per_batch {
                timed += timed_write(&db, std::mem::take(&mut batch), &write)?;
                written += 1;
            }
        }
    }
    if !batch.is_empty() {
        timed += timed_write(&db, batch, &write)?;
        written += 1;
    }
    let start = Instant::now();
    db.flush().map_err(|e| e.to_string())?;
    let secs = (timed + start.elapsed()).as_secs_f64();
    println!(
        "raw RocksDB: {} entries, {:.1} MB in {} batches of {} families, {:.3} s ({:.1} MB/s)",
        count,
        bytes as f64 / 1e6,
        written,
        families.len(),
        secs,
        bytes as f64 / 1e6 / secs
    );
    if compact {
        for name in &families {
            db.compact_range_cf(cf(&db, name)?, None::<&[u8]>, None::<&[u8]>);
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

/// Writes `batch`, returning how long the write took.
fn timed_write(db: &DB, batch: WriteBatch, write: &WriteOptions) -> Result<Duration, String> {
    let start = Instant::now();
    db.write_opt(batch, write).map_err(|e| e.to_string())?;
    Ok(start.elapsed())
}

/// The column family `name` of `db`.
fn cf<'a>(db: &'a DB, name: &str) -> Result<&'a ColumnFamily, String> {
    db.cf_handle(name)
        .ok_or_else(|| format!("no column family {name}"))
}

/// The store at `src`, read-only, with every column family.
fn open_source(src: &Path) -> Result<DB, String> {
    let names = DB::list_cf(&Options::default(), src).map_err(|e| e.to_string())?;
    DB::open_cf_for_read_only(&Options::default(), src, &names, false).map_err(|e| e.to_string())
}

/// The families of `db` whose names start with one of `prefixes` (comma-separated).
fn wanted(db: &DB, prefixes: &str) -> Result<Vec<String>, String> {
    let names = DB::list_cf(&Options::default(), db.path()).map_err(|e| e.to_string())?;
    let wanted: Vec<String> = names
        .into_iter()
        .filter(|n| prefixes.split(',').any(|p| n.starts_with(p)))
        .collect();
    if wanted.is_empty() {
        return Err(format!(
            "no column family of {} starts with {prefixes:?}",
            db.path().display()
        ));
    }
    Ok(wanted)
}

/// How many entries `families` hold, and their keys' and values' bytes.
fn count(db: &DB, families: &[String]) -> Result<(usize, usize), String> {
    let (mut n, mut bytes) = (0, 0);
    for name in families {
        for item in db.iterator_cf(&cf(db, name)?, IteratorMode::Start) {
            let (k, v) = item.map_err(|e| e.to_string())?;
            n += 1;
            bytes += k.len() + v.len();
        }
    }
    Ok((n, bytes))
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
