//! The replica's side: a pull consumer of the stream from the first message after the store's
//! position, pulling a bounded number of bytes at a time, each message offered to the [`Applier`]; a refused one (a gap, a bad
//! checksum, a batch the store refuses) is counted and the consumer started again from the
//! last applied batch. The stream's newest batch is looked up every second, for the lag.
//! Batches are applied without the store's write-ahead log: the stream is the log.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_nats::jetstream::consumer::{AckPolicy, DeliverPolicy, pull};
use async_nats::jetstream::stream;
use futures_util::StreamExt;
use snowline_store::{JournalRole, Store};

use crate::apply::{Applier, Outcome};
use crate::nats::{FleetConfig, connect, first_after, head, part_of};
use crate::status::FleetStatus;

/// Messages asked for per pull.
const PULL_MESSAGES: usize = 256;
/// Bytes asked for per pull: two pulls in flight stay well under the 64 MiB a NATS server lets
/// a client fall behind by before it cuts it off as a slow consumer.
const PULL_BYTES: usize = 16 << 20;

/// Applies the stream's batches to `store` until `shutdown`, reconnecting with a backoff. The
/// store must already be a replica (`Store::set_journal_role`).
pub async fn replicate(
    store: Arc<Store>,
    config: FleetConfig,
    status: Arc<FleetStatus>,
    shutdown: impl Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    let mut backoff = Duration::from_millis(100);
    loop {
        tokio::select! {
            result = replicate_connected(&store, &config, &status) => {
                if let Err(e) = result {
                    tracing::warn!(error = %e, "replicating batches");
                    status.failed(&e);
                }
            }
            () = &mut shutdown => return,
        }
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = &mut shutdown => return,
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// The newest batch on the stream, into the status.
async fn look_at_head(
    stream: &stream::Stream,
    subject: &str,
    status: &FleetStatus,
) -> Result<(), String> {
    let h = head(stream, subject).await?;
    status.update(|s| {
        s.connected = true;
        match h {
            Some((seq, ms)) if s.head.is_none_or(|old| old <= seq) => {
                s.head = Some(seq);
                s.head_ms = ms;
            }
            None => s.head = Some(s.head.unwrap_or(0)),
            Some(_) => {}
        }
    });
    Ok(())
}

/// One connection's worth of replication; returns only on an error.
async fn replicate_connected(
    store: &Arc<Store>,
    config: &FleetConfig,
    status: &FleetStatus,
) -> Result<(), String> {
    if store.journal_role() != JournalRole::Replica {
        return Err("the store is not a replica".to_owned());
    }
    // The stream is the replica's log: batches are applied without the write-ahead log and
    // reach disk in atomic flushes with the position, so a crash loses only batches the
    // stream still holds and the replica fetches them again from its consistent position.
    store
        .set_unlogged_writes(true)
        .map_err(|e| format!("applying without the write-ahead log: {e}"))?;
    let (_client, js) = connect(config).await?;
    let stream = js
        .get_stream(&config.stream)
        .await
        .map_err(|e| format!("stream {}: {e}", config.stream))?;
    let subject = config.subject();
    let applier = Arc::new(Mutex::new(
        Applier::new(Arc::clone(store)).map_err(|e| format!("reading the position: {e}"))?,
    ));
    let position = applier
        .lock()
        .map_err(|_| "applier lock poisoned")?
        .position();
    look_at_head(&stream, &subject, status).await?;
    let mut from = first_after(&stream, position).await?;
    // Refusals in a row: each waits longer before fetching again (200 ms doubling to 6.4 s).
    let mut refusals = 0u32;
    loop {
        // An ephemeral consumer without acknowledgements: the replica's position is its own.
        let consumer = stream
            .create_consumer(pull::Config {
                deliver_policy: DeliverPolicy::ByStartSequence {
                    start_sequence: from,
                },
                ack_policy: AckPolicy::None,
                inactive_threshold: Duration::from_secs(60),
                ..pull::Config::default()
            })
            .await
            .map_err(|e| format!("creating a consumer from message {from}: {e}"))?;
        // Pulled a bounded number of bytes at a time, so a replica busy applying large batches
        // never has more in flight than the server lets a client fall behind by (a slow
        // consumer is cut off).
        let mut messages = consumer
            .stream()
            .max_messages_per_batch(PULL_MESSAGES)
            .max_bytes_per_batch(PULL_BYTES)
            .heartbeat(Duration::from_secs(5))
            .messages()
            .await
            .map_err(|e| format!("reading the stream: {e}"))?;
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        // Read until a message is refused; then start again after the last applied batch.
        let pause = loop {
            let message = tokio::select! {
                m = messages.next() => m,
                _ = tick.tick() => {
                    look_at_head(&stream, &subject, status).await?;
                    continue;
                }
            };
            let message = message
                .ok_or_else(|| "the stream's consumer ended".to_owned())?
                .map_err(|e| format!("reading the stream: {e}"))?;
            let stream_seq = message
                .info()
                .map_err(|e| format!("a message without its place in the stream: {e}"))?
                .stream_sequence;
            let part = match part_of(message.headers.as_ref()) {
                Ok(p) => p,
                Err(e) => {
                    status.record(
                        &Outcome::Refused(0, format!("message {stream_seq}: {e}")),
                        0,
                    );
                    refusals = refusals.saturating_add(1);
                    break Duration::from_secs(1);
                }
            };
            let payload = message.payload.clone();
            let (applier2, part2) = (Arc::clone(&applier), part.clone());
            let outcome = tokio::task::spawn_blocking(move || match applier2.lock() {
                Ok(mut a) => a.offer(&part2, &payload),
                Err(_) => Outcome::Refused(part2.seq, "applier lock poisoned".to_owned()),
            })
            .await
            .map_err(|e| format!("apply task: {e}"))?;
            status.record(&outcome, part.committed_ms);
            match outcome {
                Outcome::Applied(_) => {
                    from = stream_seq + 1;
                    refusals = 0;
                }
                Outcome::Partial | Outcome::Duplicate(_) => {}
                Outcome::Gap { .. } | Outcome::BadChecksum(_) | Outcome::Refused(..) => {
                    refusals = refusals.saturating_add(1);
                    break Duration::from_millis(100) * (1u32 << refusals.min(6));
                }
            }
        };
        if let Ok(mut a) = applier.lock() {
            a.reset();
        }
        tokio::time::sleep(pause).await;
    }
}
