//! `GET` and `POST /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the P-Chain: the
//! `ListPChainUtxosResponse` of a set of addresses, keyset-paged (by creation time or amount,
//! then UTXO id). Listed are the UTXOs spendable on the P-Chain: its own (stakes and rewards
//! included) and those other chains exported to it.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{ListPChainUtxosResponse, PrimaryChainInfo};

use super::context::{PChainApi, page_error};
use crate::address_params::UtxoParams;

pub(crate) fn handle(
    api: &PChainApi,
    req: &Request,
    params: UtxoParams,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    // `assetId` applies to the X-Chain only (the spec): checked, then ignored.
    let digest = params.digest("p-chain/utxos", api.network.name, false);
    let from = params.start(&api.tokens, &digest, req.now_secs())?;
    let page = api
        .pages
        .utxos(&params.p_query(), from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListPChainUtxosResponse {
        next_page_token: page
            .next
            .map(|position| api.tokens.encode(&digest, &position, None)),
        utxos: page
            .utxos
            .iter()
            .map(|u| api.utxo_record(u, req.now_secs()))
            .collect(),
        chain_info,
    })
}
