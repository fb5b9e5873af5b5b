//! `serve` in a fleet: what every node shares beside the batches (docs/fleet.md, "State every
//! node shares"). The page-token secret and the API keys come from the fleet's buckets; usage
//! rows go to the fleet's usage log and every node stores every node's rows (its own included)
//! in a usage store of its own, `DATA_DIR/usage`; the keyed spends of the other nodes are
//! charged to this node's rate limiter as their rows arrive.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use snowline_access::keys::{ApiKeys, SharedKeys};
use snowline_access::usage::{UsageLog, UsageWriter, WriterConfig, decode_rows, encode_rows};
use snowline_fleet::{FleetConfig, KEYS_BUCKET, Outgoing, SharedLog, USAGE_LOG};
use snowline_query::TokenSecret;
use snowline_rest_api::{LimitKeyRef, Limiter};
use snowline_store::{Schema, Store};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Rounds of usage rows waiting for the fleet's log before the writer counts them as failed.
const OUTGOING: usize = 1024;

/// Schema version of a fleet node's usage store.
const USAGE_SCHEMA_VERSION: u32 = 1;

/// This node's share of the fleet's state.
pub struct Shared {
    config: FleetConfig,
    /// The fleet's API keys, kept current from their bucket.
    pub keys: Arc<SharedKeys>,
    /// The usage every node recorded, stored here.
    pub log: Arc<UsageLog>,
    dir: PathBuf,
}

impl Shared {
    /// Opens this node's usage store (`DATA_DIR/usage`) for the fleet `config`.
    pub fn open(dir: &Path, config: FleetConfig) -> Result<Self, String> {
        let schema = snowline_access::usage::tables()
            .into_iter()
            .fold(Schema::new(USAGE_SCHEMA_VERSION), Schema::with_spec);
        let store = Store::open(dir.join("usage"), &schema)
            .map_err(|e| format!("cannot open the usage store: {e}"))?;
        Ok(Self {
            config,
            keys: Arc::new(SharedKeys::new()),
            log: Arc::new(UsageLog::new(Arc::new(store))),
            dir: dir.to_path_buf(),
        })
    }

