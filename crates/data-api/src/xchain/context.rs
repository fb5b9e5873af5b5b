//! What every X-Chain endpoint shares: the history's pages, the network it indexes, the
//! page-token codec, and the resolution of the `{network}` / `{blockchainId}` path values.

use std::sync::Arc;

use snowline_chain_x::history::{PageError, XHistoryPages};
use snowline_query::PageTokens;
use snowline_query::params::{BlockchainRef, chain_name};
use snowline_rest::{ApiError, Request};
use snowline_types::Chain;
use snowline_types::address::AddressFormatter;
use snowline_types::network::NetworkInfo;
use snowline_types::rest::{PrimaryChainInfo, PrimaryChainName};

use crate::params::{bad, invalid_token, served_network};

/// Shared state of the X-Chain endpoints.
pub struct XChainApi {
    pub(crate) pages: Arc<XHistoryPages>,
    pub(crate) network: &'static NetworkInfo,
    pub(crate) tokens: PageTokens,
    pub(crate) x_addresses: AddressFormatter,
}

impl XChainApi {
    /// The endpoints' state for `network`'s data, read through `pages`.
    pub fn new(
        pages: Arc<XHistoryPages>,
        network: &'static NetworkInfo,
        tokens: PageTokens,
    ) -> Result<Self, snowline_types::AddressError> {
        Ok(Self {
            pages,
            network,
            tokens,
            x_addresses: AddressFormatter::new("X", network.hrp)?,
        })
    }
}

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

impl XChainApi {
    /// Resolves `{network}` and `{blockchainId}`: a malformed value or a chain the endpoint
    /// does not take is a 400; a well-formed network this instance does not index is a 404.
    pub(crate) fn target(&self, req: &Request, allowed: &[Chain]) -> Result<Target, ApiError> {
        let raw_network = req.required_param("network")?;
        served_network(raw_network, self.network)?;
        let raw_chain = req.required_param("blockchainId")?;
        let chain = BlockchainRef::parse(raw_chain, self.network, allowed)
            .map_err(bad)?
            .chain;
        Ok(Target {
            network_name: raw_network.to_owned(),
            chain,
        })
    }

    /// Resolves the target and insists on the X-Chain: P- and C-Chain data is not indexed yet,
    /// which is a 404 naming what is served.
    pub(crate) fn x_target(&self, req: &Request, allowed: &[Chain]) -> Result<Target, ApiError> {
        let target = self.target(req, allowed)?;
        if target.chain != Chain::X {
            return Err(ApiError::not_found(format!(
                "{} data is not indexed by this instance yet; it serves the x-chain",
                chain_name(target.chain)
            )));
        }
        Ok(target)
    }
}

/// A page that could not be read: a position that does not fit the listing is the client's
/// (the same 400 as any invalid token); a read failure is ours, a 500 with the reason.
pub(crate) fn page_error(e: PageError) -> ApiError {
    match e {
        PageError::BadPosition => invalid_token(),
        PageError::Read(e) => ApiError::internal(format!("reading the X-Chain index failed: {e}")),
    }
}
