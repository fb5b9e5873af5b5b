//! `node-rpc follow --upstream URL`: mirrors an upstream node's index API, path by path, with
//! `index.getContainerRange` pages of up to 1024 containers starting at our own next index, so a
//! restart resumes where the last committed batch ended.

use std::borrow::Cow;
use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use snowline_jsonrpc::{ClientError, JsonU64, RpcClient};
use snowline_store::{Store, WriteBatch};
use snowline_types::Id;
use snowline_types::container::{
    ContainerError, ContainerLine, ContainerRecord, IndexPath, parse_decimal_u64, parse_rfc3339,
};
use snowline_types::formatting::{CHECKSUM_LEN, HexError, decode_hex_plain};

use crate::behind::{WriteBehind, write_page};
use crate::error::IndexError;
use crate::ingest::{Derive, Prepare, PreparedLine};
use crate::status::FollowStatus;
use crate::writer::IndexWriter;

/// How a [`Follower`] polls and retries.
#[derive(Debug, Clone)]
pub struct FollowConfig {
    /// `numToFetch` per call (1..=1024).
    pub batch: u64,
    /// Pause between polls once every path is caught up ([`Follower::run`]).
    pub poll_interval: Duration,
    /// First pause after a failed call; doubled after each further failure.
    pub retry_initial: Duration,
    /// Longest pause between retries.
    pub retry_max: Duration,
    /// Consecutive failed attempts of one call before [`Follower::sync`] gives up.
    pub max_attempts: u32,
    /// Timeout of one call.
    pub call_timeout: Duration,
    /// The paths to mirror.
    pub paths: Vec<IndexPath>,
    /// While more than a batch behind the upstream, write without the write-ahead log
    /// (`Store::set_unlogged_writes`) and flush once caught up: a crash then loses the batches
    /// since the last flush, never part of one, and the follower resumes from what is on disk.
    pub unlogged_catch_up: bool,
}

impl Default for FollowConfig {
    fn default() -> Self {
        Self {
            batch: crate::MAX_FETCHED_BY_RANGE,
            poll_interval: Duration::from_secs(1),
            retry_initial: Duration::from_millis(200),
            retry_max: Duration::from_secs(10),
            max_attempts: 8,
            call_timeout: Duration::from_secs(60),
            paths: IndexPath::ALL.to_vec(),
            unlogged_catch_up: false,
        }
    }
}

/// One container as an upstream's `getContainerRange` returned it, verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteContainer {
    /// The stated index.
    pub index: u64,
    /// The record.
    pub record: ContainerRecord,
}

/// Where one path stands after [`Follower::sync`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathProgress {
    /// The path.
    pub path: IndexPath,
    /// Containers added in this sync.
    pub added: u64,
    /// Our next index (= containers held).
    pub next_index: u64,
    /// Whether the upstream serves the path (a 404 means it does not).
    pub served: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RangeArgs {
    start_index: JsonU64,
    num_to_fetch: JsonU64,
    encoding: &'static str,
}

/// What one page fetch found: the upstream's answer (`Page<RawResult>`), then its containers
/// verified and prepared for the derive hook (`Page<Vec<PreparedLine<P>>>`).
enum Page<C> {
    Containers(C),
    CaughtUp,
    NotServed,
}

/// Fetches pages of one path. Owns what it needs, so a page can be fetched on another task
/// while the previous one is written.
#[derive(Debug, Clone)]
struct PageFetcher {
    path: IndexPath,
    client: Arc<RpcClient>,
    config: Arc<FollowConfig>,
}

/// Mirrors an upstream node's `/ext/index/...` endpoints into the local index.
#[derive(Debug)]
pub struct Follower {
    clients: Vec<(IndexPath, Arc<RpcClient>)>,
    config: Arc<FollowConfig>,
}

/// Pages fetched ahead of the one being written (each page of the block era is tens of MB of
/// JSON while in flight, so a few are enough to keep the writer busy).
const PAGES_AHEAD: usize = 2;

