//! `node-rpc follow --upstream URL`: mirrors an upstream node's index API, path by path, with
//! `index.getContainerRange` pages of up to 1024 containers starting at our own next index, so a
//! restart resumes where the last committed batch ended.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use snowline_derive::{Derive, Prepare, WriteBehind};
use snowline_jsonrpc_client::{ClientError, RpcClient};
use snowline_store::{Store, WriteBatch};
use snowline_types::Id;
use snowline_types::container::{ContainerLine, IndexPath};
use snowline_types::json_uint::JsonU64;

use crate::error::IndexError;
use crate::ingest::{PreparedLine, overlap_page, write_page};
use crate::range_wire::{bad, parse_range_text};
use crate::reader::IndexReader;
use crate::status::FollowStatus;
use crate::writer::IndexWriter;

/// How a [`Follower`] polls and retries.
#[derive(Debug, Clone)]
pub struct FollowConfig {
    /// `numToFetch` per call (1..=1024).
    pub batch: u64,
    /// Staged write data per atomic batch, in bytes: a page is written in as many batches
    /// (each of whole containers) as this cuts it into ([`crate::BatchLimits`]).
    pub batch_bytes: usize,
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
            batch_bytes: crate::DEFAULT_BATCH_BYTES,
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

/// What one page fetch found: its containers verified and prepared for the derive hook.
///
/// A page starting at `start` > 0 is asked from `start - 1`: the upstream's container there
/// (`anchor`) must be the one the index holds, or the previous page's last, so every page
/// proves that the upstream still holds what the index holds below it.
enum Page<C> {
    Containers {
        /// The id the upstream holds at `start - 1` (`None` for a page from 0).
        anchor: Option<Id>,
        lines: C,
    },
    CaughtUp,
    NotServed,
    /// The upstream has accepted fewer containers than `start`: why.
    Fewer(String),
}

/// Fetches pages of one path. Owns what it needs, so a page can be fetched on another task
/// while the previous one is written.
#[derive(Debug, Clone)]
struct PageFetcher {
    path: IndexPath,
    client: Arc<RpcClient>,
    config: Arc<FollowConfig>,
    status: Arc<FollowStatus>,
}

/// Mirrors an upstream node's `/ext/index/...` endpoints into the local index.
#[derive(Debug)]
pub struct Follower {
    clients: Vec<(IndexPath, Arc<RpcClient>)>,
    config: Arc<FollowConfig>,
    status: Arc<FollowStatus>,
}

/// Pages fetched ahead of the one being written (each page of the block era is tens of MB of
/// JSON while in flight, so a few are enough to keep the writer busy).
const PAGES_AHEAD: usize = 2;

/// Containers asked for in a path's first pages, before their sizes are known: small, so a path
/// of large containers (X-Chain blocks of ~100 KB) does not start with pages of 1024 of them.
const FIRST_PAGE: u64 = 32;

/// How many containers to ask for per page: as many as make about `bytes` of container bytes at
/// the sizes seen so far on the path (the last page's average), between 1 and `max`. Bounds
/// what the pages in flight hold (`PAGES_AHEAD` fetched, one being written, each also held as
/// hex JSON while it is parsed) by bytes rather than by count.
#[derive(Debug, Clone, Copy)]
struct PageSizer {
    max: u64,
    bytes: usize,
    n: u64,
}

impl PageSizer {
    fn new(max: u64, bytes: usize) -> Self {
        let max = max.max(1);
        Self {
            max,
            bytes: bytes.max(1),
            n: FIRST_PAGE.min(max),
        }
    }

    /// The size of the next page to ask for.
    fn next(&self) -> u64 {
        self.n
    }

