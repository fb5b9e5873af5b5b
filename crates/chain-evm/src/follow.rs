//! [`follow`]: a service's follower of one EVM chain. It checks the node serves the chain it is
//! configured for, then [`sync`]s forever, retrying with backoff when the node fails and
//! stopping only when going on would index the wrong data. [`SyncStatus`] tells readiness
//! checks and metrics where it stands.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use snowline_store::Store;

use crate::config::EvmSourceConfig;
use crate::derive::{SyncConfig, sync};
use crate::error::EvmError;
use crate::hook::BlockHooks;
use crate::source::{EvmSource, SourceConfig};

/// Where a follower stands.
#[derive(Debug, Default)]
pub struct SyncStatus {
    inner: Mutex<SyncSnapshot>,
}

/// A copy of a [`SyncStatus`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncSnapshot {
    /// The next block to index.
    pub next: u64,
    /// The node's last block, when asked.
    pub tip: Option<u64>,
    /// Whether the last call to the node succeeded.
    pub node_up: bool,
    /// Why the last call failed, when it did.
    pub last_error: Option<String>,
    /// When the index last reached the node's tip.
    pub caught_up_at: Option<Instant>,
}

impl SyncSnapshot {
    /// Blocks the node has that the index does not.
    pub fn behind(&self) -> u64 {
        self.tip
            .map_or(0, |t| t.saturating_add(1).saturating_sub(self.next))
    }
}

impl SyncStatus {
    fn with(&self, f: impl FnOnce(&mut SyncSnapshot)) {
        if let Ok(mut s) = self.inner.lock() {
            f(&mut s);
        }
    }

    /// A copy of the status.
    pub fn snapshot(&self) -> SyncSnapshot {
        self.inner.lock().map(|s| s.clone()).unwrap_or_default()
    }

    pub(crate) fn tip(&self, tip: u64) {
        self.with(|s| {
            s.tip = Some(tip);
            s.node_up = true;
            s.last_error = None;
        });
    }

    pub(crate) fn indexed(&self, next: u64) {
        self.with(|s| s.next = next);
    }

    pub(crate) fn caught_up(&self) {
        self.with(|s| s.caught_up_at = Some(Instant::now()));
    }

    fn failed(&self, e: &EvmError) {
        self.with(|s| {
            s.node_up = false;
            s.last_error = Some(e.to_string());
        });
    }
}

/// Follows `source`'s chain into `store` until an error that retrying cannot cure: a node that
/// serves another chain, or a block that does not follow the indexed one. Failures of the node
/// are retried after 1 s, doubling to 30 s.
pub async fn follow(
    store: Arc<Store>,
    source: &EvmSourceConfig,
    poll: Duration,
    status: Arc<SyncStatus>,
) -> Result<(), EvmError> {
    follow_with(store, source, poll, status, BlockHooks::new()).await
}

/// [`follow`], every block also going to `hooks`, in its batch.
pub async fn follow_with(
    store: Arc<Store>,
    source: &EvmSourceConfig,
    poll: Duration,
    status: Arc<SyncStatus>,
    hooks: BlockHooks,
) -> Result<(), EvmError> {
    let config = SyncConfig {
        poll,
        stop_after: None,
        start: source.start_block,
        status: Some(Arc::clone(&status)),
        genesis_accounts: source.genesis_accounts.clone(),
        hooks,
    };
    let mut pause = Duration::from_secs(1);
    loop {
        let node = Arc::new(EvmSource::new(&source.rpc_url, SourceConfig::default())?);
        let result = match node.chain_id().await {
            Ok(id) if id != source.chain_id => {
                return Err(EvmError::WrongChain {
                    url: source.rpc_url.clone(),
                    expected: source.chain_id,
                    found: id,
                });
            }
            Ok(_) => sync(&store, &node, &config).await.map(|_| ()),
            Err(e) => Err(e.into()),
        };
        match result {
            Ok(()) => return Ok(()),
            Err(e @ (EvmError::ParentMismatch { .. } | EvmError::Store(_))) => return Err(e),
            Err(e) => {
                status.failed(&e);
                tracing::warn!(chain = source.chain_id, error = %e, retry_in = ?pause, "EVM follower failed");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(30));
            }
        }
    }
}
