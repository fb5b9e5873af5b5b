//! The primary's side: every batch its store committed, read from the outbox in order and
//! published with its sequence as the message id; once the stream acknowledges them the outbox
//! lets them go. After a crash or a lost connection it starts again after the newest batch the
//! stream holds, so nothing is skipped and a republish is dropped by the stream.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_nats::header::{NATS_EXPECTED_LAST_SEQUENCE, NATS_MESSAGE_ID};
use async_nats::jetstream::context::PublishErrorKind;
use bytes::Bytes;
use snowline_store::{Store, StoreError};
use tokio::sync::Notify;

use crate::nats::{FleetConfig, connect, last_part};
use crate::status::FleetStatus;
use crate::wire::{BatchPart, checksum, parts_of};

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

/// Why one connection's publishing ended.
enum Stop {
    /// A fault to retry after a pause (NATS unreachable, a publish not acknowledged).
    Retry(String),
    /// The stream holds a batch this store did not commit: another primary publishes on it.
    Fenced(String),
}

impl From<String> for Stop {
    fn from(e: String) -> Self {
        Stop::Retry(e)
    }
}

/// Publishes `store`'s batches until `shutdown` (then `Ok`), reconnecting with a backoff; the
/// store must already be a primary (`Store::set_journal_role`, before anything writes). Returns
/// an error, and publishes nothing more, once the stream holds a batch this store did not
/// commit: another primary publishes on the stream, and this one is fenced off.
pub async fn publish(
    store: Arc<Store>,
    config: FleetConfig,
    status: Arc<FleetStatus>,
    shutdown: impl Future<Output = ()>,
) -> Result<(), String> {
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
            stop = publish_connected(&store, &config, &status, &wake) => match stop {
                Stop::Retry(e) => {
                    tracing::warn!(error = %e, "publishing batches");
                    status.failed(&e);
                }
                Stop::Fenced(e) => {
                    tracing::error!(error = %e, "fenced: publishing stopped");
                    status.failed(&e);
                    return Err(e);
                }
            },
            () = &mut shutdown => return Ok(()),
        }
        tokio::select! {
            () = tokio::time::sleep(backoff) => {}
            () = &mut shutdown => return Ok(()),
        }
        backoff = (backoff * 2).min(Duration::from_secs(5));
    }
}

/// Where publishing resumes on a stream: the last batch it holds whole (acknowledged), the
/// parts of the next batch it holds already, and the stream sequence of its last message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Resume {
    acked: u64,
    parts_held: u32,
    last_stream_seq: u64,
}

/// Where this store resumes on a stream whose last message is `last` (its headers and stream
/// sequence), given the store's position `committed`, the last batch it knows acknowledged and
/// the checksum of its own copy of batch `h` (`mine(h)`: `None` when its outbox does not hold
/// it, as for a promoted replica, which applied it from this stream). Fenced when the stream
/// holds a batch this store never committed, or a batch under a number this store committed
/// with other bytes: another primary published it.
fn resume(
    last: Option<(&BatchPart, u64)>,
    committed: u64,
    acked: u64,
    mine: impl FnOnce(u64) -> Option<String>,
) -> Result<Resume, String> {
    let Some((part, stream_seq)) = last else {
        return Ok(Resume {
            acked,
            parts_held: 0,
            last_stream_seq: 0,
        });
    };
    let h = part.seq;
    if h > committed {
        return Err(format!(
            "the stream holds batch {h} but this store has committed only {committed}: another \
             primary publishes on it (or this store was promoted before it applied every batch)"
        ));
    }
    let mut resume = Resume {
        acked,
        parts_held: 0,
        last_stream_seq: stream_seq,
    };
    if h > acked {
        // Published before a crash or a lost connection, never acknowledged: the stream has
        // them if they are this store's bytes.
        // Not in the outbox: applied from this very stream (a promoted replica's batches).
        if mine(h).is_some_and(|own| own != part.sha256) {
            return Err(format!(
                "the stream's batch {h} is not this store's batch {h}: another primary \
                 published it"
            ));
        }
        if part.part == part.parts {
            resume.acked = h;
        } else {
            resume.acked = h - 1;
            resume.parts_held = part.part;
        }
    }
    Ok(resume)
}

/// One connection's worth of publishing; returns only on an error. Every message carries the
/// stream sequence it must follow (`Nats-Expected-Last-Sequence`), so the stream refuses it
/// once another primary has published: this one then reconnects and [`resume`] tells a batch
/// of its own (published before a crash) from another primary's.
async fn publish_connected(
    store: &Arc<Store>,
    config: &FleetConfig,
    status: &FleetStatus,
    wake: &Notify,
) -> Stop {
    match publish_round(store, config, status, wake).await {
        Ok(never) => match never {},
        Err(stop) => stop,
    }
}

