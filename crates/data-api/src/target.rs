//! The `{network}` / `{blockchainId}` path values of the primary-network endpoints.

use snowline_query::params::BlockchainRef;
use snowline_query::params::served_network;
use snowline_rest_api::{ApiError, Request};
use snowline_types::Chain;
use snowline_types::network::NetworkInfo;
use snowline_types::rest::{PrimaryChainInfo, PrimaryChainName};

use crate::params::bad;

/// A resolved request target: the network as the client spelled it, and the chain.
pub(crate) struct Target {
    /// The `network` path value as sent (echoed in `chainInfo`).
    pub(crate) network_name: String,
    /// The chain asked for.
    pub(crate) chain: Chain,
}

impl Target {
    /// `chainInfo` of the answer.
    pub(crate) fn chain_info(&self) -> PrimaryChainInfo {
        PrimaryChainInfo {
            chain_name: match self.chain {
                Chain::P => PrimaryChainName::P,
                Chain::X => PrimaryChainName::X,
                Chain::C => PrimaryChainName::C,
            },
            network: self.network_name.clone(),
        }
    }
}

/// Resolves `{network}` and `{blockchainId}` against the network `served`: a malformed value or
/// a chain the endpoint does not take is a 400; a well-formed network this instance does not
/// index is a 404.
pub(crate) fn resolve(
    req: &Request,
    served: &'static NetworkInfo,
    allowed: &[Chain],
) -> Result<Target, ApiError> {
    let raw_network = req.required_param("network")?;
    served_network(raw_network, served)?;
    let raw_chain = req.required_param("blockchainId")?;
    let chain = BlockchainRef::parse(raw_chain, served, allowed)
        .map_err(bad)?
        .chain;
    Ok(Target {
        network_name: raw_network.to_owned(),
        chain,
    })
}

/// The answer for a chain whose data this instance does not index yet (the X- and C-Chain's
/// blocks by proposer).
pub(crate) fn not_indexed(chain: Chain, what: &str) -> ApiError {
    ApiError::not_found(format!(
        "{what} of the {} is not indexed by this instance yet",
        snowline_query::params::chain_name(chain)
    ))
}
