//! [`UsageWriter`]: records events from the request path without blocking it, and writes them in
//! batches from a background thread.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::event::UsageEvent;
use super::log::UsageLog;
use crate::error::{AccessError, Result};

/// Tuning of a [`UsageWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriterConfig {
    /// Events the channel holds before `record` starts dropping.
    pub capacity: usize,
    /// A batch is written once it holds this many events...
    pub batch_events: usize,
    /// ...or once its first event has waited this long.
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

enum Msg {
    Event(UsageEvent),
    Flush(SyncSender<Result<()>>),
    Stop,
}

/// Counters shared with the background thread.
#[derive(Debug, Default)]
struct Counters {
    dropped: AtomicU64,
    written: AtomicU64,
    failed: AtomicU64,
}

/// Records usage events on a bounded channel that a background thread drains into a
/// [`UsageLog`]. `record` never blocks: when the channel is full the event is dropped and
/// counted. Dropping the writer writes what is queued and stops the thread.
#[derive(Debug)]
pub struct UsageWriter {
    tx: SyncSender<Msg>,
    counters: Arc<Counters>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Msg::Event(_) => "Event",
            Msg::Flush(_) => "Flush",
            Msg::Stop => "Stop",
        })
    }
}

impl UsageWriter {
    /// Starts the background thread writing into `log`.
    pub fn start(log: UsageLog, config: WriterConfig) -> Result<Self> {
        let (tx, rx) = mpsc::sync_channel(config.capacity.max(1));
        let counters = Arc::new(Counters::default());
        let worker = Worker {
            log,
            config,
            counters: Arc::clone(&counters),
            next_seq: run_seq_base(),
        };
        let thread = std::thread::Builder::new()
            .name("usage-writer".to_owned())
            .spawn(move || worker.run(&rx))
            .map_err(|e| AccessError::Thread(e.to_string()))?;
        Ok(Self {
            tx,
            counters,
            thread: Some(thread),
        })
    }

    /// Queues `event` without blocking; drops and counts it when the queue is full (or the
    /// thread has stopped).
    pub fn record(&self, event: UsageEvent) {
        match self.tx.try_send(Msg::Event(event)) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.counters.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Writes every event recorded before this call and waits until it is stored (tests,
    /// graceful shutdown). Returns the error of that write, if it failed.
    pub fn flush(&self) -> Result<()> {
        let (ack_tx, ack_rx) = mpsc::sync_channel(1);
        self.tx
            .send(Msg::Flush(ack_tx))
            .map_err(|_| AccessError::WriterStopped)?;
        ack_rx.recv().map_err(|_| AccessError::WriterStopped)?
    }

    /// Events dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.counters.dropped.load(Ordering::Relaxed)
    }

    /// Events written to the store.
    pub fn written(&self) -> u64 {
        self.counters.written.load(Ordering::Relaxed)
    }

    /// Events lost because a store write failed.
    pub fn failed(&self) -> u64 {
        self.counters.failed.load(Ordering::Relaxed)
    }

    /// Writes what is queued, stops the thread and waits for it.
    pub fn shutdown(mut self) -> Result<()> {
        let flushed = self.flush();
        self.stop();
        flushed
    }

    fn stop(&mut self) {
        // A send error means the thread is gone already; joining still reaps it.
        let _ = self.tx.send(Msg::Stop);
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
fn run_seq_base() -> u64 {
    let mut b = [0u8; 4];
    let high = match getrandom::fill(&mut b) {
        Ok(()) => u32::from_be_bytes(b),
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ (d.as_secs() as u32)),
    };
    u64::from(high) << 32
}

struct Worker {
    log: UsageLog,
    config: WriterConfig,
    counters: Arc<Counters>,
    next_seq: u64,
}

impl Worker {
    fn run(mut self, rx: &Receiver<Msg>) {
        let mut buf: Vec<UsageEvent> = Vec::with_capacity(self.config.batch_events);
        let mut deadline: Option<Instant> = None;
        loop {
            let msg = match deadline {
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            match msg {
                Ok(Msg::Event(e)) => {
                    if buf.is_empty() {
                        deadline = Some(Instant::now() + self.config.flush_interval);
                    }
                    buf.push(e);
                    if buf.len() >= self.config.batch_events {
                        let _ = self.write(&mut buf);
                        deadline = None;
                    }
                }
                Ok(Msg::Flush(ack)) => {
                    let result = self.write(&mut buf);
                    deadline = None;
                    let _ = ack.send(result);
                }
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.write(&mut buf);
                    deadline = None;
                }
                Ok(Msg::Stop) | Err(RecvTimeoutError::Disconnected) => {
                    let _ = self.write(&mut buf);
                    return;
                }
            }
        }
    }

    /// Writes and empties `buf`, counting the events written or lost.
    fn write(&mut self, buf: &mut Vec<UsageEvent>) -> Result<()> {
        let n = buf.len() as u64;
        let result = self.log.append(buf, &mut self.next_seq);
        buf.clear();
        let counter = if result.is_ok() {
            &self.counters.written
        } else {
            &self.counters.failed
        };
        counter.fetch_add(n, Ordering::Relaxed);
        result
    }
}
