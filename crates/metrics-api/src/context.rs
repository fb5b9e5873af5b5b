//! [`MetricsApi`]: what the handlers share (the room's reads, the page tokens, the chain
//! registry) and how a `{chainId}` path value becomes a chain with metrics.

use std::collections::BTreeMap;

use snowline_chain_evm::pages::{EvmPages, LOOKING_GLASS_MAX_ROWS};
use snowline_chain_icm::IcmMetrics;
use snowline_chain_metrics::{MetricsPages, SeriesError, StoredPageTokens, TokenError};
use snowline_chain_p::metrics::SubnetReadError;
use snowline_chain_p::pages::PChainPages;
use snowline_chain_registry::{ChainLookupError, ChainRegistry};
use snowline_rest_api::ApiError;

use snowline_types::NetworkInfo;
use snowline_types::evm::Address;
use snowline_types::rest::ChainRecord;

/// The Avalanche C-Chain's EVM chain id.
pub const AVALANCHE_C_CHAIN: u64 = 43114;

/// BTC.b on the Avalanche C-Chain: the Avalanche Bridge's Bitcoin token, minted when BTC
/// arrives and burnt by `unwrap` when it leaves.
pub const BTC_B: Address = Address::new([
    0x15, 0x2b, 0x9d, 0x0f, 0xdc, 0x40, 0xc0, 0x96, 0x75, 0x7f, 0x57, 0x0a, 0x51, 0xe4, 0x94, 0xbd,
    0x4b, 0x94, 0x3e, 0x50,
]);