/// A spawned task that is cancelled when its handle is dropped (an error ends a sync while a
/// page is still being fetched).
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl<T> AbortOnDrop<T> {
    async fn join(&mut self, path: IndexPath) -> Result<T, IndexError> {
        (&mut self.0)
            .await
            .map_err(|e| bad(path, format!("page fetch task: {e}")))
    }
}

impl Follower {
    /// A follower of the node at `upstream` (e.g. `http://127.0.0.1:9650`; the
    /// `/ext/index/<path>` suffixes are appended).
    pub fn new(upstream: &str, config: FollowConfig) -> Result<Self, IndexError> {
        let base = upstream.trim_end_matches('/');
        let mut clients = Vec::with_capacity(config.paths.len());
        for path in &config.paths {
            let url = format!("{base}/ext/index/{path}");
            let client = RpcClient::new(&url)
                .map_err(|e| IndexError::Upstream {
                    path: *path,
                    message: e.to_string(),
                })?
                .with_timeout(config.call_timeout);
            clients.push((*path, Arc::new(client)));
        }
        Ok(Self {
            clients,
            config: Arc::new(config),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &FollowConfig {
        &self.config
    }

    fn fetcher(&self, path: IndexPath) -> Option<PageFetcher> {
        self.clients
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, client)| PageFetcher {
                path,
                client: Arc::clone(client),
                config: Arc::clone(&self.config),
            })
    }

    /// Fetches one page of `path` from our next index on and writes it (with what `derive`
    /// adds) in one atomic batch. Returns the containers added, `None` when the upstream does
    /// not serve the path.
    pub async fn step<D: Derive + ?Sized>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        path: IndexPath,
        derive: &mut D,
    ) -> Result<Option<u64>, IndexError> {
        let Some(fetcher) = self.fetcher(path) else {
            return Ok(None);
        };
        let page = fetcher.page::<D::Prepared>(writer.next_index(path)).await?;
        match page {
            Page::NotServed => Ok(None),
            Page::CaughtUp => Ok(Some(0)),
            Page::Containers(lines) => {
                write_page(store, writer, derive, &mut WriteBatch::new(), lines).map(Some)
            }
        }
    }

