//! The Looking Glass's bridged-token route: `GET /v2/chains/43114/btcb/bridged:getAddresses`
//! (`getAddressesByBtcbBridged`: the addresses whose net bridged BTC.b is at least `threshold`,
//! `sortKey` that amount), and the same over another chain's bridged token
//! (`/v2/chains/{chainId}/btcb/bridged:getAddresses`, a token the operator names per chain),
//! read through `chain-evm`'s [`EvmPages::net_bridged`](snowline_chain_evm::pages::EvmPages::net_bridged),
//! by address; page tokens as the token-holder routes'.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::evm::checksummed;

use crate::context::{AVALANCHE_C_CHAIN, MetricsApi};
use crate::holders::{LookingGlassResponse, after, looking_glass_failed, render, threshold};
use crate::params;

/// `GET /v2/chains/43114/btcb/bridged:getAddresses`: BTC.b's (or the operator's token for the
/// C-Chain).
pub fn c_chain(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    bridged(api, req, &AVALANCHE_C_CHAIN.to_string())
}

/// `GET /v2/chains/{chainId}/btcb/bridged:getAddresses`.
pub fn any_chain(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    bridged(api, req, req.required_param("chainId")?)
}

fn bridged(api: &MetricsApi, req: &Request, chain_ref: &str) -> Result<Reply, ApiError> {
    let (chain, _) = api.chain(chain_ref)?;
    let pages = api.evm.as_ref().ok_or_else(|| {
        ApiError::not_found("this instance serves no Looking Glass (no EVM index)")
    })?;
    let token = api.bridged_token(chain).ok_or_else(|| {
        ApiError::not_found(format!(
            "chain {chain} has no bridged token configured (metrics-api serve --bridged-token \
             {chain}=0x…; BTC.b is the default on {AVALANCHE_C_CHAIN})"
        ))
    })?;
    let threshold = threshold(req)?;
    let size = params::address_page_size(req)?;
    let key = format!(
        "Bridged|{chain}|{}|{threshold}|{size}|",
        checksummed(&token)
    );
    let after = after(api, req, &key)?;
    let page = pages
        .net_bridged((chain, token), threshold, (size, after), api.max_rows)
        .map_err(looking_glass_failed)?;
    let (addresses, next_page_token) = render(api, &key, page)?;
    Reply::json(&LookingGlassResponse {
        next_page_token,
        addresses,
    })
}
