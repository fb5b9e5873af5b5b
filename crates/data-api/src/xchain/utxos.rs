//! `GET` and `POST /v1/networks/{network}/blockchains/{blockchainId}/utxos` for the X-Chain: the UTXOs of a
//! set of addresses, one keyset-paged merge of each address's order (by creation time or amount,
//! then UTXO id), a UTXO owned by several of them listed once. Listed are the UTXOs spendable on
//! the X-Chain: its own, and those other chains exported to it (`createdOnChainId` names the
//! source), as `avm.getUTXOs` lists them without and with `sourceChain`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::{ListUtxosResponse, PrimaryChainInfo};

use super::context::{XChainApi, page_error};
use crate::address_params::UtxoParams;

pub(crate) fn handle(
    api: &XChainApi,
    req: &Request,
    params: UtxoParams,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let digest = params.digest("x-chain/utxos", api.network.name, true);
    let from = params.start(&api.tokens, &digest, req.now_secs())?;
    let q = params.x_query(params.asset);
    let page = api.pages.utxos(&q, from.as_deref()).map_err(page_error)?;
    let utxos = page
        .utxos
        .iter()
        .map(|u| api.utxo_record(u, &page.assets))
        .collect();
    let next_page_token = page
        .next
        .map(|position| api.tokens.encode(&digest, &position, None));
    Reply::json(&ListUtxosResponse {
        next_page_token,
        utxos,
        chain_info,
    })
}
