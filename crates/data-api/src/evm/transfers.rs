//! `GET /v1/chains/{chainId}/tokens/{address}/transfers`: a token's transfers, newest first,
//! within `[startBlock, endBlock)`.

use snowline_query::FilterDigest;
use snowline_query::params::{BlockRange, page_size};
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::evm::{
    Erc20Transfer, Erc721Transfer, Erc1155Transfer, ListTransfersResponse, TransferRecord,
    checksummed,
};

use super::context::{EvmApi, page_error, path_address};
use super::render::{TransferDetails, transfer, transfer_location};
use crate::params::{bad, page_token};

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let token = path_address(req)?;
    let range = BlockRange::parse(req.query("startBlock"), req.query("endBlock")).map_err(bad)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let digest = FilterDigest::new("evm/tokens/transfers")
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&token))
        .optional("startBlock", range.start.map(|b| b.to_string()).as_deref())
        .optional("endBlock", range.end.map(|b| b.to_string()).as_deref())
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .transfers(chain.id, token, range, size, from.as_deref())
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
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transfers,
    })
}
