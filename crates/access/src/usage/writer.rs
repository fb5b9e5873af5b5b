//! [`UsageWriter`]: records events from the request path without blocking it, and writes them in
//! batches from a background thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::event::{UsageEvent, UsageEventRef};
use super::log::{UsageLog, rows_of};
use super::queue::Queue;
use super::rows::UsageRow;
use crate::error::{AccessError, Result};

/// Tuning of a [`UsageWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterConfig {
    /// Events the queue holds before `record` starts dropping.
    pub capacity: usize,
    /// A batch is written once it holds this many events...
    pub batch_events: usize,
    /// ...or at the latest this long after the previous write.
    pub flush_interval: Duration,
}

impl Default for WriterConfig {
    fn default() -> Self {
        Self {
            capacity: 65_536,
            batch_events: 1_000,
            flush_interval: Duration::from_millis(200),
        }
    }
}

/// What the request path and the writer thread share: the queued events (encoded), pending
/// flush requests, and the stop flag, under one short-held lock.
#[derive(Default)]
struct State {
    events: Queue,
    flushes: Vec<SyncSender<Result<()>>>,
    stop: bool,
}

/// Counters shared with the background thread.
#[derive(Debug, Default)]
struct Counters {
    dropped: AtomicU64,
    written: AtomicU64,
    failed: AtomicU64,
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the writer early: a full batch, a flush, or stop.
    wake: Condvar,
    counters: Counters,
    config: WriterConfig,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock means a panic while pushing to a Vec: the data is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Records usage events into a bounded in-memory queue that a background thread writes to a
/// [`UsageLog`] every `flush_interval` (or once `batch_events` are queued). `record` never
/// blocks and, unlike a channel, never wakes the writer per event (a futex wake-up per request
/// was most of metering's cost): it takes a short lock and appends the event's encoding to a
/// byte buffer ([`record_ref`](Self::record_ref) allocates nothing but that buffer's growth).
/// When the queue is full the event is dropped and counted. Dropping the writer writes what is
/// queued and stops the thread.
pub struct UsageWriter {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for UsageWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsageWriter")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl UsageWriter {
    /// Starts the background thread writing into `log`.
    pub fn start(log: UsageLog, config: WriterConfig) -> Result<Self> {
        Self::start_with(Target::Log(log), config)
    }

    /// Starts the background thread handing each round's rows to `forward` instead of writing
    /// them: a fleet's node sends them to every node (itself included), which store them with
    /// [`UsageLog::write_rows`]. An error from `forward` counts the round's events as failed.
    pub fn start_forwarding(
        config: WriterConfig,
        forward: impl FnMut(Vec<UsageRow>) -> Result<()> + Send + 'static,
    ) -> Result<Self> {
        Self::start_with(Target::Forward(Box::new(forward)), config)
    }

    fn start_with(target: Target, config: WriterConfig) -> Result<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            counters: Counters::default(),
            config,
        });
        let worker = Worker {
            target,
            shared: Arc::clone(&shared),
            next_seq: run_seq_base(),
            spare: Queue::default(),
        };
        let thread = std::thread::Builder::new()
            .name("usage-writer".to_owned())
            .spawn(move || worker.run())
            .map_err(|e| AccessError::Thread(e.to_string()))?;
        Ok(Self {
            shared,
            thread: Some(thread),
        })
    }

    /// Queues `event` without blocking; drops and counts it when the queue is full (or the
    /// writer has stopped).
    pub fn record(&self, event: UsageEvent) {
        self.record_ref(&event.as_ref());
    }

    /// [`record`](Self::record) for a borrowed event: its strings are copied into the queue's
    /// buffer, so the caller need not own (or allocate) them.
    pub fn record_ref(&self, event: &UsageEventRef<'_>) {
        let config = &self.shared.config;
        let mut st = self.shared.lock();
        if st.stop || st.events.len() >= config.capacity.max(1) || !st.events.push(event) {
            drop(st);
            self.shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let full = st.events.len() == config.batch_events.max(1);
        drop(st);
        if full {
            self.shared.wake.notify_one();
        }
    }

    /// Writes every event recorded before this call and waits until it is stored (tests,
    /// graceful shutdown). Returns the error of that write, if it failed.
    pub fn flush(&self) -> Result<()> {
        let (ack_tx, ack_rx) = mpsc::sync_channel(1);
        {
            let mut st = self.shared.lock();
            if st.stop {
                return Err(AccessError::WriterStopped);
            }
            st.flushes.push(ack_tx);
        }
        self.shared.wake.notify_one();
        ack_rx.recv().map_err(|_| AccessError::WriterStopped)?
    }

    /// Events dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.shared.counters.dropped.load(Ordering::Relaxed)
    }

    /// Events written to the store.
    pub fn written(&self) -> u64 {
        self.shared.counters.written.load(Ordering::Relaxed)
    }

    /// Events lost because a store write failed.
    pub fn failed(&self) -> u64 {
        self.shared.counters.failed.load(Ordering::Relaxed)
    }

    /// Writes what is queued, stops the thread and waits for it.
    pub fn shutdown(mut self) -> Result<()> {
        let flushed = self.flush();
        self.stop();
        flushed
    }

    fn stop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for UsageWriter {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A sequence base unique to this run: random high 32 bits (time-based if the random source
/// fails), so keys `(timestamp_ms, seq)` of two runs never collide in the same millisecond.
pub(crate) fn run_seq_base() -> u64 {
    let mut b = [0u8; 4];
    let high = match getrandom::fill(&mut b) {
        Ok(()) => u32::from_be_bytes(b),
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ (d.as_secs() as u32)),
    };
    u64::from(high) << 32
}

/// Where the writer's rows go.
enum Target {
    /// Stored in this log.
    Log(UsageLog),
    /// Handed on.
    Forward(Box<dyn FnMut(Vec<UsageRow>) -> Result<()> + Send>),
}

struct Worker {
    target: Target,
    shared: Arc<Shared>,
    next_seq: u64,
    /// The buffer swapped in for the queue at each round, so both keep their capacity.
    spare: Queue,
}

impl Worker {
    fn run(mut self) {
        let config = self.shared.config;
        let mut st = self.shared.lock();
        loop {
            let idle = !st.stop && st.flushes.is_empty();
            if idle && st.events.len() < config.batch_events.max(1) {
                // Sleep until the interval passes or a full batch, a flush or stop wakes us.
                st = self
                    .shared
                    .wake
                    .wait_timeout(st, config.flush_interval)
                    .map_or_else(|p| p.into_inner().0, |(g, _)| g);
            }
            std::mem::swap(&mut st.events, &mut self.spare);
            // One flush request per round: later ones are answered by the next round's write.
            let ack = (!st.flushes.is_empty()).then(|| st.flushes.remove(0));
            let stop = st.stop && st.flushes.is_empty();
            drop(st);
            let result = self.write();
            if let Some(ack) = ack {
                let _ = ack.send(result);
            }
            if stop {
                return;
            }
            st = self.shared.lock();
        }
    }

    /// Writes and empties the events taken from the queue, counting those written or lost.
    fn write(&mut self) -> Result<()> {
        let n = self.spare.len() as u64;
        let result = match &mut self.target {
            _ if self.spare.is_empty() => Ok(()),
            Target::Log(log) => log.append_queued(&self.spare, &mut self.next_seq),
            Target::Forward(forward) => forward(rows_of(&self.spare, &mut self.next_seq)),
        };
        self.spare.clear();
        let counter = if result.is_ok() {
            &self.shared.counters.written
        } else {
            &self.shared.counters.failed
        };
        counter.fetch_add(n, Ordering::Relaxed);
        result
    }
}