    /// Follows `path` until the upstream has nothing more. Pipelined: the next
    /// [`PAGES_AHEAD`] pages are fetched, verified and prepared on other tasks while this one
    /// writes the current page.
    async fn sync_path<D, F>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        fetcher: PageFetcher,
        on_batch: &mut F,
    ) -> Result<PathProgress, IndexError>
    where
        D: Derive + ?Sized,
        F: FnMut(IndexPath, u64),
    {
        let path = fetcher.path;
        let mut progress = PathProgress {
            path,
            added: 0,
            next_index: writer.next_index(path),
            served: true,
        };
        let spawn = |start: u64| {
            let f = fetcher.clone();
            AbortOnDrop(tokio::spawn(
                async move { f.page::<D::Prepared>(start).await },
            ))
        };
        // Pages are fetched ahead on the assumption that each is full (`n` containers, as
        // every page but the upstream's last is); a shorter page drops the guesses after it.
        let n = fetcher.page_size();
        let mut ahead: VecDeque<(u64, AbortOnDrop<_>)> = VecDeque::new();
        let first = writer.next_index(path);
        ahead.push_back((first, spawn(first)));
        let mut batch = WriteBatch::new();
        let mut behind = derive.overlaps_writes().then(WriteBehind::default);
        while let Some((start, mut fetch)) = ahead.pop_front() {
            let page = match fetch.join(path).await.and_then(|page| page) {
                Ok(page) => page,
                Err(e) => {
                    // The finished batch is whole: write it before giving up.
                    if let Some(behind) = behind.take() {
                        behind.land(store, writer, derive)?;
                        on_batch(path, writer.next_index(path));
                    }
                    return Err(e);
                }
            };
            let lines = match page {
                Page::NotServed => {
                    progress.served = false;
                    break;
                }
                Page::CaughtUp => break,
                Page::Containers(lines) if lines.is_empty() => break,
                Page::Containers(lines) => lines,
            };
            let next = start.saturating_add(u64::try_from(lines.len()).unwrap_or(u64::MAX));
            if ahead.front().is_some_and(|(s, _)| *s != next) {
                ahead.clear();
            }
            let mut guess = ahead.back().map_or(next, |(s, _)| s.saturating_add(n));
            while ahead.len() < PAGES_AHEAD {
                ahead.push_back((guess, spawn(guess)));
                guess = guess.saturating_add(n);
            }
            // What this step wrote, and whether the page brought anything new.
            let (landed, new) = match behind.as_mut() {
                None => {
                    let added = write_page(store, writer, derive, &mut batch, lines)?;
                    (added, added > 0)
                }
                Some(behind) => {
                    let landed = behind.overlap(store, writer, derive, &mut batch, lines)?;
                    (landed, behind.sealed_added() > 0)
                }
            };
            if landed > 0 {
                progress.added += landed;
                on_batch(path, writer.next_index(path));
            }
            if !new {
                break;
            }
        }
        if let Some(landed) = behind.map(|b| b.land(store, writer, derive)).transpose()? {
            if landed > 0 {
                progress.added += landed;
                on_batch(path, writer.next_index(path));
            }
        }
        progress.next_index = writer.next_index(path);
        Ok(progress)
    }

    /// Follows every configured path until the upstream has nothing more, calling `on_batch`
    /// after each written page.
    pub async fn sync<D, F>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        mut on_batch: F,
    ) -> Result<Vec<PathProgress>, IndexError>
    where
        D: Derive + ?Sized,
        F: FnMut(IndexPath, u64),
    {
        let mut out = Vec::with_capacity(self.clients.len());
        for (path, _) in &self.clients {
            if let Some(fetcher) = self.fetcher(*path) {
                out.push(
                    self.sync_path(store, writer, derive, fetcher, &mut on_batch)
                        .await?,
                );
            }
        }
        Ok(out)
    }

    /// Syncs, then polls every `poll_interval`, until `shutdown` completes. Failures after all
    /// retries are logged and retried at the next poll (the upstream may come back).
    pub async fn run<D, S>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        shutdown: S,
    ) -> Result<(), IndexError>
    where
        D: Derive + ?Sized,
        S: Future<Output = ()>,
    {
        self.run_observed(store, writer, derive, &FollowStatus::new(), shutdown)
            .await
    }

    /// [`Follower::run`], keeping `status` up to date: the upstream's head per path (asked with
    /// `index.getLastAccepted` before each sync), our position after each batch, and failures.
    pub async fn run_observed<D, S>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        status: &FollowStatus,
        shutdown: S,
    ) -> Result<(), IndexError>
    where
        D: Derive + ?Sized,
        S: Future<Output = ()>,
    {
        tokio::pin!(shutdown);
        for (path, _) in &self.clients {
            status.set_local(*path, writer.next_index(*path));
        }
        loop {
            let started = std::time::Instant::now();
            let mut far_behind = false;
            let round = async {
                self.heads(status).await?;
                far_behind = status
                    .snapshot()
                    .paths
                    .iter()
                    .any(|p| p.behind() > self.config.batch);
                let unlogged = self.config.unlogged_catch_up && far_behind;
                if unlogged {
                    store.set_unlogged_writes(true)?;
                }
                let synced = self
                    .sync(store, writer, derive, |path, next| {
                        status.set_local(path, next)
                    })
                    .await;
                if unlogged {
                    // Caught up (or failed): everything written is flushed before logging resumes.
                    store.set_unlogged_writes(false)?;
                }
                synced
            };
            tokio::select! {
                () = &mut shutdown => return Ok(()),
                r = round => match r {
                    Ok(progress) => {
                        for p in progress.iter().filter(|p| !p.served) {
                            status.remove_path(p.path);
                        }
                        status.caught_up();
                        if far_behind {
                            log_catch_up(&progress, started.elapsed());
                        }
                    }
                    Err(e @ IndexError::Unavailable { .. }) => {
                        tracing::warn!(error = %e, "upstream unavailable");
                        status.failed(&e.to_string());
                    }
                    Err(other) => {
                        status.failed(&other.to_string());
                        return Err(other);
                    }
                },
            }
            tokio::select! {
                () = &mut shutdown => return Ok(()),
                () = tokio::time::sleep(self.config.poll_interval) => {}
            }
        }
    }

    /// Asks the upstream how many containers each path has accepted (`index.getLastAccepted`),
    /// with the same retries as a page fetch.
    async fn heads(&self, status: &FollowStatus) -> Result<(), IndexError> {
        #[derive(Serialize)]
        struct Args {
            encoding: &'static str,
        }
        for (path, client) in &self.clients {
            let path = *path;
            // `Some(containers accepted)`, or `None` when the upstream does not serve the path.
            let head = with_retries(&self.config, path, || async move {
                match client
                    .call::<_, Value>("index.getLastAccepted", Args { encoding: "hex" })
                    .await
                {
                    Ok(v) => Attempt::Done(
                        v.get("index")
                            .and_then(Value::as_str)
                            .and_then(|s| s.parse::<u64>().ok())
                            .map(|i| Some(i.saturating_add(1)))
                            .ok_or_else(|| bad(path, "getLastAccepted: no decimal `index`")),
                    ),
                    Err(ClientError::Rpc { message, .. })
                        if message == "no containers have been accepted" =>
                    {
                        Attempt::Done(Ok(Some(0)))
                    }
                    Err(ClientError::Status { status: 404, .. }) => Attempt::Done(Ok(None)),
                    Err(e) => Attempt::Retry(e.to_string()),
                }
            })
            .await?;
            if let Some(accepted) = head {
                status.set_upstream(path, accepted);
            }
        }
        Ok(())
    }
}

