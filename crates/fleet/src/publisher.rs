//! The primary's side: every batch its store committed, read from the outbox in order and
//! published with its sequence as the message id; once the stream acknowledges them the outbox
//! lets them go. After a crash or a lost connection it starts again after the newest batch the
//! stream holds, so nothing is skipped and a republish is dropped by the stream.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use snowline_store::{Store, StoreError};
use tokio::sync::Notify;

use crate::nats::{FleetConfig, connect, head};
use crate::status::FleetStatus;
use crate::wire::parts_of;

/// Batches read from the outbox per round.
const ROUND: usize = 512;
/// Bytes of frames read from the outbox per round (at least one batch).
const ROUND_BYTES: usize = 32 << 20;

/// Runs `f` on the blocking pool (the store's calls block).
pub(crate) async fn blocking<T: Send + 'static>(
    store: &Arc<Store>,
    f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || f(&store))
        .await
        .map_err(|e| format!("store task: {e}"))?
        .map_err(|e| e.to_string())
}

/// Publishes `store`'s batches until `shutdown`, reconnecting with a backoff; the store must
/// already be a primary (`Store::set_journal_role`, before anything writes).
pub async fn publish(
    store: Arc<Store>,
    config: FleetConfig,
    status: Arc<FleetStatus>,
    shutdown: impl Future<Output = ()>,
) {
    let wake = Arc::new(Notify::new());
    {
        let (wake, status) = (Arc::clone(&wake), Arc::clone(&status));
        store.on_commit(move |seq| {
            status.update(|s| s.position = s.position.max(seq));
            wake.notify_one();
        });
    }
    tokio::pin!(shutdown);
    let mut backoff = Duration::from_millis(100);
    loop {
        tokio::select! {
            result = publish_connected(&store, &config, &status, &wake) => {
                if let Err(e) = result {
                    tracing::warn!(error = %e, "publishing batches");
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

/// One connection's worth of publishing; returns only on an error.
async fn publish_connected(
    store: &Arc<Store>,
    config: &FleetConfig,
    status: &FleetStatus,
    wake: &Notify,
) -> Result<(), String> {
    let (client, js) = connect(config).await?;
    let stream = js
        .get_or_create_stream(config.stream_config())
        .await
        .map_err(|e| format!("creating stream {}: {e}", config.stream))?;
    let subject = config.subject();
    let max_part = client
        .server_info()
        .max_payload
        .saturating_sub(16 << 10)
        .max(4 << 10);
    let pos = blocking(store, Store::journal_position).await?;
    let head = head(&stream, &subject).await?;
    let mut acked = pos.acked;
    if let Some((h, _)) = head {
        if h > pos.seq {
            return Err(format!(
                "the stream holds batch {h} but this store has committed only {}: it is not \
                 this stream's primary, or a replica promoted before it applied every batch",
                pos.seq
            ));
        }
        if h > acked {
            // Published before a crash, acknowledged after it: the stream has them.
            blocking(store, move |s| s.journal_acked(h)).await?;
            acked = h;
        }
    }
    status.update(|s| {
        s.connected = true;
        s.acked = acked;
        s.position = s.position.max(pos.seq);
        s.head = Some(head.map_or(0, |h| h.0));
        s.head_ms = head.map_or(0, |h| h.1);
        s.last_error = None;
    });
    loop {
        let after = acked;
        let entries =
            blocking(store, move |s| s.journal_entries(after, ROUND, ROUND_BYTES)).await?;
        let Some(first) = entries.first() else {
            // Nothing to send: wait for a commit, looking at the connection every second.
            tokio::select! {
                () = wake.notified() => {}
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
            if !matches!(
                client.connection_state(),
                async_nats::connection::State::Connected
            ) {
                return Err("the connection to NATS was lost".to_owned());
            }
            continue;
        };
        if first.seq != acked + 1 {
            return Err(format!(
                "batch {} is not in the outbox (it holds {} next): the stream cannot continue; \
                 start the replicas from a checkpoint taken after it",
                acked + 1,
                first.seq
            ));
        }
        // What a replica may apply must survive a crash of this machine first.
        blocking(store, Store::sync_wal).await?;
        let mut pending = Vec::new();
        for e in &entries {
            for (part, bytes) in parts_of(e.seq, e.committed_ms, &e.frame, max_part) {
                let mut headers = async_nats::HeaderMap::new();
                for (name, value) in part.headers() {
                    headers.insert(name, value.as_str());
                }
                let ack = js
                    .publish_with_headers(subject.clone(), headers, Bytes::copy_from_slice(bytes))
                    .await
                    .map_err(|e| format!("publishing batch {}: {e}", part.seq))?;
                pending.push((e.seq, ack));
            }
        }
        let mut last = acked;
        for (seq, ack) in pending {
            ack.await
                .map_err(|e| format!("batch {seq} was not acknowledged: {e}"))?;
            last = seq;
        }
        blocking(store, move |s| s.journal_acked(last)).await?;
        let sent = last - acked;
        let last_ms = entries.last().map_or(0, |e| e.committed_ms);
        acked = last;
        status.update(|s| {
            s.connected = true;
            s.acked = last;
            s.head = Some(last);
            s.head_ms = last_ms;
            s.batches += sent;
            s.last_error = None;
        });
    }
}
