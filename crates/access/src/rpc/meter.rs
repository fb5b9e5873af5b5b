//! [`RpcMeter`]: records calls from the request path without blocking it, writes them in
//! batches from a background thread, and prunes what is past retention.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::call::RpcCall;
use super::log::RpcUsageLog;
use crate::error::{AccessError, Result};
use crate::usage::writer::run_seq_base;

/// Tuning of an [`RpcMeter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeterConfig {
    /// Calls queued before `record` starts dropping.
    pub capacity: usize,
    /// The queue is written at least this often.
    pub flush_interval: Duration,
    /// Calls older than this are deleted, checked every `prune_every`; `None` keeps all.
    pub retention: Option<Duration>,
    /// How often retention is applied.
    pub prune_every: Duration,
}

impl Default for MeterConfig {
    fn default() -> Self {
        Self {
            capacity: 65_536,
            flush_interval: Duration::from_millis(200),
            retention: Some(Duration::from_secs(30 * 86_400)),
            prune_every: Duration::from_secs(3_600),
        }
    }
}

#[derive(Default)]
struct State {
    calls: Vec<RpcCall>,
    stop: bool,
}

#[derive(Default)]
struct Counters {
    dropped: AtomicU64,
    written: AtomicU64,
    failed: AtomicU64,
    pruned: AtomicU64,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    counters: Counters,
    config: MeterConfig,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A poisoned lock means a panic while pushing to a Vec: the data is still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Queues calls in memory (bounded: a full queue drops and counts) and writes them every
/// `flush_interval` in one atomic batch, so the store holds whole calls only; a crash loses at
/// most the calls of the last interval. Dropping it writes what is queued.
pub struct RpcMeter {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for RpcMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RpcMeter")
            .field("config", &self.shared.config)
            .finish_non_exhaustive()
    }
}

impl RpcMeter {
    /// Starts the background thread writing into `log` (opened read-write).
    pub fn start(log: RpcUsageLog, config: MeterConfig) -> Result<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            counters: Counters::default(),
            config,
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("rpc-meter".to_owned())
            .spawn(move || run(&worker, &log))
            .map_err(|e| AccessError::Thread(e.to_string()))?;
        Ok(Self {
            shared,
            thread: Some(thread),
        })
    }

    /// Queues `call` without blocking; drops and counts it when the queue is full.
    pub fn record(&self, call: RpcCall) {
        let mut st = self.shared.lock();
        if st.stop || st.calls.len() >= self.shared.config.capacity.max(1) {
            drop(st);
            self.shared.counters.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        st.calls.push(call);
    }

    /// Calls dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.shared.counters.dropped.load(Ordering::Relaxed)
    }

    /// Calls written to the store.
    pub fn written(&self) -> u64 {
        self.shared.counters.written.load(Ordering::Relaxed)
    }

    /// Calls lost because a store write failed.
    pub fn failed(&self) -> u64 {
        self.shared.counters.failed.load(Ordering::Relaxed)
    }

    /// Calls deleted by retention.
    pub fn pruned(&self) -> u64 {
        self.shared.counters.pruned.load(Ordering::Relaxed)
    }
}

impl Drop for RpcMeter {
    fn drop(&mut self) {
        self.shared.lock().stop = true;
        self.shared.wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The writer thread: sleeps an interval (or until stopped), writes what is queued, prunes
/// when due; on stop writes what is left and returns.
fn run(shared: &Shared, log: &RpcUsageLog) {
    let config = shared.config;
    let mut next_seq = run_seq_base();
    let mut pending = Vec::new();
    let mut pruned_at: Option<Instant> = None;
    loop {
        let mut st = shared.lock();
        if !st.stop {
            st = shared
                .wake
                .wait_timeout(st, config.flush_interval)
                .map_or_else(|p| p.into_inner().0, |(g, _)| g);
        }
        std::mem::swap(&mut st.calls, &mut pending);
        let stop = st.stop;
        drop(st);
        let n = pending.len() as u64;
        let counter = match log.append(&pending, &mut next_seq) {
            Ok(()) => &shared.counters.written,
            Err(_) => &shared.counters.failed,
        };
        counter.fetch_add(n, Ordering::Relaxed);
        pending.clear();
        if stop {
            return;
        }
        let due = pruned_at.is_none_or(|t| t.elapsed() >= config.prune_every);
        if let Some(keep) = config.retention.filter(|_| due) {
            pruned_at = Some(Instant::now());
            let now_ms = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            let cutoff = now_ms.saturating_sub(keep.as_millis() as u64);
            if let Ok(n) = log.prune_before(cutoff) {
                shared.counters.pruned.fetch_add(n, Ordering::Relaxed);
            }
        }
    }
}
