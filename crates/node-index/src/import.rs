//! `node-rpc import FILE`: JSON lines of containers exported from a node
//! (`snowline_types::container` describes the line format).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::mpsc;

use snowline_derive::{Derive, Prepare};
use snowline_store::Store;
use snowline_types::container::{ContainerRecord, IndexPath};

use crate::error::IndexError;
use crate::ingest::{IngestStats, PreparedLine, ingest_prepared, with_line_number};
use crate::writer::IndexWriter;

/// Longest accepted line (a container is at most a few MiB; hex doubles it).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Counters of an import.
pub type ImportStats = IngestStats;

/// One parsed line: its 1-based number and the container line with its [`Prepare`], or the
/// error naming the line.
type Item<P> = Result<(u64, PreparedLine<P>), IndexError>;

fn at_line(line: u64) -> impl FnOnce(IndexError) -> IndexError {
    move |e| IndexError::Line {
        line,
        source: Box::new(e),
    }
}

fn too_long(line: u64) -> IndexError {
    at_line(line)(IndexError::Io(std::io::Error::other(format!(
        "line longer than {MAX_LINE_BYTES} bytes"
    ))))
}

/// Parses, checks (hex checksum, timestamp, id against the bytes) and prepares one line; `None`
/// for a blank line. This is the CPU-heavy part of an import (hex decoding, SHA-256, and the
/// derive hook's decoding).
fn parse_line<P: Prepare>(number: u64, raw: &[u8]) -> Option<Item<P>> {
    let text = match std::str::from_utf8(raw) {
        Ok(t) => t.trim(),
        Err(_) => {
            return Some(Err(at_line(number)(IndexError::Io(std::io::Error::other(
                "line is not UTF-8",
            )))));
        }
    };
    if text.is_empty() {
        return None;
    }
    Some(
        ContainerRecord::parse_json_line(text)
            .and_then(|line| {
                line.record
                    .check_id()
                    .map(|()| (number, PreparedLine::new(line).numbered(number)))
            })
            .map_err(|e| at_line(number)(e.into())),
    )
}

/// Streams the lines of `reader` as container lines (blank lines skipped), each checked by
/// [`parse_line`]; errors name the 1-based line and end the stream.
fn lines<P: Prepare, R: BufRead>(mut reader: R) -> impl Iterator<Item = Item<P>> {
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
            match (&mut reader).take(limit + 1).read_until(b'\n', &mut buf) {
                Err(e) => {
                    done = true;
                    return Some(Err(at_line(number)(e.into())));
                }
                Ok(0) => return None,
                Ok(_) => {}
            }
            if buf.len() > MAX_LINE_BYTES {
                done = true;
                return Some(Err(too_long(number)));
            }
            if let Some(item) = parse_line(number, &buf) {
                done = item.is_err();
                return Some(item);
            }
        }
    })
}

/// Text handed to one parse worker at a time.
const CHUNK_BYTES: usize = 4 << 20;

/// Whole lines read from the input, for one parse worker.
struct Chunk {
    /// 1-based number of the first line.
    first: u64,
    /// The lines' text, newlines included.
    text: Vec<u8>,
    /// End offset (exclusive) of each line in `text`.
    ends: Vec<usize>,
    /// A read error (or an over-long line) right after the last line: it ends the input.
    error: Option<IndexError>,
}

/// Reads `reader` into chunks of whole lines of about `chunk_bytes`, dealing them round-robin
/// to `to_workers`; stops at the end, at a read error, or when a worker is gone.
fn read_chunks<R: BufRead>(
    mut reader: R,
    chunk_bytes: usize,
    to_workers: &[mpsc::SyncSender<Chunk>],
) {
    let limit = u64::try_from(MAX_LINE_BYTES).unwrap_or(u64::MAX);
    let mut number = 0u64;
    for to in to_workers.iter().cycle() {
        let mut chunk = Chunk {
            first: number + 1,
            text: Vec::with_capacity(chunk_bytes + (64 << 10)),
            ends: Vec::new(),
            error: None,
        };
        let mut end = false;
        while chunk.text.len() < chunk_bytes {
            let before = chunk.text.len();
            match (&mut reader)
                .take(limit + 1)
                .read_until(b'\n', &mut chunk.text)
            {
                Err(e) => {
                    chunk.text.truncate(before);
                    chunk.error = Some(at_line(number + 1)(e.into()));
                    end = true;
                    break;
                }
                Ok(0) => {
                    end = true;
                    break;
                }
                Ok(n) => {
                    number += 1;
                    if n > MAX_LINE_BYTES {
                        chunk.text.truncate(before);
                        chunk.error = Some(too_long(number));
                        end = true;
                        break;
                    }
                    chunk.ends.push(chunk.text.len());
                }
            }
        }
        if to.send(chunk).is_err() || end {
            return;
        }
    }
}