    /// The fleet's page-token secret: this node's when it is the first, else the first node's.
    /// A secret given with `--token-secret` must be the fleet's.
    pub async fn token_secret(
        &self,
        mine: TokenSecret,
        given: bool,
    ) -> Result<TokenSecret, String> {
        // The server cannot seal a token before it knows the secret: wait for NATS.
        let mut wait = Duration::from_millis(200);
        let fleet = loop {
            match snowline_fleet::shared_secret(&self.config, mine.to_hex().as_bytes()).await {
                Ok(secret) => break secret,
                Err(e) => {
                    eprintln!("data-api: waiting for the fleet's token secret: {e}");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        };
        let fleet = std::str::from_utf8(&fleet)
            .ok()
            .and_then(|hex| TokenSecret::from_hex(hex).ok())
            .ok_or("the fleet's token secret is not 64 hex digits")?;
        if fleet.to_hex() != mine.to_hex() {
            if given {
                return Err(
                    "--token-secret differs from the fleet's: page tokens of one node would fail \
                     on the others (leave it out to take the fleet's)"
                        .to_owned(),
                );
            }
            println!("data-api: page tokens sealed with the fleet's secret");
        }
        Ok(fleet)
    }

    /// A usage writer whose rows go to the fleet's log, and the task appending them (it ends
    /// once the writer is shut down and its last rows are appended).
    pub fn writer(&self, max_age: Duration) -> Result<(UsageWriter, JoinHandle<()>), String> {
        let (tx, rx) = mpsc::channel::<Outgoing>(OUTGOING);
        let node = node_id();
        let mut n = 0u64;
        // Rows leave every 25 ms rather than 200: the other nodes' limiters learn of a key's
        // spends that much sooner (the fleet's overshoot, docs/fleet.md).
        let config = WriterConfig {
            flush_interval: Duration::from_millis(25),
            ..WriterConfig::default()
        };
        let writer = UsageWriter::start_forwarding(config, move |rows| {
            n += 1;
            tx.try_send((format!("{node}.{n}"), Bytes::from(encode_rows(&rows))))
                .map_err(|e| snowline_access::AccessError::Thread(format!("fleet usage: {e}")))
        })
        .map_err(|e| format!("cannot start the usage writer: {e}"))?;
        let log = SharedLog::new(self.config.clone(), USAGE_LOG, max_age);
        let task = tokio::spawn(log.append(rx));
        Ok((writer, task))
    }

    /// Stores every node's usage rows as they arrive, from where this node stopped, and charges
    /// the keyed spends made since `started_ms` to `limiter`. Runs until SIGINT/SIGTERM.
    pub fn read_usage(
        &self,
        max_age: Duration,
        limiter: Arc<Limiter>,
        local_keys: Arc<ApiKeys>,
        started_ms: u64,
    ) -> JoinHandle<()> {
        let position = self.dir.join("usage-position");
        let after = std::fs::read_to_string(&position)
            .ok()
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        let (log, keys) = (Arc::clone(&self.log), Arc::clone(&self.keys));
        let deliver = move |seq: u64, mine: bool, payload: Bytes| {
            let rows = decode_rows(&payload).map_err(|e| format!("usage message {seq}: {e}"))?;
            log.write_rows(&rows)
                .map_err(|e| format!("storing usage message {seq}: {e}"))?;
            if !mine {
                for row in &rows {
                    let charged = row.for_each_event(|e| {
                        if let Some(units) = charge(&e, started_ms) {
                            let tier = keys
                                .tier_of(e.api_key_id)
                                .or_else(|| local_keys.get(e.api_key_id).ok().map(|k| k.tier));
                            if let Some(tier) = tier {
                                limiter.charge(
                                    tier.as_str(),
                                    LimitKeyRef::Key(e.api_key_id),
                                    units,
                                );
                            }
                        }
                    });
                    charged.map_err(|e| format!("usage message {seq}: {e}"))?;
                }
            }
            write_position(&position, seq)
                .map_err(|e| format!("cannot write {}: {e}", position.display()))
        };
        let node = node_id();
        let log = SharedLog::new(self.config.clone(), USAGE_LOG, max_age);
        tokio::spawn(log.read(
            after,
            Arc::new(move |seq, id: Option<&str>, payload| {
                let mine = id.is_some_and(|id| id.split_once('.').is_some_and(|(n, _)| n == node));
                deliver(seq, mine, payload)
            }),
            snowline_rest_api::shutdown_signal(),
        ))
    }

    /// Keeps [`keys`](Self::keys) current from the fleet's key bucket until SIGINT/SIGTERM.
    pub fn watch_keys(&self) -> JoinHandle<()> {
        let keys = Arc::clone(&self.keys);
        tokio::spawn(snowline_fleet::watch_bucket(
            self.config.clone(),
            KEYS_BUCKET,
            move |key, value| {
                if let Err(e) = keys.apply(key, value) {
                    tracing::warn!(error = %e, key, "a fleet key entry that is not a key");
                }
            },
            snowline_rest_api::shutdown_signal(),
        ))
    }
}

/// The units a request recorded elsewhere spent of its key's budget: what the REST edge charged
/// when it admitted it (its credits, used or wasted), for keyed requests the limiter admitted
/// (not refused: 401, 403, 429) since this node started.
fn charge(e: &snowline_access::usage::UsageEventRef<'_>, started_ms: u64) -> Option<u32> {
    let units = e.credits_used.saturating_add(e.credits_wasted);
    (!e.api_key_id.is_empty()
        && e.timestamp_ms >= started_ms
        && !matches!(e.response_code, 401 | 403 | 429)
        && units > 0)
        .then_some(units)
}

/// This process's name in message ids: its pid and start time, so a restart is a new writer.
fn node_id() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        format!("{:x}{:x}", std::process::id(), nanos)
    })
    .clone()
}

/// Records that every usage message up to `seq` is stored (through a temporary file, renamed).
fn write_position(path: &Path, seq: u64) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, seq.to_string())?;
    std::fs::rename(tmp, path)
}
