//! `GET /v1/networks/{network}/blockchains/{blockchainId}/balances` for the X-Chain: the
//! `ListXChainBalancesResponse` of the given addresses, now or as of `blockTimestamp`.

use snowline_query::params::{AddressList, u64_opt};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListXChainBalancesResponse, PrimaryChainInfo};

use super::context::{XChainApi, page_error};
use crate::params::{bad, now_secs};

pub(crate) fn handle(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let raw = snowline_query::params::required("addresses", req.query("addresses")).map_err(bad)?;
    let addresses = AddressList::parse(raw, api.network.hrp, &[Chain::X]).map_err(bad)?;
    let at = u64_opt("blockTimestamp", req.query("blockTimestamp"), 0).map_err(bad)?;
    let page = api
        .pages
        .balances(&addresses.ids, at, now_secs())
        .map_err(page_error)?;
    Reply::json(&ListXChainBalancesResponse {
        balances: api.balances_record(&page.balances, &page.assets),
        chain_info,
    })
}
