//! `GET /v1/networks/{network}/blockchains/{blockchainId}/balances` for the X-Chain: the
//! `ListXChainBalancesResponse` of the given addresses, now or as of `blockTimestamp`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListXChainBalancesResponse, PrimaryChainInfo};

use super::context::{XChainApi, page_error};
use crate::address_params::BalanceParams;

pub(crate) fn handle(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let params = BalanceParams::parse(req, api.network, Chain::X)?;
    let page = api
        .pages
        .balances(&params.addresses.ids, params.at, req.now_secs())
        .map_err(page_error)?;
    Reply::json(&ListXChainBalancesResponse {
        balances: api.balances_record(&page.balances, &page.assets),
        chain_info,
    })
}