/// The metrics endpoints' state.
#[derive(Debug, Clone)]
pub struct MetricsApi {
    pub(crate) pages: MetricsPages,
    pub(crate) tokens: StoredPageTokens,
    pub(crate) registry: ChainRegistry,
    /// The P-Chain reads of the staking metrics and the network the index holds, when served.
    pub(crate) staking: Option<(PChainPages, &'static NetworkInfo)>,
    /// The ICM counts and the network the index holds, when the index has the ICM tables.
    pub(crate) icm: Option<(IcmMetrics, &'static NetworkInfo)>,
    /// The EVM reads of the Looking Glass, when served.
    pub(crate) evm: Option<EvmPages>,
    /// The bridged token of each chain whose bridged amounts are served (BTC.b on the
    /// Avalanche C-Chain unless the operator names another).
    pub(crate) bridged: BTreeMap<u64, Address>,
    /// The most index rows one Looking Glass request reads.
    pub(crate) max_rows: u64,
}

/// The aggregate `chainId`s the OpenAPI names.
const AGGREGATES: [&str; 3] = ["total", "mainnet", "testnet"];

/// What a `{chainId}` of a metrics route names: one chain, or an aggregate over chains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// An EVM chain id.
    Chain(u64),
    /// `total`, `mainnet` or `testnet`, and the chains with metrics it sums (at least one).
    Aggregate(&'static str, Vec<u64>),
}

impl Target {
    /// How page tokens name it.
    pub(crate) fn key(&self) -> String {
        match self {
            Target::Chain(id) => id.to_string(),
            Target::Aggregate(name, _) => (*name).to_owned(),
        }
    }
}

impl MetricsApi {
    /// The endpoints over `pages`, paging with `tokens`, for the chains of `registry` that have
    /// metrics.
    pub fn new(pages: MetricsPages, tokens: StoredPageTokens, registry: ChainRegistry) -> Self {
        Self {
            pages,
            tokens,
            registry,
            staking: None,
            icm: None,
            evm: None,
            bridged: BTreeMap::from([(AVALANCHE_C_CHAIN, BTC_B)]),
            max_rows: LOOKING_GLASS_MAX_ROWS,
        }
    }

    /// Caps the index rows one Looking Glass request reads at `max_rows` (default
    /// [`LOOKING_GLASS_MAX_ROWS`]); a request past it is a 400.
    pub fn with_looking_glass_max_rows(mut self, max_rows: u64) -> Self {
        self.max_rows = max_rows;
        self
    }

    /// Serves the bridged amounts of `tokens` (`(chain, token contract)`), each replacing the
    /// chain's default (BTC.b on the Avalanche C-Chain).
    pub fn with_bridged_tokens(mut self, tokens: impl IntoIterator<Item = (u64, Address)>) -> Self {
        self.bridged.extend(tokens);
        self
    }

    /// The bridged token of `chain`, if one is configured.
    pub(crate) fn bridged_token(&self, chain: u64) -> Option<Address> {
        self.bridged.get(&chain).copied()
    }

    /// Serves the token holders from `pages` (the EVM tables of the index).
    pub fn with_evm(mut self, pages: EvmPages) -> Self {
        self.evm = Some(pages);
        self
    }

    /// Serves the ICM metrics of `network` from `metrics` (the ICM tables of the index).
    pub fn with_icm(mut self, metrics: IcmMetrics, network: &'static NetworkInfo) -> Self {
        self.icm = Some((metrics, network));
        self
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
        snowline_query::params::served_network(network, served)?;
        Ok(pages)
    }

    /// The P-Chain reads (L1 validator metrics, which name no network): a 404 when the index
    /// has no P-Chain.
    pub(crate) fn p_chain(&self) -> Result<&PChainPages, ApiError> {
        self.staking
            .as_ref()
            .map(|(pages, _)| pages)
            .ok_or_else(|| {
                ApiError::not_found(
                    "this instance serves no P-Chain metrics (the index has no P-Chain)",
                )
            })
    }

    /// The chains or aggregate `chain_ref` names: `total` (every chain served), `mainnet`,
    /// `testnet` (the served chains of that network, local ones counting as testnet), or one
    /// chain as [`MetricsApi::chain`] resolves it. An aggregate with no chain is a 404.
    pub(crate) fn target(&self, chain_ref: &str) -> Result<Target, ApiError> {
        let Some(name) = AGGREGATES.iter().find(|a| **a == chain_ref) else {
            return self.chain(chain_ref).map(|(id, _)| Target::Chain(id));
        };
        let chains: Vec<u64> = self
            .pages
            .chains()
            .map_err(read_failed)?
            .into_iter()
            .filter_map(|(id, _)| {
                let record = self.registry.lookup(&id.to_string()).ok()?;
                let wanted = match *name {
                    "mainnet" => !record.is_testnet,
                    "testnet" => record.is_testnet,
                    _ => true,
                };
                wanted.then_some(id)
            })
            .collect();
        if chains.is_empty() {
            return Err(ApiError::not_found(format!(
                "chainId {chain_ref}: this instance serves no chain with metrics in it; GET \
                 /v2/chains lists the chains it serves"
            )));
        }
        Ok(Target::Aggregate(name, chains))
    }

    /// The chain `chain_ref` names (a decimal EVM chain id or a blockchain id), if it is listed
    /// and has metrics: its EVM chain id and record. Otherwise a 404 (a malformed id: 400).
    pub(crate) fn chain(&self, chain_ref: &str) -> Result<(u64, &ChainRecord), ApiError> {
        if AGGREGATES.contains(&chain_ref) {
            return Err(ApiError::not_found(format!(
                "chainId {chain_ref:?} names several chains; this route serves one: GET \
                 /v2/chains lists them"
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

/// A subnet's P-Chain read that failed: an unindexed P-Chain or an unknown subnet is a 404.
pub(crate) fn subnet_read_failed(e: SubnetReadError) -> ApiError {
    match e {
        SubnetReadError::NotIndexed | SubnetReadError::UnknownSubnet(_) => {
            ApiError::not_found(e.to_string())
        }
        SubnetReadError::Read(_) => {
            ApiError::internal(format!("reading the P-Chain index failed: {e}"))
        }
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