/// Parses a chunk's lines in order, stopping after the first error.
fn parse_chunk<P: Prepare>(chunk: Chunk) -> Vec<Item<P>> {
    let mut out = Vec::with_capacity(chunk.ends.len());
    let mut start = 0usize;
    for (number, &end) in (chunk.first..).zip(&chunk.ends) {
        let item = chunk
            .text
            .get(start..end)
            .and_then(|raw| parse_line(number, raw));
        start = end;
        if let Some(item) = item {
            let failed = item.is_err();
            out.push(item);
            if failed {
                return out;
            }
        }
    }
    if let Some(e) = chunk.error {
        out.push(Err(e));
    }
    out
}

/// How many threads parse lines in parallel: the machine's cores, at most 4.
fn parse_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// Runs `consume` on the parsed lines of `reader` — the same items, in the same order, as
/// [`lines`] yields — while a reader thread splits the input into chunks of whole lines and
/// `workers` threads parse them (hex decoding and hashing are most of an import's pure work).
/// When `consume` returns early the threads stop at their next hand-over.
fn with_parsed_lines<P, R, T>(
    reader: R,
    workers: usize,
    chunk_bytes: usize,
    consume: impl FnOnce(&mut dyn Iterator<Item = Item<P>>) -> T,
) -> T
where
    P: Prepare,
    R: BufRead + Send,
{
    let workers = workers.max(1);
    std::thread::scope(|scope| {
        let mut to_workers = Vec::with_capacity(workers);
        let mut from_workers = Vec::with_capacity(workers);
        for _ in 0..workers {
            let (to, chunks) = mpsc::sync_channel::<Chunk>(1);
            let (parsed, from) = mpsc::sync_channel::<Vec<Item<P>>>(1);
            scope.spawn(move || {
                for chunk in chunks {
                    if parsed.send(parse_chunk(chunk)).is_err() {
                        return;
                    }
                }
            });
            to_workers.push(to);
            from_workers.push(from);
        }
        scope.spawn(move || read_chunks(reader, chunk_bytes, &to_workers));
        // Chunk k went to worker k % workers: taking results round-robin restores line order,
        // and the first worker found finished means no chunk came after.
        let mut turn = from_workers.iter().cycle();
        let mut batch = Vec::<Item<P>>::new().into_iter();
        let mut done = false;
        let mut items = std::iter::from_fn(|| {
            loop {
                if done {
                    return None;
                }
                if let Some(item) = batch.next() {
                    done = item.is_err();
                    return Some(item);
                }
                match turn.next().map(mpsc::Receiver::recv) {
                    Some(Ok(parsed)) => batch = parsed.into_iter(),
                    _ => return None,
                }
            }
        });
        let out = consume(&mut items);
        // Closing the result channels stops the workers, then the reader, before the scope
        // joins them.
        drop(from_workers);
        out
    })
}

/// Imports JSON lines from `reader` into the index (streaming; see [`ingest`](crate::ingest()) for batching and
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
    D: Derive,
    F: FnMut(&IngestStats),
{
    import_items(store, writer, lines(reader), batch_size, derive, on_batch)
}

/// The import of parsed lines, whatever parsed them.
fn import_items<D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    items: impl Iterator<Item = Item<D::Prepared>>,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<ImportStats, IndexError>
where
    D: Derive,
    F: FnMut(&IngestStats),
{
    let current = std::cell::Cell::new(0u64);
    let source = items.map(|item| {
        item.map(|(number, line)| {
            current.set(number);
            line
        })
    });
    // Staging errors name their own line; what fails after it (finishing or writing a batch)
    // is put on the last line read.
    ingest_prepared(store, writer, source, batch_size, derive, on_batch)
        .map_err(|e| with_line_number(Some(current.get()), e))
}

