//! `GET /v1/chains/{chainId}/tokens/{address}/transfers`: a token's transfers, newest first,
//! within `[startBlock, endBlock)`.

use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::rest::evm::{
    Erc20Transfer, Erc721Transfer, Erc1155Transfer, ListTransfersResponse, TransferRecord,
};

use super::context::{EvmApi, page_error};
use super::render::{TransferDetails, transfer, transfer_location};

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let q = api.range_listing(req, "evm/tokens/transfers")?;
    let page = api
        .pages
        .transfers(q.chain.id, q.address, q.range, q.size, q.from.as_deref())
        .map_err(page_error)?;
    let transfers = page
        .transfers
        .iter()
        .map(|t| {
            let location = transfer_location(t);
            match transfer(t, page.token.as_ref(), None) {
                TransferDetails::Erc20(transfer) => {
                    TransferRecord::Erc20(Erc20Transfer { location, transfer })
                }
                TransferDetails::Erc721(transfer) => {
                    TransferRecord::Erc721(Erc721Transfer { location, transfer })
                }
                TransferDetails::Erc1155(transfer) => {
                    TransferRecord::Erc1155(Erc1155Transfer { location, transfer })
                }
            }
        })
        .collect();
    Reply::json(&ListTransfersResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&q.digest, &p, None)),
        transfers,
    })
}
