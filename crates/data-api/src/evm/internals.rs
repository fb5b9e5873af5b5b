//! `GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals`: the internal
//! transactions from or to an address (value-carrying `CALL`/`CALLCODE`, every creation), newest
//! first, within `[startBlock, endBlock)`.

use snowline_query::FilterDigest;
use snowline_query::params::{BlockRange, page_size};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::evm::{
    InternalTransaction, ListInternalTransactionsResponse, checksummed,
};

use super::context::{EvmApi, page_error, path_address};
use super::render::{internal, internal_location};
use crate::params::{bad, page_token};

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let address = path_address(req)?;
    let range = BlockRange::parse(req.query("startBlock"), req.query("endBlock")).map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let digest = FilterDigest::new("evm/addresses/internals")
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&address))
        .optional("startBlock", range.start.map(|b| b.to_string()).as_deref())
        .optional("endBlock", range.end.map(|b| b.to_string()).as_deref())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .internals(chain.id, address, range, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListInternalTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page
            .rows
            .iter()
            .zip(&page.block_hashes)
            .map(|(r, h)| InternalTransaction {
                location: internal_location(r, h),
                details: internal(r),
            })
            .collect(),
    })
}