/// Checks every line of `reader` without writing: syntax, checksums, ids, and that stated
/// indexes run on contiguously per path. Returns the number of containers per path.
pub fn validate_jsonl<R: BufRead>(reader: R) -> Result<HashMap<IndexPath, u64>, IndexError> {
    check_items(&mut lines::<(), _>(reader))
}

/// The checks of [`validate_jsonl`] over parsed lines, whatever parsed them.
fn check_items(
    items: &mut dyn Iterator<Item = Item<()>>,
) -> Result<HashMap<IndexPath, u64>, IndexError> {
    let mut next: HashMap<IndexPath, Option<u64>> = HashMap::new();
    let mut counts: HashMap<IndexPath, u64> = HashMap::new();
    for item in items {
        let (number, PreparedLine { line, .. }) = item?;
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
/// writes nothing at all), a second pass imports as [`import_jsonl`]. In both passes the lines
/// are parsed and checked by parallel threads while this one consumes them in file order (the
/// result, errors included, is the same as a sequential read).
pub fn import_file<D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    path: &Path,
    batch_size: usize,
    derive: &mut D,
    on_batch: F,
) -> Result<ImportStats, IndexError>
where
    D: Derive,
    F: FnMut(&IngestStats),
{
    let open = || -> Result<_, IndexError> {
        Ok(BufReader::with_capacity(
            1 << 20,
            std::fs::File::open(path)?,
        ))
    };
    let workers = parse_workers();
    with_parsed_lines::<(), _, _>(open()?, workers, CHUNK_BYTES, |items| check_items(items))?;
    with_parsed_lines(open()?, workers, CHUNK_BYTES, |items| {
        import_items(store, writer, items, batch_size, derive, on_batch)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use snowline_types::Id;
    use snowline_types::hashing::sha256;

    fn good(i: u64) -> String {
        let bytes = format!("container {i}").into_bytes();
        ContainerRecord {
            path: IndexPath::XTx,
            id: Id(sha256(&bytes)),
            bytes,
            timestamp_ns: 1_600_000_000_000_000_000,
        }
        .to_json_line(None)
    }

    /// A line of a generated file: good, blank, broken JSON, not UTF-8, or a wrong id.
    fn line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            8 => (0u64..1000).prop_map(|i| good(i).into_bytes()),
            1 => Just(b"   ".to_vec()),
            1 => Just(b"{\"path\":".to_vec()),
            1 => Just(vec![b'{', 0xff, b'}']),
            1 => (0u64..1000).prop_map(|i| good(i).replacen("container", "contai", 1).into_bytes()),
        ]
    }

    fn shape(items: impl Iterator<Item = Item<()>>) -> Vec<Result<(u64, Id), String>> {
        items
            .map(|i| {
                i.map(|(n, l)| (n, l.line.record.id))
                    .map_err(|e| e.to_string())
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The parallel reader yields exactly what the sequential one does, errors included,
        /// whatever the chunk size and worker count.
        #[test]
        fn parallel_lines_equal_sequential(
            file in proptest::collection::vec(line(), 0..40),
            trailing_newline in any::<bool>(),
            workers in 1usize..4,
            chunk in 1usize..600,
        ) {
            let mut text = file.join(&b'\n');
            if trailing_newline {
                text.push(b'\n');
            }
            let want = shape(lines::<(), _>(text.as_slice()));
            let got = with_parsed_lines(text.as_slice(), workers, chunk, |items| shape(items));
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn consumer_may_stop_early() {
        let text: String = (0..200).map(|i| good(i) + "\n").collect();
        let first = with_parsed_lines::<(), _, _>(text.as_bytes(), 2, 64, |items| {
            items
                .next()
                .map(|i| i.map(|(n, _)| n).map_err(|e| e.to_string()))
        });
        assert_eq!(first, Some(Ok(1)));
        let all = with_parsed_lines::<(), _, _>(text.as_bytes(), 3, 100, |items| items.count());
        assert_eq!(all, 200);
    }
}
