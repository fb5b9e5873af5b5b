//! [`RpcMeter`]: records calls from the request path without blocking it, writes them in
//! batches from a background thread ([`BatchWriter`]), and prunes what is past retention.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::call::RpcCall;
use super::log::RpcUsageLog;
use crate::batch::{BatchWriter, Round, WriterConfig};
use crate::error::Result;

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

/// Queues calls in memory (bounded: a full queue drops and counts) and writes them every
/// `flush_interval` in one atomic batch, so the store holds whole calls only; a crash loses at
/// most the calls of the last interval. Dropping it writes what is queued.
#[derive(Debug)]
pub struct RpcMeter {
    writer: BatchWriter<Vec<RpcCall>>,
    pruned: Arc<AtomicU64>,
}

impl RpcMeter {
    /// Starts the background thread writing into `log` (opened read-write).
    pub fn start(log: RpcUsageLog, config: MeterConfig) -> Result<Self> {
        let pruned = Arc::new(AtomicU64::new(0));
        let round = MeterRound {
            log,
            retention: config.retention,
            prune_every: config.prune_every,
            pruned_at: None,
            pruned: Arc::clone(&pruned),
        };
        // Written by the interval only: no batch size wakes the thread early.
        let writer_config = WriterConfig {
            capacity: config.capacity,
            batch_events: usize::MAX,
            flush_interval: config.flush_interval,
        };
        Ok(Self {
            writer: BatchWriter::start("rpc-meter", round, writer_config)?,
            pruned,
        })
    }

    /// Queues `call` without blocking; drops and counts it when the queue is full.
    pub fn record(&self, call: RpcCall) {
        self.writer.record(|calls| {
            calls.push(call);
            true
        });
    }

    /// Calls dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.writer.dropped()
    }

    /// Calls written to the store.
    pub fn written(&self) -> u64 {
        self.writer.written()
    }

    /// Calls lost because a store write failed.
    pub fn failed(&self) -> u64 {
        self.writer.failed()
    }

    /// Calls deleted by retention.
    pub fn pruned(&self) -> u64 {
        self.pruned.load(Ordering::Relaxed)
    }
}

/// A round of the meter: writes the calls, then prunes when due.
struct MeterRound {
    log: RpcUsageLog,
    retention: Option<Duration>,
    prune_every: Duration,
    pruned_at: Option<Instant>,
    pruned: Arc<AtomicU64>,
}

impl Round for MeterRound {
    type Pending = Vec<RpcCall>;

    fn write(&mut self, calls: &Vec<RpcCall>, next_seq: &mut u64) -> Result<()> {
        self.log.append(calls, next_seq)
    }

    fn after_round(&mut self) {
        let due = self
            .pruned_at
            .is_none_or(|t| t.elapsed() >= self.prune_every);
        if let Some(keep) = self.retention.filter(|_| due) {
            self.pruned_at = Some(Instant::now());
            let now_ms = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            let cutoff = now_ms.saturating_sub(keep.as_millis() as u64);
            if let Ok(n) = self.log.prune_before(cutoff) {
                self.pruned.fetch_add(n, Ordering::Relaxed);
            }
        }
    }
}
