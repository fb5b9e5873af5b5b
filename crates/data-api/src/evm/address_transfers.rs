//! `GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20` (and `:listErc721`,
//! `:listErc1155`): the transfers of one standard an address sent or received, newest first,
//! within `[startBlock, endBlock)`.

use snowline_chain_evm::rows::TransferKind;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::evm::{
    Erc20Transfer, Erc721Transfer, Erc1155Transfer, ListErc20TransactionsResponse,
    ListErc721TransactionsResponse, ListErc1155TransactionsResponse,
};

use super::context::{EvmApi, page_error};
use super::render::{TransferDetails, transfer, transfer_location};

/// `listErc20Transactions`.
pub(crate) fn erc20(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let (next, list) = read(api, req, TransferKind::Erc20)?;
    Reply::json(&ListErc20TransactionsResponse {
        next_page_token: next,
        transactions: list
            .into_iter()
            .filter_map(|(location, d)| match d {
                TransferDetails::Erc20(transfer) => Some(Erc20Transfer { location, transfer }),
                _ => None,
            })
            .collect(),
    })
}

/// `listErc721Transactions`.
pub(crate) fn erc721(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let (next, list) = read(api, req, TransferKind::Erc721)?;
    Reply::json(&ListErc721TransactionsResponse {
        next_page_token: next,
        transactions: list
            .into_iter()
            .filter_map(|(location, d)| match d {
                TransferDetails::Erc721(transfer) => Some(Erc721Transfer { location, transfer }),
                _ => None,
            })
            .collect(),
    })
}

/// `listErc1155Transactions`.
pub(crate) fn erc1155(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let (next, list) = read(api, req, TransferKind::Erc1155)?;
    Reply::json(&ListErc1155TransactionsResponse {
        next_page_token: next,
        transactions: list
            .into_iter()
            .filter_map(|(location, d)| match d {
                TransferDetails::Erc1155(transfer) => Some(Erc1155Transfer { location, transfer }),
                _ => None,
            })
            .collect(),
    })
}

type Rendered = Vec<(snowline_types::rest::evm::TxLocation, TransferDetails)>;

/// One page of the address's `kind` transfers, rendered, with the next page's token.
fn read(
    api: &EvmApi,
    req: &Request,
    kind: TransferKind,
) -> Result<(Option<String>, Rendered), ApiError> {
    let listing = match kind {
        TransferKind::Erc20 => "evm/addresses/transactions:listErc20",
        TransferKind::Erc721 => "evm/addresses/transactions:listErc721",
        TransferKind::Erc1155 => "evm/addresses/transactions:listErc1155",
    };
    let q = api.range_listing(req, listing)?;
    let page = api
        .pages
        .address_transfers(
            q.chain.id,
            q.address,
            kind,
            q.range,
            q.size,
            q.from.as_deref(),
        )
        .map_err(page_error)?;
    let list = page
        .transfers
        .iter()
        .map(|t| {
            (
                transfer_location(t),
                transfer(t, page.tokens.get(&t.token), None),
            )
        })
        .collect();
    Ok((
        page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        list,
    ))
}
