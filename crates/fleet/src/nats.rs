//! The fleet's stream on NATS JetStream: where it is, how a primary creates it, and the reads
//! both sides make of it (its newest batch; the first message after a position).

use std::time::Duration;

use async_nats::jetstream::{self, stream};

use crate::wire::BatchPart;

/// Where the fleet's batches go: the NATS servers and the stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetConfig {
    /// NATS servers, `nats://HOST:PORT`, several separated by commas (a cluster's members).
    pub url: String,
    /// The stream's name (letters, digits, `-` and `_`).
    pub stream: String,
    /// Copies of the stream the cluster keeps, when a primary creates it (1, 3 or 5).
    pub replicas: usize,
    /// How long the stream keeps a batch; a replica further behind starts from a checkpoint.
    pub max_age: Duration,
}

impl FleetConfig {
    /// The subject the batches are published on: `STREAM.batches`.
    pub fn subject(&self) -> String {
        format!("{}.batches", self.stream)
    }

    /// Checks the stream name and the server list.
    pub fn validate(&self) -> Result<(), String> {
        if self.stream.is_empty()
            || !self
                .stream
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(format!(
                "stream name {:?}: use letters, digits, '-' and '_'",
                self.stream
            ));
        }
        if self.servers().is_empty() {
            return Err("no NATS server given".to_owned());
        }
        if !matches!(self.replicas, 1..=5) {
            return Err(format!(
                "{} stream replicas: JetStream keeps 1 to 5",
                self.replicas
            ));
        }
        Ok(())
    }

    /// The servers, one per comma-separated item.
    pub fn servers(&self) -> Vec<String> {
        self.url
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// The stream's configuration, as a primary creates it: file storage, the batches'
    /// subject, a two-minute duplicate window, the configured copies and age.
    pub fn stream_config(&self) -> stream::Config {
        stream::Config {
            name: self.stream.clone(),
            subjects: vec![self.subject()],
            storage: stream::StorageType::File,
            num_replicas: self.replicas,
            duplicate_window: Duration::from_secs(120),
            max_age: self.max_age,
            allow_direct: true,
            ..stream::Config::default()
        }
    }
}

/// A connection to the fleet's NATS servers and its JetStream context.
pub(crate) async fn connect(
    config: &FleetConfig,
) -> Result<(async_nats::Client, jetstream::Context), String> {
    let client = async_nats::ConnectOptions::new()
        .connection_timeout(Duration::from_secs(5))
        .request_timeout(Some(Duration::from_secs(10)))
        .connect(config.servers())
        .await
        .map_err(|e| format!("connecting to NATS at {}: {e}", config.url))?;
    let js = jetstream::new(client.clone());
    Ok((client, js))
}

/// The headers of a stored message, read.
pub(crate) fn part_of(headers: Option<&async_nats::HeaderMap>) -> Result<BatchPart, String> {
    let h = headers.ok_or_else(|| "message without headers".to_owned())?;
    BatchPart::parse(|name| h.get(name).map(|v| v.as_str()))
}

/// The stream's last message: what its headers say and its stream sequence; `None` for an empty
/// stream.
pub(crate) async fn last_part(
    stream: &stream::Stream,
    subject: &str,
) -> Result<Option<(BatchPart, u64)>, String> {
    match stream.get_last_raw_message_by_subject(subject).await {
        Ok(m) => Ok(Some((part_of(Some(&m.headers))?, m.sequence))),
        Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => Ok(None),
        Err(e) => Err(format!("reading the stream's newest batch: {e}")),
    }
}

/// The newest batch on the stream and its commit time, or `None` for an empty stream.
pub(crate) async fn head(
    stream: &stream::Stream,
    subject: &str,
) -> Result<Option<(u64, u64)>, String> {
    Ok(last_part(stream, subject)
        .await?
        .map(|(p, _)| (p.seq, p.committed_ms)))
}

/// The stream sequence of the first message of a batch after `position`: a binary search over
/// the stream (batch numbers never decrease along it), from its first message when it holds
/// nothing at or before `position`; one past its end when every batch is applied.
pub(crate) async fn first_after(stream: &stream::Stream, position: u64) -> Result<u64, String> {
    let info = stream
        .get_info()
        .await
        .map_err(|e| format!("reading the stream's state: {e}"))?;
    let (mut lo, mut hi) = (info.state.first_sequence, info.state.last_sequence + 1);
    if info.state.messages == 0 {
        return Ok(hi.max(lo));
    }
    // Invariant: every message before `lo` is of a batch <= position, every one from `hi` on
    // of a batch > position.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let seq = match stream.get_raw_message(mid).await {
            Ok(m) => part_of(Some(&m.headers))?.seq,
            // A message removed by the age limit meanwhile: look further on.
            Err(e) if e.kind() == stream::LastRawMessageErrorKind::NoMessageFound => {
                lo = mid + 1;
                continue;
            }
            Err(e) => return Err(format!("reading message {mid} of the stream: {e}")),
        };
        if seq <= position {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}
