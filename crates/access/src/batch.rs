//! [`BatchWriter`]: the bounded, batched, background writer behind both meters. The request path
//! appends to an in-memory queue under a short lock; a thread takes the whole queue every
//! interval (or once a batch is full, or on a flush) and hands it to a [`Round`], which writes
//! it in one batch.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{AccessError, Result};

/// Tuning of a [`UsageWriter`](crate::usage::UsageWriter) (and of the writer under an
/// [`RpcMeter`](crate::rpc::RpcMeter)).
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

/// What a writer queues: entries awaiting the next round.
pub(crate) trait Pending: Default + Send + 'static {
    /// Entries queued.
    fn len(&self) -> usize;
    /// Forgets every entry, keeping the buffer's capacity.
    fn clear(&mut self);
}

impl<T: Send + 'static> Pending for Vec<T> {
    fn len(&self) -> usize {
        Vec::len(self)
    }

    fn clear(&mut self) {
        Vec::clear(self);
    }
}

/// What a writer's rounds do with the queue they take.
pub(crate) trait Round: Send + 'static {
    /// The queue's type.
    type Pending: Pending;
    /// Writes `pending` (never empty) in one batch, keys numbered from `next_seq` (advanced).
    fn write(&mut self, pending: &Self::Pending, next_seq: &mut u64) -> Result<()>;
    /// Runs after every round but the last (retention, for one).
    fn after_round(&mut self) {}
}

/// What the request path and the writer thread share: the queue, pending flush requests, and
/// the stop flag, under one short-held lock.
#[derive(Default)]
struct State<P> {
    queue: P,
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

struct Shared<P> {
    state: Mutex<State<P>>,
    /// Wakes the writer early: a full batch, a flush, or stop.
    wake: Condvar,
    counters: Counters,
    config: WriterConfig,
}

impl<P> Shared<P> {
    fn lock(&self) -> MutexGuard<'_, State<P>> {
        // A poisoned lock means a panic while pushing to a buffer: the data is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Queues entries in memory (bounded: a full queue drops and counts) and writes them from a
/// background thread every `flush_interval`, or once `batch_events` are queued, in one batch
/// per round; a crash loses at most the entries of the last interval. `record` never blocks and
/// never wakes the thread per entry (a futex wake-up per request was most of metering's cost).
/// Dropping it writes what is queued and stops the thread.
pub(crate) struct BatchWriter<P> {
    shared: Arc<Shared<P>>,
    thread: Option<JoinHandle<()>>,
}

impl<P> std::fmt::Debug for BatchWriter<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchWriter")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl<P: Pending> BatchWriter<P> {
    /// Starts the thread `name`, handing each round's queue to `round`.
    pub(crate) fn start<R: Round<Pending = P>>(
        name: &str,
        round: R,
        config: WriterConfig,
    ) -> Result<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            counters: Counters::default(),
            config,
        });
        let worker = Worker {
            round,
            shared: Arc::clone(&shared),
            next_seq: run_seq_base(),
            spare: P::default(),
        };
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || worker.run())
            .map_err(|e| AccessError::Thread(e.to_string()))?;
        Ok(Self {
            shared,
            thread: Some(thread),
        })
    }

    /// Queues an entry with `push` (which returns whether it queued one) without blocking;
    /// drops and counts it when the queue is full, the writer has stopped, or `push` refused.
    #[inline]
    pub(crate) fn record(&self, push: impl FnOnce(&mut P) -> bool) {
        let config = &self.shared.config;
        let mut st = self.shared.lock();
        if st.stop || st.queue.len() >= config.capacity.max(1) || !push(&mut st.queue) {
            drop(st);
            self.shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let full = st.queue.len() == config.batch_events.max(1);
        drop(st);
        if full {
            self.shared.wake.notify_one();
        }
    }

    /// Writes every entry recorded before this call and waits until it is stored. Returns the
    /// error of that write, if it failed.
    pub(crate) fn flush(&self) -> Result<()> {
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

    /// Entries dropped because the queue was full.
    pub(crate) fn dropped(&self) -> u64 {
        self.shared.counters.dropped.load(Ordering::Relaxed)
    }

    /// Entries written.
    pub(crate) fn written(&self) -> u64 {
        self.shared.counters.written.load(Ordering::Relaxed)
    }

    /// Entries lost because a write failed.
    pub(crate) fn failed(&self) -> u64 {
        self.shared.counters.failed.load(Ordering::Relaxed)
    }

    /// Writes what is queued, stops the thread and waits for it.
    pub(crate) fn shutdown(mut self) -> Result<()> {
        let flushed = self.flush();
        self.stop();
        flushed
    }
}

impl<P> BatchWriter<P> {
    fn stop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl<P> Drop for BatchWriter<P> {
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

struct Worker<R: Round> {
    round: R,
    shared: Arc<Shared<R::Pending>>,
    next_seq: u64,
    /// The buffer swapped in for the queue at each round, so both keep their capacity.
    spare: R::Pending,
}

impl<R: Round> Worker<R> {
    fn run(mut self) {
        let config = self.shared.config;
        let mut st = self.shared.lock();
        loop {
            let idle = !st.stop && st.flushes.is_empty();
            if idle && st.queue.len() < config.batch_events.max(1) {
                // Sleep until the interval passes or a full batch, a flush or stop wakes us.
                st = self
                    .shared
                    .wake
                    .wait_timeout(st, config.flush_interval)
                    .map_or_else(|p| p.into_inner().0, |(g, _)| g);
            }
            std::mem::swap(&mut st.queue, &mut self.spare);
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
            self.round.after_round();
            st = self.shared.lock();
        }
    }

    /// Writes and empties the entries taken from the queue, counting those written or lost.
    fn write(&mut self) -> Result<()> {
        let n = self.spare.len() as u64;
        let result = if n == 0 {
            Ok(())
        } else {
            self.round.write(&self.spare, &mut self.next_seq)
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