/// One line when a round that started far behind the upstream has caught up (and, when writing
/// without the WAL, flushed): what each path added, and the rate.
fn log_catch_up(progress: &[PathProgress], took: Duration) {
    let added: u64 = progress.iter().map(|p| p.added).sum();
    let paths = progress
        .iter()
        .filter(|p| p.added > 0)
        .map(|p| format!("{} +{}", p.path, p.added))
        .collect::<Vec<_>>()
        .join(", ");
    let secs = took.as_secs_f64();
    tracing::info!(
        "caught up with the upstream: {added} containers in {secs:.1} s ({:.0}/s; {paths})",
        added as f64 / secs.max(1e-9)
    );
}

/// What one call to the upstream came to.
enum Attempt<T> {
    /// An answer (or an error retrying cannot fix).
    Done(Result<T, IndexError>),
    /// A failure worth retrying, and why.
    Retry(String),
}

/// Runs `attempt` until it is done, retrying what it says is retryable with exponential
/// backoff, at most `max_attempts` times; then the path is `Unavailable`.
async fn with_retries<T, F, Fut>(
    config: &FollowConfig,
    path: IndexPath,
    mut attempt: F,
) -> Result<T, IndexError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Attempt<T>>,
{
    let mut delay = config.retry_initial;
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        let err = match attempt().await {
            Attempt::Done(r) => return r,
            Attempt::Retry(err) => err,
        };
        if attempts >= config.max_attempts.max(1) {
            return Err(IndexError::Unavailable {
                path,
                attempts,
                message: err,
            });
        }
        tracing::warn!(%path, attempts, error = %err, "upstream call failed; retrying");
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(config.retry_max);
    }
}

impl PageFetcher {
    /// Containers asked for per page.
    fn page_size(&self) -> u64 {
        self.config.batch.clamp(1, crate::MAX_FETCHED_BY_RANGE)
    }

