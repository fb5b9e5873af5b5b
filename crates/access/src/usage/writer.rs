//! [`UsageWriter`]: records events from the request path without blocking it, and writes them in
//! batches from a background thread ([`BatchWriter`]).

use super::event::{UsageEvent, UsageEventRef};
use super::log::{UsageLog, rows_of};
use super::queue::Queue;
use super::rows::UsageRow;
use crate::batch::{BatchWriter, Round, WriterConfig};
use crate::error::Result;

/// Records usage events into a bounded in-memory queue that a background thread writes to a
/// [`UsageLog`] every `flush_interval` (or once `batch_events` are queued). `record` never
/// blocks and, unlike a channel, never wakes the writer per event (a futex wake-up per request
/// was most of metering's cost): it takes a short lock and appends the event's encoding to a
/// byte buffer ([`record_ref`](Self::record_ref) allocates nothing but that buffer's growth).
/// When the queue is full the event is dropped and counted. Dropping the writer writes what is
/// queued and stops the thread.
#[derive(Debug)]
pub struct UsageWriter {
    writer: BatchWriter<Queue>,
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
        Ok(Self {
            writer: BatchWriter::start("usage-writer", target, config)?,
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
        self.writer.record(|queue| queue.push(event));
    }

    /// Writes every event recorded before this call and waits until it is stored (tests,
    /// graceful shutdown). Returns the error of that write, if it failed.
    pub fn flush(&self) -> Result<()> {
        self.writer.flush()
    }

    /// Events dropped because the queue was full.
    pub fn dropped(&self) -> u64 {
        self.writer.dropped()
    }

    /// Events written to the store.
    pub fn written(&self) -> u64 {
        self.writer.written()
    }

    /// Events lost because a store write failed.
    pub fn failed(&self) -> u64 {
        self.writer.failed()
    }

    /// Writes what is queued, stops the thread and waits for it.
    pub fn shutdown(self) -> Result<()> {
        self.writer.shutdown()
    }
}

/// Where the writer's rows go.
enum Target {
    /// Stored in this log.
    Log(UsageLog),
    /// Handed on.
    Forward(Box<dyn FnMut(Vec<UsageRow>) -> Result<()> + Send>),
}

impl Round for Target {
    type Pending = Queue;

    fn write(&mut self, queue: &Queue, next_seq: &mut u64) -> Result<()> {
        match self {
            Target::Log(log) => log.append_queued(queue, next_seq),
            Target::Forward(forward) => forward(rows_of(queue, next_seq)),
        }
    }
}
