//! Across every EVM chain this instance indexes (of one `network`, when given):
//! `GET /v1/transactions` (`listLatestTransactionsAllChains`) and `GET /v1/blocks`
//! (`listLatestBlocksAllChains`), newest first by block time; and `GET /v1/address/{address}/chains`
//! (`listAddressChains`), the chains where an address has activity.

use snowline_query::FilterDigest;
use snowline_query::params::page_size;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::evm::{
    ListAddressChainsResponse, ListEvmBlocksResponse, ListNativeTransactionsResponse,
};

use super::context::{EvmApi, page_error, path_address};
use super::latest::status;
use super::render::{evm_block, native_tx};
use crate::params::{bad, network_filter, page_token};

/// `listLatestTransactionsAllChains`.
pub(crate) fn txs(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let network = network_filter(req)?;
    let (status, raw_status) = status(req)?;
    let digest = FilterDigest::new("evm/transactions/latest/all")
        .optional("network", req.query("network"))
        .optional("status", raw_status)
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let chains = api.chain_ids(network);
    let page = api
        .pages
        .latest_txs_across(&chains, status, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListNativeTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page.txs.iter().map(|t| native_tx(t.chain, &t.tx)).collect(),
    })
}

/// `listLatestBlocksAllChains`.
pub(crate) fn blocks(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let network = network_filter(req)?;
    let digest = FilterDigest::new("evm/blocks/latest/all")
        .optional("network", req.query("network"))
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let chains = api.chain_ids(network);
    let page = api
        .pages
        .latest_blocks_across(&chains, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListEvmBlocksResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        blocks: page
            .blocks
            .iter()
            .map(|b| evm_block(&b.chain.to_string(), b.number, &b.block))
            .collect(),
    })
}

/// `listAddressChains`: the indexed chains where the address sent, received or was party to a
/// transfer or internal transaction; the listed chains this instance does not index are named
/// in `unindexedChains` (its activity there is not known).
pub(crate) fn address_chains(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let address = path_address(req)?;
    let chains = api.chain_ids(None);
    let found = api
        .pages
        .address_chains(&chains, address)
        .map_err(page_error)?;
    let indexed: Vec<_> = found
        .iter()
        .filter(|(_, active)| *active)
        .filter_map(|(c, _)| api.record(*c).cloned())
        .collect();
    let unindexed: Vec<String> = chains
        .iter()
        .filter(|c| !found.iter().any(|(f, _)| f == *c))
        .map(u64::to_string)
        .collect();
    Reply::json(&ListAddressChainsResponse {
        indexed_chains: Some(indexed),
        unindexed_chains: Some(unindexed),
    })
}