    /// Fetches the page starting at `start` (with retries), then verifies and prepares its
    /// containers on the blocking pool (hex decoding, hashing and the hook's decoding are most
    /// of a page's CPU).
    async fn page<P: Prepare>(&self, start: u64) -> Result<Page<Vec<PreparedLine<P>>>, IndexError> {
        let path = self.path;
        let client = &self.client;
        let n = self.page_size();
        let answer = with_retries(&self.config, path, || async move {
            let args = RangeArgs {
                start_index: JsonU64(start),
                num_to_fetch: JsonU64(n),
                encoding: "hex",
            };
            match client.call_raw("index.getContainerRange", args).await {
                Ok(v) => Attempt::Done(Ok(Page::Containers(v))),
                Err(ClientError::Rpc { message, .. })
                    if message == "no containers have been accepted"
                        || message.starts_with("start index (") =>
                {
                    Attempt::Done(Ok(Page::CaughtUp))
                }
                Err(ClientError::Status { status: 404, .. }) => Attempt::Done(Ok(Page::NotServed)),
                Err(e) => Attempt::Retry(e.to_string()),
            }
        })
        .await?;
        let value = match answer {
            Page::Containers(v) => v,
            Page::CaughtUp => return Ok(Page::CaughtUp),
            Page::NotServed => return Ok(Page::NotServed),
        };
        // The answer's JSON is parsed here too, not on the async worker: pages then parse in
        // parallel instead of one after the other on the one worker the writer leaves free.
        tokio::task::spawn_blocking(move || {
            parse_range_text(path, value.json(), start).map(|containers| {
                Page::Containers(
                    containers
                        .into_iter()
                        .map(|c| {
                            PreparedLine::new(ContainerLine {
                                record: c.record,
                                index: Some(c.index),
                            })
                        })
                        .collect(),
                )
            })
        })
        .await
        .map_err(|e| bad(path, format!("page parse task: {e}")))?
    }
}

fn bad(path: IndexPath, message: impl Into<String>) -> IndexError {
    IndexError::Upstream {
        path,
        message: message.into(),
    }
}

/// Parses a `getContainerRange` result in either shape (`{"containers":[...]}` as avalanchego
/// answers, a bare array as the spec says, or `null`), verifying every container: hex (and its
/// checksum), RFC 3339 timestamp, id against the bytes where the path's id rule is checkable, and
/// indexes running on from `start` without a gap.
pub fn parse_range_result(
    path: IndexPath,
    result: &Value,
    start: u64,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let items = match result {
        Value::Null => return Ok(Vec::new()),
        Value::Array(a) => a,
        Value::Object(o) => match o.get("containers") {
            Some(Value::Array(a)) => a,
            Some(Value::Null) => return Ok(Vec::new()),
            _ => return Err(bad(path, "result object has no \"containers\" array")),
        },
        _ => return Err(bad(path, "result is neither an array nor an object")),
    };
    verify_page(path, start, items, |item| parse_container(path, item))
}

/// Reads each item of a page with `read` and checks it: the hex checksum, indexes running on
/// from `start` without a gap, and each id against its bytes (checksum and id in one hashing
/// pass, [`ContainerRecord::check_sum_and_id`]).
fn verify_page<T>(
    path: IndexPath,
    start: u64,
    items: &[T],
    read: impl Fn(&T) -> Result<Unverified, IndexError>,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let expected = start.saturating_add(u64::try_from(i).unwrap_or(u64::MAX));
        let Unverified { container: c, sum } = read(item)?;
        let checked = c.record.check_sum_and_id(sum);
        if let Err(ContainerError::Hex(e)) = &checked {
            return Err(bad(path, format!("container {} bytes: {e}", c.record.id)));
        }
        if c.index != expected {
            return Err(bad(
                path,
                format!("expected container {expected}, got index {}", c.index),
            ));
        }
        checked?;
        out.push(c);
    }
    Ok(out)
}

/// A container as read from an answer, before [`verify_page`] checks it: `sum` is the API hex
/// checksum that followed its bytes (`None` for `hexnc`).
struct Unverified {
    container: RemoteContainer,
    sum: Option<[u8; CHECKSUM_LEN]>,
}

fn parse_container(path: IndexPath, v: &Value) -> Result<Unverified, IndexError> {
    let field = |name: &str| -> Result<&str, IndexError> {
        v.get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| bad(path, format!("container has no string {name:?}")))
    };
    let encoding = match v.get("encoding") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(bad(path, "container encoding is not a string")),
    };
    let index = match v.get("index") {
        Some(Value::String(s)) => parse_decimal_u64(s),
        Some(Value::Number(n)) => n.as_u64(),
        _ => None,
    };
    build_container(
        path,
        field("id"),
        encoding,
        field("bytes"),
        field("timestamp"),
        index,
    )
}

