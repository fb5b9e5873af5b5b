//! `GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals`: the internal
//! transactions from or to an address (value-carrying `CALL`/`CALLCODE`, every creation), newest
//! first, within `[startBlock, endBlock)`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::evm::{InternalTransaction, ListInternalTransactionsResponse};

use super::context::{EvmApi, page_error};
use super::render::{internal, internal_location};

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let q = api.range_listing(req, "evm/addresses/internals")?;
    let page = api
        .pages
        .internals(q.chain.id, q.address, q.range, q.size, q.from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListInternalTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
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
