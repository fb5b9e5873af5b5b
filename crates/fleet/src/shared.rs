//! The fleet's state beside the batches, on the same NATS servers and named after the batches'
//! stream: key-value buckets (`STREAM_keys`: the API keys; `STREAM_fleet`: the page-token
//! secret) that every node watches, and logs every node appends to and reads whole
//! (`STREAM_usage`: the usage rows). The bytes are the callers' (`snowline-access` encodes
//! them); this module only carries them.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use async_nats::header::NATS_MESSAGE_ID;
use async_nats::jetstream::consumer::{AckPolicy, DeliverPolicy, pull};
use async_nats::jetstream::{self, kv, stream};
use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::mpsc;

use crate::nats::{FleetConfig, connect};

/// The bucket of the fleet's single values (the page-token secret).
pub const FLEET_BUCKET: &str = "fleet";
/// The bucket of the fleet's API keys.
pub const KEYS_BUCKET: &str = "keys";
/// The log of the fleet's usage rows.
pub const USAGE_LOG: &str = "usage";

/// One of the fleet's key-value buckets.
pub struct Bucket {
    kv: kv::Store,
    _client: async_nats::Client,
}

impl Bucket {
    /// Opens the bucket `STREAM_name`, creating it (kept as many times as the stream, latest
    /// value only) when it does not exist yet.
    pub async fn open(config: &FleetConfig, name: &str) -> Result<Self, String> {
        let (client, js) = connect(config).await?;
        Ok(Self {
            kv: bucket(&js, config, name).await?,
            _client: client,
        })
    }

    /// The value under `key` and its revision; `None` when there is none (or it was deleted).
    pub async fn get(&self, key: &str) -> Result<Option<(Bytes, u64)>, String> {
        let entry = self
            .kv
            .entry(key)
            .await
            .map_err(|e| format!("reading {key}: {e}"))?;
        Ok(entry
            .filter(|e| e.operation == kv::Operation::Put)
            .map(|e| (e.value, e.revision)))
    }

    /// Puts `value` under `key` unless a value is there already: `false` when one is.
    pub async fn create(&self, key: &str, value: Bytes) -> Result<bool, String> {
        match self.kv.create(key, value).await {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == kv::CreateErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(format!("creating {key}: {e}")),
        }
    }

    /// Replaces the value under `key` if it is still at `revision` (else an error: someone
    /// changed it meanwhile).
    pub async fn update(&self, key: &str, value: Bytes, revision: u64) -> Result<(), String> {
        self.kv
            .update(key, value, revision)
            .await
            .map(drop)
            .map_err(|e| format!("changing {key}: {e}"))
    }

    /// Deletes the value under `key`.
    pub async fn delete(&self, key: &str) -> Result<(), String> {
        self.kv
            .delete(key)
            .await
            .map_err(|e| format!("deleting {key}: {e}"))
    }