/// A container from its fields, each either read or the error reading it gave; the errors are
/// reported in field order (id, encoding, bytes, timestamp, index). The hex checksum is split
/// off, not checked: [`verify_page`] checks it in the same pass as the id.
fn build_container(
    path: IndexPath,
    id: Result<&str, IndexError>,
    encoding: Result<Option<&str>, IndexError>,
    bytes: Result<&str, IndexError>,
    timestamp: Result<&str, IndexError>,
    index: Option<u64>,
) -> Result<Unverified, IndexError> {
    let id: Id = id?
        .parse()
        .map_err(|e| bad(path, format!("container id: {e}")))?;
    let encoding = encoding?.map_or_else(|| "hex".to_owned(), str::to_ascii_lowercase);
    let raw = bytes?;
    let decoded = match encoding.as_str() {
        "hex" | "hexc" => split_checksum(raw),
        "hexnc" => decode_hex_plain(raw).map(|b| (b, None)),
        other => {
            return Err(bad(
                path,
                format!("unsupported container encoding {other:?}"),
            ));
        }
    };
    let (bytes, sum) = decoded.map_err(|e| bad(path, format!("container {id} bytes: {e}")))?;
    let timestamp_ns =
        parse_rfc3339(timestamp?).map_err(|e| bad(path, format!("container {id}: {e}")))?;
    let index = index.ok_or_else(|| bad(path, format!("container {id} has no decimal index")))?;
    Ok(Unverified {
        container: RemoteContainer {
            index,
            record: ContainerRecord {
                path,
                id,
                bytes,
                timestamp_ns,
            },
        },
        sum,
    })
}

/// API `hex` (with checksum) decoded, the checksum split off unverified: the bytes, and the
/// checksum unless the string was empty (which avalanchego decodes to no bytes).
fn split_checksum(raw: &str) -> Result<(Vec<u8>, Option<[u8; CHECKSUM_LEN]>), HexError> {
    let mut bytes = decode_hex_plain(raw)?;
    if raw.is_empty() {
        return Ok((bytes, None));
    }
    let body = bytes
        .len()
        .checked_sub(CHECKSUM_LEN)
        .ok_or(HexError::MissingChecksum)?;
    let mut sum = [0; CHECKSUM_LEN];
    sum.copy_from_slice(&bytes[body..]);
    bytes.truncate(body);
    Ok((bytes, Some(sum)))
}

/// One container of an answer as the wire has it, its strings borrowed from the answer.
#[derive(Deserialize)]
struct WireContainer<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(borrow)]
    bytes: Cow<'a, str>,
    #[serde(borrow)]
    timestamp: Cow<'a, str>,
    #[serde(default, borrow)]
    encoding: Option<Cow<'a, str>>,
    #[serde(borrow)]
    index: WireIndex<'a>,
}

/// An index as a decimal string (avalanchego) or a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum WireIndex<'a> {
    Text(#[serde(borrow)] Cow<'a, str>),
    Number(u64),
}

/// The two shapes of an answer.
#[derive(Deserialize)]
#[serde(untagged)]
enum WireRange<'a> {
    Wrapped {
        #[serde(borrow)]
        containers: Vec<WireContainer<'a>>,
    },
    Bare(#[serde(borrow)] Vec<WireContainer<'a>>),
}

