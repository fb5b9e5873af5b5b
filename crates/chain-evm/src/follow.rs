//! [`follow`]: a service's follower of one EVM chain. It checks the node serves the chain it is
//! configured for, then [`sync`]s forever, retrying with backoff when the node fails and
//! stopping only when going on would index the wrong data. [`SyncStatus`] tells readiness
//! checks and metrics where it stands.

use std::sync::Arc;
use std::time::Duration;

use snowline_store::Store;

use crate::config::EvmSourceConfig;
use crate::derive::{SyncConfig, sync};
use crate::error::EvmError;
use crate::genesis::GenesisLookup;
use crate::hook::BlockHooks;
use crate::source::{EvmSource, SourceConfig};
use crate::status::SyncStatus;
use crate::token_cache::TokenCache;

/// Follows `source`'s chain into `store` until an error that retrying cannot cure: a node that
/// serves another chain, or a block that does not follow the indexed one. Failures of the node
/// are retried after 1 s, doubling to 30 s.
pub async fn follow(
    store: Arc<Store>,
    source: &EvmSourceConfig,
    poll: Duration,
    status: Arc<SyncStatus>,
) -> Result<(), EvmError> {
    follow_with(store, source, poll, status, BlockHooks::new(), None, None).await
}

/// [`follow`], every block also going to `hooks`, in its batch; a chain whose source names no
/// genesis takes it from `pchain` (the P-Chain index's genesis of the chain) when given; the
/// readers' `tokens` cache, when they keep one, is cleared as token rows change.
pub async fn follow_with(
    store: Arc<Store>,
    source: &EvmSourceConfig,
    poll: Duration,
    status: Arc<SyncStatus>,
    hooks: BlockHooks,
    pchain: Option<GenesisLookup>,
    tokens: Option<Arc<TokenCache>>,
) -> Result<(), EvmError> {
    let genesis = source.genesis(pchain).map_err(EvmError::Genesis)?;
    let config = SyncConfig {
        poll,
        stop_after: None,
        start: source.start_block,
        status: Some(Arc::clone(&status)),
        genesis: genesis.clone(),
        hooks,
        tokens,
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