    /// Every key with a value, and its value.
    pub async fn entries(&self) -> Result<Vec<(String, Bytes)>, String> {
        let mut keys = match self.kv.keys().await {
            Ok(k) => k,
            Err(e) => return Err(format!("listing the bucket: {e}")),
        };
        let mut out = Vec::new();
        while let Some(key) = keys.next().await {
            let key = key.map_err(|e| format!("listing the bucket: {e}"))?;
            if let Some((value, _)) = self.get(&key).await? {
                out.push((key, value));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }
}

async fn bucket(
    js: &jetstream::Context,
    config: &FleetConfig,
    name: &str,
) -> Result<kv::Store, String> {
    let bucket = format!("{}_{name}", config.stream);
    if let Ok(kv) = js.get_key_value(&bucket).await {
        return Ok(kv);
    }
    // The bucket's stream as JetStream's key-value convention has it, created directly: the
    // client's own bucket creation sends fields that a 2.9 server (Debian's) answers in a form
    // the client cannot read.
    js.get_or_create_stream(stream::Config {
        name: format!("KV_{bucket}"),
        subjects: vec![format!("$KV.{bucket}.>")],
        max_messages_per_subject: 1,
        storage: stream::StorageType::File,
        num_replicas: config.replicas,
        allow_rollup: true,
        deny_delete: true,
        allow_direct: true,
        discard: stream::DiscardPolicy::New,
        duplicate_window: Duration::from_secs(120),
        ..stream::Config::default()
    })
    .await
    .map_err(|e| format!("creating bucket {bucket}: {e}"))?;
    js.get_key_value(&bucket)
        .await
        .map_err(|e| format!("opening bucket {bucket}: {e}"))
}

/// The fleet's page-token secret: `proposed` when this node is the first to ask, else the one
/// the first node put in the `STREAM_fleet` bucket.
pub async fn shared_secret(config: &FleetConfig, proposed: &[u8]) -> Result<Vec<u8>, String> {
    const KEY: &str = "token-secret";
    let bucket = Bucket::open(config, FLEET_BUCKET).await?;
    if bucket.create(KEY, Bytes::copy_from_slice(proposed)).await? {
        return Ok(proposed.to_vec());
    }
    match bucket.get(KEY).await? {
        Some((value, _)) => Ok(value.to_vec()),
        None => Err("the fleet's token secret was deleted; put it back".to_owned()),
    }
}

/// Hands every change of the bucket `STREAM_name` to `apply` (`None`: the key was deleted),
/// first the current value of every key, then each change as it is made, until `shutdown`;
/// reconnects with a backoff, starting again from the current values.
pub async fn watch_bucket(
    config: FleetConfig,
    name: &'static str,
    apply: impl Fn(&str, Option<&[u8]>) + Send + Sync,
    shutdown: impl Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    let mut backoff = Duration::from_millis(100);
    loop {
        let watched = async {
            let (_client, js) = connect(&config).await?;
            let kv = bucket(&js, &config, name).await?;
            let mut changes = kv
                .watch_with_history(">")
                .await
                .map_err(|e| format!("watching bucket {name}: {e}"))?;
            while let Some(entry) = changes.next().await {
                let entry = entry.map_err(|e| format!("watching bucket {name}: {e}"))?;
                match entry.operation {
                    kv::Operation::Put => apply(&entry.key, Some(&entry.value)),
                    kv::Operation::Delete | kv::Operation::Purge => apply(&entry.key, None),
                }
            }
            Err::<(), String>(format!("the watch of bucket {name} ended"))
        };
        tokio::select! {
            result = watched => {
                if let Err(e) = result {
                    tracing::warn!(error = %e, "watching the fleet's {name}");
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

/// A log of the fleet that every node appends to and reads whole: the stream `STREAM_name`
/// on the subject `STREAM.name`.
#[derive(Debug, Clone)]
pub struct SharedLog {
    config: FleetConfig,
    name: &'static str,
    max_age: Duration,
}

/// What a [`SharedLog`]'s reader is handed each message with: its stream sequence, its message
/// id and its bytes; an error has the message offered again.
pub type Deliver = dyn Fn(u64, Option<&str>, Bytes) -> Result<(), String> + Send + Sync;

/// What a node hands a [`SharedLog`] to append: a message id (the stream's duplicate window
/// drops a message sent again with it) and the bytes.
pub type Outgoing = (String, Bytes);

impl SharedLog {
    /// The log `name` of the fleet `config` names, keeping a message for `max_age`.
    pub fn new(config: FleetConfig, name: &'static str, max_age: Duration) -> Self {
        Self {
            config,
            name,
            max_age,
        }
    }

    fn stream_config(&self) -> stream::Config {
        stream::Config {
            name: format!("{}_{}", self.config.stream, self.name),
            subjects: vec![self.subject()],
            storage: stream::StorageType::File,
            num_replicas: self.config.replicas,
            duplicate_window: Duration::from_secs(120),
            max_age: self.max_age,
            ..stream::Config::default()
        }
    }

    fn subject(&self) -> String {
        format!("{}.{}", self.config.stream, self.name)
    }

    async fn stream(
        &self,
    ) -> Result<(async_nats::Client, jetstream::Context, stream::Stream), String> {
        let (client, js) = connect(&self.config).await?;
        let stream = js
            .get_or_create_stream(self.stream_config())
            .await
            .map_err(|e| format!("creating stream {}_{}: {e}", self.config.stream, self.name))?;
        Ok((client, js, stream))
    }

    /// Appends what `outgoing` yields, each message once the previous one is acknowledged,
    /// until `outgoing` is closed and empty. A message the stream did not take is sent again
    /// (same id) after a backoff, so none is lost while this node runs.
    pub async fn append(self, mut outgoing: mpsc::Receiver<Outgoing>) {
        let mut held: Option<Outgoing> = None;
        let mut backoff = Duration::from_millis(100);
        loop {
            let sent = async {
                let (_client, js, _stream) = self.stream().await?;
                loop {
                    let (id, bytes) = match held.take() {
                        Some(m) => m,
                        None => match outgoing.recv().await {
                            Some(m) => m,
                            None => return Ok(()),
                        },
                    };
                    let mut headers = async_nats::HeaderMap::new();
                    headers.insert(NATS_MESSAGE_ID, id.as_str());
                    let result = match js
                        .publish_with_headers(self.subject(), headers, bytes.clone())
                        .await
                    {
                        Ok(ack) => ack.await.map(drop).map_err(|e| e.to_string()),
                        Err(e) => Err(e.to_string()),
                    };
                    if let Err(e) = result {
                        held = Some((id, bytes));
                        return Err::<(), String>(format!("appending to {}: {e}", self.name));
                    }
                }
            };
            match sent.await {
                Ok(()) => return,
                Err(e) => tracing::warn!(error = %e, "the fleet's {}", self.name),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
    }

    /// Hands `deliver` every message of the log after stream sequence `after`, in order, with
    /// its sequence and its message id (`deliver` runs on the blocking pool; an error is logged
    /// and the message offered again), until `shutdown`.
    pub async fn read(self, after: u64, deliver: Arc<Deliver>, shutdown: impl Future<Output = ()>) {
        tokio::pin!(shutdown);
        let mut done = after;
        let mut backoff = Duration::from_millis(100);
        loop {
            let read = async {
                let (_client, _js, stream) = self.stream().await?;
                let consumer = stream
                    .create_consumer(pull::Config {
                        deliver_policy: DeliverPolicy::ByStartSequence {
                            start_sequence: done + 1,
                        },
                        ack_policy: AckPolicy::None,
                        inactive_threshold: Duration::from_secs(60),
                        ..pull::Config::default()
                    })
                    .await
                    .map_err(|e| format!("reading {}: {e}", self.name))?;
                let mut messages = consumer
                    .stream()
                    .max_messages_per_batch(256)
                    .max_bytes_per_batch(16 << 20)
                    .heartbeat(Duration::from_secs(5))
                    .messages()
                    .await
                    .map_err(|e| format!("reading {}: {e}", self.name))?;
                while let Some(message) = messages.next().await {
                    let message = message.map_err(|e| format!("reading {}: {e}", self.name))?;
                    let seq = message
                        .info()
                        .map_err(|e| format!("a message of {} without its place: {e}", self.name))?
                        .stream_sequence;
                    let id = message
                        .headers
                        .as_ref()
                        // By the standard name: a header read back is parsed into it, and
                        // async-nats looks a `&str` name up as a custom one, never equal.
                        .and_then(|h| h.get(NATS_MESSAGE_ID))
                        .map(|v| v.as_str().to_owned());
                    let (deliver, payload) = (Arc::clone(&deliver), message.payload.clone());
                    tokio::task::spawn_blocking(move || deliver(seq, id.as_deref(), payload))
                        .await
                        .map_err(|e| format!("delivering {}: {e}", self.name))??;
                    done = seq;
                }
                Err::<(), String>(format!("the consumer of {} ended", self.name))
            };
            tokio::select! {
                result = read => {
                    if let Err(e) = result {
                        tracing::warn!(error = %e, "the fleet's {}", self.name);
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
}
