//! `GET /v1/chains/{chainId}/addresses/{address}/balances:getNative` (as of `blockNumber` or the
//! last indexed block) and `.../balances:listErc721` (the ERC-721 tokens an address owns, with
//! its native balance).

use snowline_query::FilterDigest;
use snowline_query::params::{Currency, evm_address, page_size, u64_at_least};
use snowline_rest_api::{ApiError, Profile, Reply, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::rest::evm::{
    Erc721TokenBalance, GetNativeBalanceResponse, ListErc721BalancesResponse, NativeTokenBalance,
    checksummed,
};

use super::context::{EvmApi, EvmChain, currency, page_error, path_address, value_of};
use super::render::erc721_token;
use crate::params::{bad, page_token};

pub(crate) fn native(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let address = path_address(req)?;
    let currency = currency(req)?;
    let at = block_number(req)?;
    let b = api
        .pages
        .native_balance(chain.id, address, at)
        .map_err(page_error)?;
    Reply::json(&GetNativeBalanceResponse {
        native_token_balance: native_token_balance(api, &chain, b.balance, currency, req.profile()),
    })
}

pub(crate) fn erc721(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let owner = path_address(req)?;
    let size = page_size(req.query("pageSize"), 500).map_err(bad)?;
    let contract = req
        .query("contractAddress")
        .map(|raw| evm_address("contractAddress", raw).map(Address::from))
        .transpose()
        .map_err(bad)?;
    let digest = FilterDigest::new("evm/addresses/erc721")
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&owner))
        .optional(
            "contractAddress",
            contract.map(|c| checksummed(&c)).as_deref(),
        )
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .erc721_balances(chain.id, owner, contract, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListErc721BalancesResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        native_token_balance: native_token_balance(
            api,
            &chain,
            page.native_balance,
            Currency::Usd,
            req.profile(),
        ),
        erc721_token_balances: page
            .tokens
            .iter()
            .map(|t| Erc721TokenBalance {
                token: erc721_token(
                    &t.contract,
                    &t.token_id,
                    t.uri.as_deref(),
                    t.token.as_ref(),
                    Some(&owner),
                    t.metadata.as_ref(),
                ),
                chain_id: chain.record.chain_id.clone(),
            })
            .collect(),
    })
}

/// The optional `blockNumber`: the block a balance is as of (the last indexed one when absent).
pub(crate) fn block_number(req: &Request) -> Result<Option<u64>, ApiError> {
    req.query("blockNumber")
        .map(|raw| u64_at_least("blockNumber", raw, 0))
        .transpose()
        .map_err(bad)
}

/// `NativeTokenBalance` of `balance` wei of the chain's native token, priced when a source
/// knows the price (in the shape of `profile`).
pub(crate) fn native_token_balance(
    api: &EvmApi,
    chain: &EvmChain<'_>,
    balance: U256,
    currency: Currency,
    profile: Profile,
) -> NativeTokenBalance {
    let token = &chain.record.network_token;
    let price = api.price(chain.id, None, currency, None, profile);
    NativeTokenBalance {
        name: token.name.clone(),
        symbol: token.symbol.clone(),
        decimals: token.decimals,
        logo_uri: token.logo_uri.clone(),
        chain_id: chain.record.chain_id.clone(),
        balance_value: price.as_ref().map(|p| value_of(balance, token.decimals, p)),
        price,
        balance: balance.to_string(),
    }
}
