//! Importing a JSON-lines file of containers (`docs/node-index.md`) with progress on stderr.

use std::io::Read;
use std::path::Path;
use std::time::{Duration, Instant};

use snowline_derive::Derive;
use snowline_node_index::{IndexWriter, IngestStats, import_file};
use snowline_store::{Store, StoreError};

use crate::ImportBatch;

/// The progress line of an import: `LABEL: N / TOTAL containers imported (P%), R/s, ETA …`.
#[derive(Debug, Clone)]
pub struct ImportProgress {
    label: String,
    total: u64,
}

impl ImportProgress {
    /// Progress of an import of `total` containers, shown as `label`.
    pub fn new(label: &str, total: u64) -> Self {
        Self {
            label: label.to_owned(),
            total,
        }
    }

    /// The line after `done` containers in `elapsed`.
    pub fn line(&self, done: u64, elapsed: Duration) -> String {
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
        let pct = if self.total == 0 {
            100.0
        } else {
            done as f64 * 100.0 / self.total as f64
        };
        let eta = if rate > 0.0 {
            let left = self.total.saturating_sub(done) as f64 / rate;
            format!("{}m{:02}s", (left / 60.0) as u64, (left % 60.0) as u64)
        } else {
            "?".to_owned()
        };
        format!(
            "{}: {done} / {} containers imported ({pct:.0}%), {rate:.0}/s, ETA {eta}",
            self.label, self.total
        )
    }
}

/// Imports `file` into `store` in atomic batches of `batch` containers with `derive`'s rows,
/// showing progress on stderr after every batch (`label` names the binary; the line starts
/// with `\r`, so a terminal shows one line). The import writes without the
/// write-ahead log: a kill -9 loses the batches since the last memtable flush, never part of
/// one, and a rerun resumes from what is on disk; at the end (success or not) everything
/// written is flushed before the log is turned back on. With `batch.compact`, the index is then
/// compacted in full. Returns the counters and the time taken, the compaction included.
pub fn import_with_progress<D: Derive>(
    store: &Store,
    file: &Path,
    batch: ImportBatch,
    derive: &mut D,
    label: &str,
) -> Result<(IngestStats, Duration), String> {
    let failed = |e: &dyn std::fmt::Display| format!("import of {}: {e}", file.display());
    let total = count_lines(file).map_err(|e| failed(&e))?;
    let progress = ImportProgress::new(label, total);
    let mut writer = IndexWriter::open(store).map_err(|e| failed(&e))?;
    store.set_unlogged_writes(true).map_err(|e| failed(&e))?;
    let started = Instant::now();
    let imported = import_file(
        store,
        &mut writer,
        file,
        batch.containers,
        derive,
        |s: &IngestStats| {
            eprint!("\r{}   ", progress.line(s.read, started.elapsed()));
        },
    )
    .map_err(|e| failed(&e));
    let flushed = store
        .set_unlogged_writes(false)
        .map_err(|e| failed(&format!("flushing: {e}")));
    let stats = imported?;
    flushed?;
    eprintln!("\r{}   ", progress.line(stats.read, started.elapsed()));
    if batch.compact {
        compact(store, label).map_err(|e| failed(&format!("compacting: {e}")))?;
    }
    Ok((stats, started.elapsed()))
}

/// Compacts the whole index, saying on stderr how many level-0 files it merged and how long it took.
fn compact(store: &Store, label: &str) -> Result<(), StoreError> {
    let level0 = store.level0_files()?;
    eprint!("{label}: compacting the index ({level0} level-0 files)...");
    let started = Instant::now();
    store.compact_all()?;
    eprintln!(" done in {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}

/// Lines in a file (one container per line), counted in 1 MiB reads.
fn count_lines(file: &Path) -> std::io::Result<u64> {
    let mut f = std::fs::File::open(file)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0u64;
    loop {
        let read = f.read(&mut buf)?;
        if read == 0 {
            return Ok(n);
        }
        n += buf[..read].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn progress_shows_share_rate_and_eta() {
        let p = ImportProgress::new("data-api", 1000);
        assert_eq!(
            p.line(250, Duration::from_secs(5)),
            "data-api: 250 / 1000 containers imported (25%), 50/s, ETA 0m15s"
        );
        assert!(
            ImportProgress::new("x", 10)
                .line(0, Duration::from_secs(1))
                .ends_with("ETA ?")
        );
    }

    #[test]
    fn lines_are_counted_across_reads() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("lines");
        let line = vec![b'a'; 1 << 19];
        let mut text = Vec::new();
        for _ in 0..5 {
            text.extend_from_slice(&line);
            text.push(b'\n');
        }
        std::fs::write(&file, &text).unwrap();
        assert_eq!(count_lines(&file).unwrap(), 5);
    }
}
