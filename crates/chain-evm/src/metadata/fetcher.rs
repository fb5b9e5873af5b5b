//! The background fetcher: rounds of at most [`ROUND`] queued tokens, at most `concurrency`
//! fetched at once, each result written with its queue entry's removal; a transient failure
//! (no connection, a timeout, a 429 or 5xx answer) is tried again after each delay of the
//! schedule before its status is written.

use std::sync::Arc;
use std::time::Duration;

use snowline_outbound::{Client, ClientConfig, OutboundError, Request, Response};
use snowline_types::evm::U256;
use snowline_types::evm::nft_metadata::{InlineMetadata, metadata_document};
use snowline_types::rest::evm::NftTokenMetadataStatus;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::locate::{Locating, Location, locate, token_uri};
use super::queue::{MetadataQueue, QueueKey};
use crate::rows::{MetadataRow, TransferKind};

/// Queued tokens taken per round: the fetcher's in-memory queue holds no more.
pub const ROUND: usize = 64;

/// How metadata is fetched.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// The outbound client's networks, timeout, body cap and redirects.
    pub client: ClientConfig,
    /// How URIs become URLs.
    pub locating: Locating,
    /// Fetches at once.
    pub concurrency: usize,
    /// The delays before each retry of a transient failure.
    pub retries: Vec<Duration>,
}

/// Fetches queued tokens' metadata until aborted.
pub async fn run(queue: Arc<MetadataQueue>, config: FetchConfig) {
    let client = match Client::new(config.client.clone()) {
        Ok(c) => Arc::new(c),
        Err(e) => {
            tracing::error!(error = %e, "NFT metadata fetching cannot start");
            return;
        }
    };
    let config = Arc::new(config);
    let permits = Arc::new(Semaphore::new(config.concurrency.max(1)));
    loop {
        let keys = match queue.pending(ROUND) {
            Ok(keys) => keys,
            Err(e) => {
                tracing::warn!(error = %e, "reading the NFT metadata queue failed");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if keys.is_empty() {
            tokio::select! {
                () = queue.woken() => {}
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
            }
            continue;
        }
        let mut round = JoinSet::new();
        for key in keys {
            let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
                return;
            };
            let (queue, client, config) =
                (Arc::clone(&queue), Arc::clone(&client), Arc::clone(&config));
            round.spawn(async move {
                let outcome = fetch_token(&queue, &client, &config, &key).await;
                drop(permit);
                if let Err(e) = outcome {
                    tracing::warn!(error = %e, "writing NFT metadata failed");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            });
        }
        while round.join_next().await.is_some() {}
    }
}

/// Fetches the metadata of the token of `key` and writes it.
async fn fetch_token(
    queue: &MetadataQueue,
    client: &Client,
    config: &FetchConfig,
    key: &QueueKey,
) -> Result<(), crate::EvmError> {
    let (uri, kind) = queue.token(key)?;
    let id = U256::from_be_bytes(key.3);
    let (uri, metadata) = match uri {
        None => (
            String::new(),
            InlineMetadata::status(NftTokenMetadataStatus::MissingToken),
        ),
        Some(uri) => {
            let kind = kind.unwrap_or(TransferKind::Erc721);
            let shown = token_uri(&uri, &id, kind);
            let metadata = match locate(&uri, &id, kind, &config.locating) {
                Location::Inline(m) => *m,
                Location::Unavailable(status, why) => {
                    tracing::debug!(%uri, %why, "NFT metadata not fetched");
                    InlineMetadata::status(status)
                }
                Location::Fetch(url) => fetch(client, &url, &config.retries).await,
            };
            (shown, metadata)
        }
    };
    let row = MetadataRow {
        uri,
        fetched_at: now_secs(),
        metadata,
    };
    queue.finish(key, row)
}

/// The document at `url`, or the status of why there is none.
async fn fetch(client: &Client, url: &str, retries: &[Duration]) -> InlineMetadata {
    let mut attempt = 0;
    loop {
        let answer = client
            .send(Request::get(url).header("accept", "application/json"))
            .await;
        let (metadata, transient) = read(answer);
        match retries.get(attempt) {
            Some(delay) if transient => {
                tracing::debug!(%url, attempt, "NFT metadata fetch failed, retrying");
                tokio::time::sleep(*delay).await;
                attempt += 1;
            }
            _ => return metadata,
        }
    }
}

/// What an answer says, and whether trying again may change it.
fn read(answer: Result<Response, OutboundError>) -> (InlineMetadata, bool) {
    use NftTokenMetadataStatus::*;
    let status = |s| InlineMetadata::status(s);
    match answer {
        Ok(r) if r.is_success() => (metadata_document(&r.body), false),
        Ok(r) if r.status == 429 => (status(ThrottledTokenUri), true),
        Ok(r) => (status(UnreachableTokenUri), r.status >= 500),
        Err(OutboundError::TooLarge { .. }) => (status(MetadataContentTooLarge), false),
        Err(OutboundError::Url(_)) => (status(InvalidTokenUri), false),
        Err(OutboundError::Unreachable(_) | OutboundError::Timeout(_)) => {
            (status(UnreachableTokenUri), true)
        }
        Err(OutboundError::Refused(_) | OutboundError::Redirect(_)) => {
            (status(UnreachableTokenUri), false)
        }
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