async fn publish_round(
    store: &Arc<Store>,
    config: &FleetConfig,
    status: &FleetStatus,
    wake: &Notify,
) -> Result<std::convert::Infallible, Stop> {
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
    let last = last_part(&stream, &subject).await?;
    let mine = match &last {
        Some((p, _)) if p.seq > pos.acked && p.seq <= pos.seq => {
            let before = p.seq - 1;
            blocking(store, move |s| s.journal_entries(before, 1, 1)).await?
        }
        _ => Vec::new(),
    };
    let mine = |h: u64| mine.iter().find(|e| e.seq == h).map(|e| checksum(&e.frame));
    let Resume {
        mut acked,
        mut parts_held,
        last_stream_seq: mut expected,
    } = resume(
        last.as_ref().map(|(p, s)| (p, *s)),
        pos.seq,
        pos.acked,
        mine,
    )
    .map_err(Stop::Fenced)?;
    if acked > pos.acked {
        blocking(store, move |s| s.journal_acked(acked)).await?;
    }
    let head = last.as_ref().map(|(p, _)| (p.seq, p.committed_ms));
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
                return Err(Stop::Retry("the connection to NATS was lost".to_owned()));
            }
            continue;
        };
        if first.seq != acked + 1 {
            return Err(Stop::Retry(format!(
                "batch {} is not in the outbox (it holds {} next): the stream cannot continue; \
                 start the replicas from a checkpoint taken after it",
                acked + 1,
                first.seq
            )));
        }
        // What a replica may apply must survive a crash of this machine first.
        blocking(store, Store::sync_wal).await?;
        let mut pending = Vec::new();
        for e in &entries {
            for (part, bytes) in parts_of(e.seq, e.committed_ms, &e.frame, max_part) {
                if e.seq == acked + 1 && part.part <= parts_held {
                    continue;
                }
                let mut headers = async_nats::HeaderMap::new();
                headers.insert(NATS_MESSAGE_ID, part.msg_id().as_str());
                headers.insert(NATS_EXPECTED_LAST_SEQUENCE, expected.to_string().as_str());
                for (name, value) in part.headers() {
                    headers.insert(name, value.as_str());
                }
                let ack = js
                    .publish_with_headers(subject.clone(), headers, Bytes::copy_from_slice(bytes))
                    .await
                    .map_err(|e| format!("publishing batch {}: {e}", part.seq))?;
                expected += 1;
                pending.push((e.seq, expected, ack));
            }
        }
        let mut last = acked;
        for (seq, want, ack) in pending {
            let stored = match ack.await {
                Ok(ack) => ack,
                Err(e) if e.kind() == PublishErrorKind::WrongLastSequence => {
                    return Err(Stop::Retry(format!(
                        "the stream refused batch {seq}: it holds a message this node did not \
                         expect; looking at what it is"
                    )));
                }
                Err(e) => {
                    return Err(Stop::Retry(format!(
                        "batch {seq} was not acknowledged: {e}"
                    )));
                }
            };
            if stored.duplicate || stored.sequence != want {
                return Err(Stop::Retry(format!(
                    "batch {seq} was stored as message {} (a duplicate: {}), not as message \
                     {want}; looking at what the stream holds",
                    stored.sequence, stored.duplicate
                )));
            }
            last = seq;
        }
        parts_held = 0;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn part(seq: u64, part: u32, parts: u32, frame: &[u8]) -> BatchPart {
        BatchPart {
            seq,
            part,
            parts,
            committed_ms: 1,
            sha256: checksum(frame),
        }
    }

    #[test]
    fn a_stream_holding_another_primarys_batch_fences_this_one_and_its_own_batches_do_not() {
        let mine = |h: u64| Some(checksum(format!("mine {h}").as_bytes()));
        // An empty stream: from the acknowledged position, expecting no message before.
        assert_eq!(
            resume(None, 5, 3, mine),
            Ok(Resume {
                acked: 3,
                parts_held: 0,
                last_stream_seq: 0
            })
        );
        // Its own batch 5, published before a crash and never acknowledged: acknowledged now.
        let own = part(5, 1, 1, b"mine 5");
        assert_eq!(
            resume(Some((&own, 40)), 6, 3, mine),
            Ok(Resume {
                acked: 5,
                parts_held: 0,
                last_stream_seq: 40
            })
        );
        // Two of three parts of its batch 5: batch 4 is whole, part 3 of batch 5 goes next.
        let two = part(5, 2, 3, b"mine 5");
        assert_eq!(
            resume(Some((&two, 41)), 6, 3, mine),
            Ok(Resume {
                acked: 4,
                parts_held: 2,
                last_stream_seq: 41
            })
        );
        // What it acknowledged already is not looked at again.
        let acked = part(3, 1, 1, b"whatever");
        assert_eq!(
            resume(Some((&acked, 38)), 6, 3, |_| None),
            Ok(Resume {
                acked: 3,
                parts_held: 0,
                last_stream_seq: 38
            })
        );
        // A promoted replica applied batch 5 from the stream: nothing of it in its outbox.
        assert_eq!(
            resume(Some((&own, 40)), 5, 0, |_| None),
            Ok(Resume {
                acked: 5,
                parts_held: 0,
                last_stream_seq: 40
            })
        );
        // Another primary's batch 5 (other bytes), or a batch past this store's position.
        let theirs = part(5, 1, 1, b"theirs 5");
        let e = resume(Some((&theirs, 40)), 6, 3, mine).unwrap_err();
        assert!(e.contains("another primary"), "{e}");
        let ahead = part(7, 1, 1, b"mine 7");
        let e = resume(Some((&ahead, 42)), 6, 3, mine).unwrap_err();
        assert!(e.contains("batch 7") && e.contains("only 6"), "{e}");
    }
}