/// [`parse_range_result`] of the result's JSON text. A well-formed answer is read with its
/// strings borrowed (a page of blocks is ~90 MB of hex: no `Value` tree, no string copies);
/// anything else is parsed again as a `Value`, so it fails (or passes) with exactly the same
/// outcome and message.
fn parse_range_text(
    path: IndexPath,
    text: &str,
    start: u64,
) -> Result<Vec<RemoteContainer>, IndexError> {
    let fast = serde_json::from_str::<WireRange<'_>>(text)
        .ok()
        .and_then(|range| {
            let items = match range {
                WireRange::Wrapped { containers } | WireRange::Bare(containers) => containers,
            };
            verify_page(path, start, &items, |w| {
                let index = match &w.index {
                    WireIndex::Text(s) => parse_decimal_u64(s),
                    WireIndex::Number(n) => Some(*n),
                };
                build_container(
                    path,
                    Ok(&w.id),
                    Ok(w.encoding.as_deref()),
                    Ok(&w.bytes),
                    Ok(&w.timestamp),
                    index,
                )
            })
            .ok()
        });
    match fast {
        Some(containers) => Ok(containers),
        None => {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| bad(path, format!("getContainerRange result: {e}")))?;
            parse_range_result(path, &value, start)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;
    use serde_json::json;
    use snowline_types::container::format_rfc3339_nano;
    use snowline_types::formatting::encode_hex_checksum;
    use snowline_types::hashing::sha256;

    /// A container of `X/tx` as an upstream answers it, at `index`.
    fn wire(i: u64, index: u64) -> Value {
        let bytes = format!("tx {i}").into_bytes();
        json!({
            "id": Id(sha256(&bytes)).to_string(),
            "bytes": encode_hex_checksum(&bytes),
            "timestamp": format_rfc3339_nano(1_600_000_000_000_000_000 + i as i64),
            "encoding": "hex",
            "index": index.to_string(),
        })
    }

    /// One way to spoil (or keep) a container's JSON.
    fn mutate(v: &mut Value, how: u8) {
        let o = v.as_object_mut().unwrap();
        match how {
            0 => {}
            1 => drop(o.remove("encoding")),
            2 => drop(o.insert("encoding".into(), Value::Null)),
            3 => drop(o.insert("encoding".into(), json!("HEXNC"))),
            4 => drop(o.insert("encoding".into(), json!(5))),
            5 => drop(o.insert(
                "index".into(),
                json!(o["index"].as_str().unwrap().parse::<u64>().unwrap()),
            )),
            6 => drop(o.insert("index".into(), json!("-1"))),
            7 => drop(o.insert("index".into(), json!(1.5))),
            8 => drop(o.remove("timestamp")),
            9 => drop(o.insert("id".into(), json!("not an id"))),
            10 => drop(o.insert("bytes".into(), json!("0x00"))),
            11 => drop(o.insert("timestamp".into(), json!("yesterday"))),
            12 => drop(o.insert("extra".into(), json!([1, 2]))),
            _ => drop(o.insert("id".into(), Value::Null)),
        }
    }

    fn outcome(
        r: Result<Vec<RemoteContainer>, IndexError>,
    ) -> Result<Vec<RemoteContainer>, String> {
        r.map_err(|e| e.to_string())
    }

    proptest! {
        /// The borrowed-string reading of an answer gives exactly what the `Value` one gives:
        /// the same containers, or the same error.
        #[test]
        fn text_parse_equals_value_parse(
            hows in proptest::collection::vec(prop_oneof![8 => Just(0u8), 1 => 1u8..14], 0..6),
            wrapped in any::<bool>(),
            skew in 0u64..2,
        ) {
            let start = 40;
            let items: Vec<Value> = hows
                .iter()
                .enumerate()
                .map(|(i, how)| {
                    let i = i as u64;
                    let mut v = wire(i, start + i + u64::from(skew == 1 && i == 2));
                    mutate(&mut v, *how);
                    v
                })
                .collect();
            let answer = if wrapped { json!({ "containers": items }) } else { Value::Array(items) };
            let text = answer.to_string();
            let want = outcome(parse_range_result(IndexPath::XTx, &answer, start));
            let got = outcome(parse_range_text(IndexPath::XTx, &text, start));
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn text_parse_takes_null_and_empty_answers() {
        for text in ["null", "[]", "{\"containers\":null}", "{\"containers\":[]}"] {
            assert_eq!(
                outcome(parse_range_text(IndexPath::XTx, text, 0)),
                Ok(Vec::new())
            );
        }
        assert!(parse_range_text(IndexPath::XTx, "{}", 0).is_err());
        assert!(parse_range_text(IndexPath::XTx, "{\"containers\":", 0).is_err());
    }
}
