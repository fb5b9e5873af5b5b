//! `GET /v1/networks/{network}/blockchains/{blockchainId}/balances` for the C-Chain: the
//! `ListCChainAtomicBalancesResponse` of the given addresses (its atomic memory only), now or as
//! of `blockTimestamp`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ListCChainAtomicBalancesResponse, PrimaryChainInfo};

use super::context::CChainApi;
use crate::address_params::BalanceParams;
use crate::{pchain, xchain};

pub(crate) fn handle(
    api: &CChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let params = BalanceParams::parse(req, api.network, Chain::C)?;
    let (c, now) = (api.network.c_chain_id, req.now_secs());
    let x = api
        .x
        .shared_balances(&params.addresses.ids, c, params.at, now)
        .map_err(xchain::page_error)?;
    let p = api
        .p
        .shared_balances(&params.addresses.ids, c, params.at, now)
        .map_err(pchain::page_error)?;
    Reply::json(&ListCChainAtomicBalancesResponse {
        balances: api.balances_record(&x, &p),
        chain_info,
    })
}
