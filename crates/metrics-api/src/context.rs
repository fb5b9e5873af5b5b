//! [`MetricsApi`]: what the handlers share (the room's reads, the page tokens, the chain
//! registry) and how a `{chainId}` path value becomes a chain with metrics.

use snowline_chain_metrics::{MetricsPages, PageTokens, SeriesError, TokenError};
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::{ChainLookupError, ChainRegistry};
use snowline_rest::ApiError;
use snowline_types::NetworkInfo;
use snowline_types::rest::ChainRecord;

/// The metrics endpoints' state.
#[derive(Debug, Clone)]
pub struct MetricsApi {
    pub(crate) pages: MetricsPages,
    pub(crate) tokens: PageTokens,
    pub(crate) registry: ChainRegistry,
    /// The P-Chain reads of the staking metrics and the network the index holds, when served.
    pub(crate) staking: Option<(PChainPages, &'static NetworkInfo)>,
}

/// The aggregate `chainId`s the OpenAPI names, not served yet.
const AGGREGATES: [&str; 3] = ["total", "mainnet", "testnet"];

impl MetricsApi {
    /// The endpoints over `pages`, paging with `tokens`, for the chains of `registry` that have
    /// metrics.
    pub fn new(pages: MetricsPages, tokens: PageTokens, registry: ChainRegistry) -> Self {
        Self {
            pages,
            tokens,
            registry,
            staking: None,
        }
    }

    /// Serves the staking metrics of `network` from `pages` (the P-Chain tables of the index).
    pub fn with_staking(mut self, pages: PChainPages, network: &'static NetworkInfo) -> Self {
        self.staking = Some((pages, network));
        self
    }

    /// The P-Chain reads for a `{network}` path value: a 400 if malformed, a 404 if it is not
    /// the network indexed (or no P-Chain is served).
    pub(crate) fn staking(&self, network: &str) -> Result<&PChainPages, ApiError> {
        let Some((pages, served)) = &self.staking else {
            return Err(ApiError::not_found(format!(
                "network {network}: this instance serves no P-Chain staking metrics"
            )));
        };
        crate::staking::served_network(network, served)?;
        Ok(pages)
    }

    /// The chain `chain_ref` names (a decimal EVM chain id or a blockchain id), if it is listed
    /// and has metrics: its EVM chain id and record. Otherwise a 404 (a malformed id: 400).
    pub(crate) fn chain(&self, chain_ref: &str) -> Result<(u64, &ChainRecord), ApiError> {
        if AGGREGATES.contains(&chain_ref) {
            return Err(ApiError::not_found(format!(
                "chainId {chain_ref:?}: metrics aggregated over chains are not served by this \
                 instance yet; GET /v2/chains lists the chains it serves"
            )));
        }
        let record = self.registry.lookup(chain_ref).map_err(|e| match e {
            ChainLookupError::Invalid(_) => ApiError::bad_request(e.to_string()),
            ChainLookupError::NotFound(_) => ApiError::not_found(format!(
                "chain {chain_ref} is not served by this instance; GET /v2/chains lists the \
                 chains it serves"
            )),
        })?;
        let id = record
            .chain_id
            .parse::<u64>()
            .map_err(|_| ApiError::internal("a registry record has a non-numeric chainId"))?;
        if self.pages.cursor(id).map_err(read_failed)?.is_none() {
            return Err(ApiError::not_found(format!(
                "chain {chain_ref} has no metrics indexed by this instance yet"
            )));
        }
        Ok((id, record))
    }
}

/// A failed read of the room (our fault).
pub(crate) fn read_failed(e: SeriesError) -> ApiError {
    match e {
        SeriesError::NotIndexed(_) => ApiError::not_found(e.to_string()),
        SeriesError::Store(_) => ApiError::internal(format!("reading the metrics failed: {e}")),
    }
}

/// A page token that cannot be used: expired or unknown tokens are the client's 400s.
pub(crate) fn token_failed(e: TokenError) -> ApiError {
    match e {
        TokenError::Unknown | TokenError::Expired => ApiError::bad_request(e.to_string()),
        TokenError::Random(_) | TokenError::Store(_) => {
            ApiError::internal(format!("the page tokens are unavailable: {e}"))
        }
    }
}
