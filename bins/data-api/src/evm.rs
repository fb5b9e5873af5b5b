//! The EVM chains `serve` indexes: sources from `--evm` and `--evm-config`, the registry entries
//! a sources file describes, and one follower task per chain.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use snowline_chain_evm::genesis::GenesisLookup;
use snowline_chain_evm::{BlockHooks, EvmSourceConfig, SyncStatus, TokenCache};
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::ChainRegistry;
use snowline_store::Store;
use snowline_types::evm::B256;
use tokio::task::JoinHandle;

use crate::cli::ServeArgs;

/// One chain being followed.
pub struct Followed {
    /// Its EVM chain id.
    pub chain_id: u64,
    /// Where its follower stands.
    pub status: Arc<SyncStatus>,
    /// The follower.
    pub task: JoinHandle<()>,
}

/// The sources of the flags and the file; a chain named twice is refused.
pub fn sources(args: &ServeArgs) -> Result<Vec<EvmSourceConfig>, String> {
    let mut all = args.evm.clone();
    if let Some(path) = &args.evm_config {
        all.extend(EvmSourceConfig::load(path)?);
    }
    let mut seen = std::collections::BTreeSet::new();
    for s in &all {
        if !seen.insert(s.chain_id) {
            return Err(format!("EVM chain {} is configured twice", s.chain_id));
        }
    }
    Ok(all)
}

/// Adds the chains the sources describe to `registry`; every source's chain must then be in it.
pub fn register(registry: &mut ChainRegistry, sources: &[EvmSourceConfig]) -> Result<(), String> {
    for s in sources {
        let id = s.chain_id.to_string();
        match s.listing() {
            Some(listing) => {
                let (network, record) = listing?;
                if registry.lookup(&id).is_err() {
                    registry.add(&network, record).map_err(|e| e.to_string())?;
                }
            }
            None if registry.lookup(&id).is_err() => {
                return Err(format!(
                    "EVM chain {id} is not in the chain registry: describe it in --evm-config \
                     (network, chainName, networkToken) or list it in --chains"
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// Each source's own blockchain id, as `registry` knows it (the chain's record, which a
/// sources file's `blockchainId` sets).
pub fn blockchain_ids(
    registry: &ChainRegistry,
    sources: &[EvmSourceConfig],
) -> BTreeMap<u64, B256> {
    sources
        .iter()
        .filter_map(|s| {
            let record = registry.lookup(&s.chain_id.to_string()).ok()?;
            let id = record.blockchain_id()?;
            Some((s.chain_id, B256::from(*id.as_bytes())))
        })
        .collect()
}

/// Starts a follower of each source, which begins once `start` turns true (after the server
/// listens, so a client can watch indexing from its first block); each derives the chain's
/// metrics and ICM messages in its batches too (`blockchain_ids`: each chain's own id, as the
/// registry knows it), and whatever `extra` hooks derive (the webhooks' events); `tokens`, the
/// readers' token-row cache, is cleared as the followers change token rows.
pub fn follow_all(
    store: &Arc<Store>,
    sources: Vec<EvmSourceConfig>,
    poll: Duration,
    blockchain_ids: &BTreeMap<u64, B256>,
    start: &tokio::sync::watch::Receiver<bool>,
    extra: BlockHooks,
    tokens: Option<Arc<TokenCache>>,
) -> Vec<Followed> {
    let hooks = snowline_chain_metrics::ChainMetrics::hooks()
        .and(snowline_chain_icm::IcmDeriver::hooks(
            blockchain_ids.clone(),
        ))
        .and(extra);
    sources
        .into_iter()
        .map(|source| {
            let status = Arc::new(SyncStatus::default());
            let (store, task_status) = (Arc::clone(store), Arc::clone(&status));
            println!(
                "data-api: indexing EVM chain {} from {}",
                source.chain_id, source.rpc_url
            );
            let chain_id = source.chain_id;
            let blockchain_id = blockchain_ids.get(&chain_id).copied();
            let hooks = hooks.clone();
            let tokens = tokens.clone();
            let mut start = start.clone();
            let task = tokio::spawn(async move {
                // A server that never started (its sender dropped) indexes nothing.
                if start.wait_for(|go| *go).await.is_err() {
                    return;
                }
                let pchain = genesis_on_p_chain(&store, blockchain_id);
                if let Err(e) = snowline_chain_evm::follow_with(
                    store,
                    &source,
                    poll,
                    task_status,
                    hooks,
                    pchain,
                    tokens,
                )
                .await
                {
                    tracing::error!(chain = source.chain_id, error = %e, "EVM indexing stopped");
                    eprintln!(
                        "data-api: indexing EVM chain {} stopped: {e}",
                        source.chain_id
                    );
                }
            });
            Followed {
                chain_id,
                status,
                task,
            }
        })
        .collect()
}

/// The genesis bytes of the chain `blockchain_id` names, as the P-Chain index holds them (its
/// `CreateChainTx`, genesis chains too) when block 0 is derived.
fn genesis_on_p_chain(store: &Arc<Store>, blockchain_id: Option<B256>) -> Option<GenesisLookup> {
    let id = snowline_types::Id(blockchain_id?.0);
    let pages = PChainPages::new(Arc::clone(store));
    Some(Arc::new(move || match pages.chain(&id) {
        Ok(row) => row.map(|r| r.genesis),
        Err(e) => {
            tracing::warn!(blockchain = %id, error = %e, "reading the P-Chain index failed");
            None
        }
    }))
}