    /// A page of `containers` holding `bytes` of container bytes arrived.
    fn observe(&mut self, containers: usize, bytes: usize) {
        if containers == 0 {
            return;
        }
        let avg = (bytes / containers).max(1);
        self.n = u64::try_from(self.bytes / avg)
            .unwrap_or(u64::MAX)
            .clamp(1, self.max);
    }
}

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
            status: Arc::new(FollowStatus::new()),
        })
    }

    /// Keeps `status` current instead of a status of its own (the serving side reads it for
    /// `/readyz` and `/metrics`).
    pub fn with_status(mut self, status: Arc<FollowStatus>) -> Self {
        self.status = status;
        self
    }

    /// What the follower knows of the upstream: heads, lag, failures, retries, refusals.
    pub fn status(&self) -> &Arc<FollowStatus> {
        &self.status
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
                status: Arc::clone(&self.status),
            })
    }

    /// Fetches one page of `path` from our next index on and writes it (with what `derive`
    /// adds) in atomic batches of at most [`FollowConfig::batch_bytes`] each. Returns the containers added, `None` when the upstream does
    /// not serve the path.
    pub async fn step<D: Derive>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        path: IndexPath,
        derive: &mut D,
    ) -> Result<Option<u64>, IndexError> {
        let Some(fetcher) = self.fetcher(path) else {
            return Ok(None);
        };
        let n = fetcher.page_size();
        let page = fetcher
            .page::<D::Prepared>(writer.next_index(path), n)
            .await?;
        match page {
            Page::NotServed => Ok(None),
            Page::CaughtUp => Ok(Some(0)),
            Page::Fewer(why) => Err(IndexError::Diverged { path, message: why }),
            Page::Containers { anchor, lines } => {
                let next = writer.next_index(path);
                check_anchor(path, next, anchor, held_id(store, path, next)?)?;
                let bytes = self.config.batch_bytes;
                write_page(store, writer, derive, &mut WriteBatch::new(), lines, bytes).map(Some)
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
        D: Derive,
        F: FnMut(IndexPath, u64),
    {
        let path = fetcher.path;
        let mut progress = PathProgress {
            path,
            added: 0,
            next_index: writer.next_index(path),
            served: true,
        };
        let spawn = |start: u64, n: u64| {
            let f = fetcher.clone();
            AbortOnDrop(tokio::spawn(async move {
                f.page::<D::Prepared>(start, n).await
            }))
        };
        // Pages are fetched ahead on the assumption that each is full (`n` containers, as
        // every page but the upstream's last is); a shorter page drops the guesses after it.
        // `n` follows the containers' sizes (see `PageSizer`), so the pages in flight hold about
        // a quarter of `batch_bytes` of containers each (twice that as hex JSON while parsed,
        // and more once decoded) whatever the path holds: a page's derived rows make about one
        // batch.
        let mut sizer = PageSizer::new(fetcher.page_size(), self.config.batch_bytes / 4);
        let mut ahead: VecDeque<(u64, u64, AbortOnDrop<_>)> = VecDeque::new();
        let first = writer.next_index(path);
        let n = sizer.next();
        ahead.push_back((first, n, spawn(first, n)));
        let mut batch = WriteBatch::new();
        let mut behind = derive.overlaps_writes().then(WriteBehind::default);
        // The id held at the next page's `start - 1`: the index's last, then each page's last.
        let mut held = held_id(store, path, first)?;
        while let Some((start, _, mut fetch)) = ahead.pop_front() {
            let page = fetch
                .join(path)
                .await
                .and_then(|page| page)
                .and_then(|page| match page {
                    Page::Fewer(why) => Err(IndexError::Diverged { path, message: why }),
                    Page::Containers { anchor, lines } => check_anchor(path, start, anchor, held)
                        .map(|()| Page::Containers { anchor, lines }),
                    other => Ok(other),
                });
            let page = match page {
                Ok(page) => page,
                Err(e) => {
                    // The finished batch is whole: write it before giving up.
                    if let Some(behind) = behind.take() {
                        behind.land(store, &mut (&mut *derive, &mut *writer))?;
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
                Page::CaughtUp | Page::Fewer(_) => break,
                Page::Containers { lines, .. } if lines.is_empty() => break,
                Page::Containers { lines, .. } => lines,
            };
            held = lines.last().map(|l| l.line.record.id);
            sizer.observe(
                lines.len(),
                lines.iter().map(|l| l.line.record.bytes.len()).sum(),
            );
            let next = start.saturating_add(u64::try_from(lines.len()).unwrap_or(u64::MAX));
            if ahead.front().is_some_and(|(s, _, _)| *s != next) {
                ahead.clear();
            }
            let mut guess = ahead.back().map_or(next, |(s, n, _)| s.saturating_add(*n));
            while ahead.len() < PAGES_AHEAD {
                let n = sizer.next();
                ahead.push_back((guess, n, spawn(guess, n)));
                guess = guess.saturating_add(n);
            }
            // A page is written in batches of at most `batch_bytes` of write data each.
            let max_bytes = self.config.batch_bytes;
            let (landed, new) = match behind.as_mut() {
                None => {
                    let added = write_page(store, writer, derive, &mut batch, lines, max_bytes)?;
                    (added, added > 0)
                }
                Some(behind) => {
                    let mut lines = lines.into_iter().peekable();
                    let (mut landed, mut new) = (0, false);
                    while lines.peek().is_some() {
                        landed += overlap_page(
                            behind, store, writer, derive, &mut batch, &mut lines, max_bytes,
                        )?;
                        new |= behind.sealed_added() > 0;
                    }
                    (landed, new)
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
        if let Some(landed) = behind
            .map(|b| b.land(store, &mut (&mut *derive, &mut *writer)))
            .transpose()?
        {
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
        D: Derive,
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

    /// Syncs, then polls every `poll_interval`, until `shutdown` completes, keeping
    /// [`Follower::status`] current: the upstream's head per path (asked with
    /// `index.getLastAccepted` before each round), our position after each batch, failed calls,
    /// retries and refused pages. A round that fails after its retries (the upstream down,
    /// failing, or sending pages that fail verification) is logged and tried again at the next
    /// poll (the upstream may come back). Before each round the upstream must agree with what is
    /// held here (its last container per path); while it does not, nothing is written and the
    /// status says why. Only a local failure (the store, a derive hook) ends the loop.
    pub async fn run<D, S>(
        &self,
        store: &Store,
        writer: &mut IndexWriter,
        derive: &mut D,
        shutdown: S,
    ) -> Result<(), IndexError>
    where
        D: Derive,
        S: Future<Output = ()>,
    {
        let status = &*self.status;
        tokio::pin!(shutdown);
        for (path, _) in &self.clients {
            status.set_local(*path, writer.next_index(*path));
        }
        loop {
            let started = std::time::Instant::now();
            let mut far_behind = false;
            let round = async {
                self.heads().await?;
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
                        if status.set_diverged(None) {
                            tracing::warn!("the upstream agrees with the index again; following");
                        }
                        for p in progress.iter().filter(|p| !p.served) {
                            status.remove_path(p.path);
                        }
                        status.caught_up();
                        if far_behind {
                            log_catch_up(&progress, started.elapsed());
                        }
                    }
                    Err(IndexError::Diverged { message: why, .. }) => {
                        if status.set_diverged(Some(why.clone())) {
                            tracing::error!(
                                reason = %why,
                                "the upstream diverged from the index: not following until it agrees"
                            );
                        }
                    }
                    Err(e @ (IndexError::Unavailable { .. }
                    | IndexError::Upstream { .. }
                    | IndexError::Container(_)
                    | IndexError::IndexMismatch { .. })) => {
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
    /// with the same retries as a page fetch; records each served path's head in the status.
    async fn heads(&self) -> Result<(), IndexError> {
        #[derive(Serialize)]
        struct Args {
            encoding: &'static str,
        }
        for (path, client) in &self.clients {
            let path = *path;
            // `Some(containers accepted)`, or `None` when the upstream does not serve the path.
            let head = with_retries(&self.config, &self.status, path, || async move {
                match client
                    .call::<_, Value>("index.getLastAccepted", Args { encoding: "hex" })
                    .await
                {
                    Ok(v) => match v
                        .get("index")
                        .and_then(Value::as_str)
                        .and_then(|s| s.parse::<u64>().ok())
                    {
                        Some(i) => Attempt::Done(Ok(Some(i.saturating_add(1)))),
                        None => Attempt::Refuse("getLastAccepted: no decimal `index`".into()),
                    },
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
                self.status.set_upstream(path, accepted);
            }
        }
        Ok(())
    }
}

/// The id the index holds at `next - 1` on `path` (`None` when `next` is 0).
fn held_id(store: &Store, path: IndexPath, next: u64) -> Result<Option<Id>, IndexError> {
    let Some(last) = next.checked_sub(1) else {
        return Ok(None);
    };
    match IndexReader::new(store, path).by_index(last)? {
        Some(c) => Ok(Some(c.id)),
        None => Err(IndexError::Corrupt(format!(
            "{path}: no container at index {last} below the next index {next}"
        ))),
    }
}

/// Whether the upstream's container at `start - 1` (`anchor`) is the one held there: if not,
/// the upstream holds another chain (or was rewound and accepted others), and nothing of the
/// page may be written.
fn check_anchor(
    path: IndexPath,
    start: u64,
    anchor: Option<Id>,
    held: Option<Id>,
) -> Result<(), IndexError> {
    if anchor == held {
        return Ok(());
    }
    let show = |id: Option<Id>| id.map_or_else(|| "nothing".to_owned(), |id| id.to_string());
    Err(IndexError::Diverged {
        path,
        message: format!(
            "{path}: the upstream's container at index {} is {}, the index holds {}",
            start.saturating_sub(1),
            show(anchor),
            show(held)
        ),
    })
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
    /// An answer that failed verification: refused (nothing of it is written), logged with
    /// its reason and retried like a failure.
    Refuse(String),
}

/// The pauses between attempts: `retry_initial`, doubled after each failure, at most
/// `retry_max`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Backoff {
    next: Duration,
    max: Duration,
}

impl Backoff {
    pub(crate) fn new(config: &FollowConfig) -> Self {
        Self {
            next: config.retry_initial.min(config.retry_max),
            max: config.retry_max,
        }
    }

    /// The pause before the next attempt.
    pub(crate) fn pause(&mut self) -> Duration {
        let now = self.next;
        self.next = self.next.saturating_mul(2).min(self.max);
        now
    }
}

/// Runs `attempt` until it is done, retrying what it says is retryable (or refused) with
/// exponential backoff, at most `max_attempts` times; then the path is `Unavailable`. Every
/// failed attempt and refusal is recorded in `status`.
async fn with_retries<T, F, Fut>(
    config: &FollowConfig,
    status: &FollowStatus,
    path: IndexPath,
    mut attempt: F,
) -> Result<T, IndexError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Attempt<T>>,
{
    let mut backoff = Backoff::new(config);
    let mut attempts = 0u32;
    loop {
        attempts += 1;
        let last = attempts >= config.max_attempts.max(1);
        let err = match attempt().await {
            Attempt::Done(r) => {
                status.call_succeeded();
                return r;
            }
            Attempt::Retry(err) => {
                status.call_failed(&err, !last);
                err
            }
            Attempt::Refuse(reason) => {
                tracing::warn!(%path, attempts, reason = %reason, "refused a page from the upstream");
                status.page_refused(&reason);
                format!("refused a page: {reason}")
            }
        };
        if last {
            return Err(IndexError::Unavailable {
                path,
                attempts,
                message: err,
            });
        }
        tracing::warn!(%path, attempts, error = %err, "upstream call failed; retrying");
        tokio::time::sleep(backoff.pause()).await;
    }
}

impl PageFetcher {
    /// Containers asked for per page.
    fn page_size(&self) -> u64 {
        self.config.batch.clamp(1, crate::MAX_FETCHED_BY_RANGE)
    }

    /// Fetches the page starting at `start` (asked from `start - 1`, the anchor: see [`Page`]),
    /// then verifies and prepares its containers on the blocking pool (hex decoding, hashing
    /// and the hook's decoding are most of a page's CPU). A failed call is retried, and so is a
    /// page that fails verification (it is refused: nothing of it is written).
    async fn page<P: Prepare>(
        &self,
        start: u64,
        n: u64,
    ) -> Result<Page<Vec<PreparedLine<P>>>, IndexError> {
        let path = self.path;
        let client = &self.client;
        let n = n.clamp(1, self.page_size());
        // With the anchor, one more container, within the API's limit.
        let (from, asked) = match start.checked_sub(1) {
            Some(from) => (from, (n + 1).min(crate::MAX_FETCHED_BY_RANGE)),
            None => (0, n),
        };
        with_retries(&self.config, &self.status, path, || async move {
            let args = RangeArgs {
                start_index: JsonU64(from),
                num_to_fetch: JsonU64(asked),
                encoding: "hex",
            };
            let value = match client.call_raw("index.getContainerRange", args).await {
                Ok(v) => v,
                Err(ClientError::Rpc { message, .. })
                    if message == "no containers have been accepted"
                        || message.starts_with("start index (") =>
                {
                    // Nothing at `from`: caught up from 0, or fewer than the index holds.
                    return Attempt::Done(Ok(if start == 0 {
                        Page::CaughtUp
                    } else {
                        Page::Fewer(fewer(path, start, &message))
                    }));
                }
                Err(ClientError::Status { status: 404, .. }) => {
                    return Attempt::Done(Ok(Page::NotServed));
                }
                Err(e) => return Attempt::Retry(e.to_string()),
            };
            // The answer's JSON is parsed here too, not on the async worker: pages then parse
            // in parallel instead of one after the other on the one worker the writer leaves
            // free.
            let parsed = tokio::task::spawn_blocking(move || {
                parse_range_text(path, value.json(), from).map(|containers| {
                    let mut containers = containers.into_iter();
                    let anchor = if start > 0 {
                        containers.next().map(|c| c.record.id)
                    } else {
                        None
                    };
                    let lines = containers
                        .map(|c| {
                            PreparedLine::new(ContainerLine {
                                record: c.record,
                                index: Some(c.index),
                            })
                        })
                        .collect();
                    (anchor, lines)
                })
            })
            .await;
            match parsed {
                // An empty answer from `from`: nothing to check the index against, nor to add.
                Ok(Ok((None, _))) if start > 0 => Attempt::Done(Ok(Page::CaughtUp)),
                Ok(Ok((anchor, lines))) => Attempt::Done(Ok(Page::Containers { anchor, lines })),
                Ok(Err(e)) => Attempt::Refuse(e.to_string()),
                Err(e) => Attempt::Done(Err(bad(path, format!("page parse task: {e}")))),
            }
        })
        .await
    }
}

/// Why an upstream that has nothing at `start - 1` is behind the index: from its error
/// (`start index (S) > last accepted index (L)`, or none accepted).
fn fewer(path: IndexPath, start: u64, message: &str) -> String {
    let accepted = message
        .split("last accepted index (")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|l| l.parse::<u64>().ok())
        .map_or(0, |l| l.saturating_add(1));
    format!("{path}: the upstream has accepted {accepted} containers, {start} are held here")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_first_pause_up_to_the_bound() {
        let config = FollowConfig {
            retry_initial: Duration::from_millis(200),
            retry_max: Duration::from_millis(1000),
            ..FollowConfig::default()
        };
        let mut b = Backoff::new(&config);
        let pauses: Vec<u64> = (0..6).map(|_| b.pause().as_millis() as u64).collect();
        assert_eq!(pauses, [200, 400, 800, 1000, 1000, 1000]);
        // A bound below the first pause bounds it too.
        let mut b = Backoff::new(&FollowConfig {
            retry_max: Duration::from_millis(50),
            ..config
        });
        assert_eq!(
            (b.pause(), b.pause()),
            (Duration::from_millis(50), Duration::from_millis(50))
        );
    }
}
