//! Appending a live source at a set rate (`node-rpc serve --live-rate`): each step's containers
//! go through [`ingest`] as one atomic batch with the cursor, so readers see a step whole as soon
//! as it is written.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use snowline_derive::Derive;
use snowline_store::Store;
use snowline_types::container::{ContainerLine, ContainerRecord};

use crate::error::IndexError;
use crate::ingest::ingest;
use crate::writer::IndexWriter;

/// What a [`run_live`] loop did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LiveStats {
    /// Steps taken (batches offered).
    pub steps: u64,
    /// Containers added to the index.
    pub added: u64,
    /// Containers the index already held (made again after a restart, see [`run_live`]).
    pub duplicates: u64,
}

/// Calls `next` about `rate` containers per second and writes what each call returns as one
/// batch (with what `derive` adds and the cursor), until `stop` receives a message or its
/// sender is dropped (it wakes at once). A step the index already holds whole (a deterministic
/// source replaying what a previous run appended) is not paced, so a restart catches up at
/// once; a slow step delays the next one rather than bunching the ones after it.
pub fn run_live<D, F>(
    store: &Store,
    writer: &mut IndexWriter,
    derive: &mut D,
    rate: f64,
    stop: &Receiver<()>,
    mut next: F,
) -> Result<LiveStats, IndexError>
where
    D: Derive,
    F: FnMut() -> Result<Vec<ContainerRecord>, IndexError>,
{
    let per_container = Duration::try_from_secs_f64(1.0 / rate)
        .map_err(|_| IndexError::Source(format!("live rate {rate} is not a positive number")))?;
    let mut stats = LiveStats::default();
    let mut due = Instant::now();
    loop {
        match stop.recv_timeout(due.saturating_duration_since(Instant::now())) {
            Err(RecvTimeoutError::Timeout) => {}
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return Ok(stats),
        }
        let records = next()?;
        let n = u32::try_from(records.len()).unwrap_or(u32::MAX);
        let lines = records.into_iter().map(|record| {
            Ok(ContainerLine {
                record,
                index: None,
            })
        });
        let step = ingest(store, writer, lines, usize::MAX, derive, |_| {})?;
        stats.steps += 1;
        stats.added += step.added;
        stats.duplicates += step.duplicates;
        if step.added > 0 {
            due = (due + per_container * n).max(Instant::now());
        }
    }
}
