//! `node-rpc import FILE`: JSON lines of containers exported from a node
//! (`snowline_types::container` describes the line format).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use snowline_store::Store;
use snowline_types::container::{ContainerLine, ContainerRecord, IndexPath};

use crate::error::IndexError;
use crate::ingest::{Derive, IngestStats, ingest};
use crate::writer::IndexWriter;

/// Longest accepted line (a container is at most a few MiB; hex doubles it).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Counters of an import.
pub type ImportStats = IngestStats;

/// Streams the lines of `reader` as container lines (blank lines skipped), each checked (hex
/// checksum, timestamp, id against the bytes); errors name the 1-based line.
fn lines<R: BufRead>(
    mut reader: R,
) -> impl Iterator<Item = Result<(u64, ContainerLine), IndexError>> {
    let mut number = 0u64;
    let mut buf = Vec::new();
    let mut done = false;
    std::iter::from_fn(move || {
        loop {
            if done {
                return None;
            }
            number += 1;
            buf.clear();
            let limit = u64::try_from(MAX_LINE_BYTES).unwrap_or(u64::MAX);
            let read = (&mut reader).take(limit + 1).read_until(b'\n', &mut buf);
            let at = |e: IndexError| IndexError::Line {
                line: number,
                source: Box::new(e),
            };
            match read {
                Err(e) => {
                    done = true;
                    return Some(Err(at(e.into())));
                }
                Ok(0) => return None,
                Ok(_) => {}
            }
            if buf.len() > MAX_LINE_BYTES {
                done = true;
                return Some(Err(at(IndexError::Io(std::io::Error::other(format!(
                    "line longer than {MAX_LINE_BYTES} bytes"
                ))))));
            }
            let text = match std::str::from_utf8(&buf) {
                Ok(t) => t.trim(),
                Err(_) => {
                    done = true;
                    return Some(Err(at(IndexError::Io(std::io::Error::other(
                        "line is not UTF-8",
                    )))));
                }
            };
            if text.is_empty() {
                continue;
            }
            let parsed = ContainerRecord::parse_json_line(text)
                .and_then(|line| line.record.check_id().map(|()| (number, line)))
                .map_err(|e| at(e.into()));
            if parsed.is_err() {
                done = true;
            }
            return Some(parsed);
        }
    })
}

/// Imports JSON lines from `reader` into the index (streaming; see [`ingest`] for batching and
/// atomicity). Containers already indexed are skipped, so re-running an interrupted import
/// resumes it. A bad line stops the import with an error naming the line; its batch is not
/// written. Use [`import_file`] to validate a whole file before writing anything.
pub fn import_jsonl<R, D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    reader: R,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<ImportStats, IndexError>
where
    R: BufRead,
    D: Derive + ?Sized,
    F: FnMut(&IngestStats),
{
    let current = std::cell::Cell::new(0u64);
    let source = lines(reader).map(|item| {
        item.map(|(number, line)| {
            current.set(number);
            line
        })
    });
    ingest(store, writer, source, batch_size, derive, on_batch).map_err(|e| match e {
        IndexError::Line { .. } | IndexError::Store(_) => e,
        other => IndexError::Line {
            line: current.get(),
            source: Box::new(other),
        },
    })
}

/// Checks every line of `reader` without writing: syntax, checksums, ids, and that stated
/// indexes run on contiguously per path. Returns the number of containers per path.
pub fn validate_jsonl<R: BufRead>(reader: R) -> Result<HashMap<IndexPath, u64>, IndexError> {
    let mut next: HashMap<IndexPath, Option<u64>> = HashMap::new();
    let mut counts: HashMap<IndexPath, u64> = HashMap::new();
    for item in lines(reader) {
        let (number, line) = item?;
        let path = line.record.path;
        let expected = next.get(&path).copied().flatten();
        if let (Some(e), Some(stated)) = (expected, line.index) {
            if e != stated {
                return Err(IndexError::Line {
                    line: number,
                    source: Box::new(IndexError::IndexMismatch {
                        path,
                        id: line.record.id,
                        stated,
                        actual: e,
                    }),
                });
            }
        }
        let here = line.index.or(expected);
        next.insert(path, here.map(|i| i.saturating_add(1)));
        *counts.entry(path).or_insert(0) += 1;
    }
    Ok(counts)
}

/// Imports the JSON-lines file at `path`: a first pass validates every line (so a bad line
/// writes nothing at all), a second pass imports as [`import_jsonl`].
pub fn import_file<D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    path: &Path,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<ImportStats, IndexError>
where
    D: Derive + ?Sized,
    F: FnMut(&IngestStats),
{
    validate_jsonl(BufReader::new(std::fs::File::open(path)?))?;
    let file = BufReader::with_capacity(1 << 20, std::fs::File::open(path)?);
    import_jsonl(store, writer, file, batch_size, derive, on_batch)
}
