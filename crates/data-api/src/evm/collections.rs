//! The tokens of an NFT collection: `GET /v1/chains/{chainId}/nfts/collections/{address}/tokens`
//! (every id the collection moved, by id) and `.../tokens/{tokenId}` (one token).

use snowline_chain_evm::pages::CollectionToken;
use snowline_chain_evm::rows::{TokenRow, TransferKind};
use snowline_query::FilterDigest;
use snowline_query::params::page_size;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::rest::evm::checksummed;
use snowline_types::rest::evm_balances::{ListNftTokens, NftToken};

use super::context::{EvmApi, page_error, path_address};
use super::render::{erc721_token, erc1155_token};
use crate::params::{bad, page_token, param_error};

pub(crate) fn list(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let contract = path_address(req)?;
    let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
    let digest = FilterDigest::new("evm/nfts/tokens")
        .field("chainId", &chain.id.to_string())
        .field("address", &checksummed(&contract))
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .collection_tokens(chain.id, contract, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListNftTokens {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        tokens: page
            .tokens
            .iter()
            .map(|t| nft_token(&contract, t, page.token.as_ref()))
            .collect(),
    })
}

pub(crate) fn details(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let contract = path_address(req)?;
    let id = token_id(req)?;
    let (t, row) = api
        .pages
        .collection_token(chain.id, contract, id)
        .map_err(page_error)?
        .ok_or_else(|| not_moved(chain.id, &contract, &id))?;
    Reply::json(&nft_token(&contract, &t, row.as_ref()))
}

/// The `{tokenId}` path value: a decimal token id (0 to 2^256 - 1).
pub(crate) fn token_id(req: &Request) -> Result<U256, ApiError> {
    let raw = req.required_param("tokenId")?;
    let digits = !raw.is_empty() && raw.len() <= 78 && raw.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| U256::from_str_radix(raw, 10).ok())
        .flatten()
        .ok_or_else(|| param_error("tokenId", "a decimal token id between 0 and 2^256 - 1", raw))
}

/// The 404 of a token the collection never moved.
pub(crate) fn not_moved(chain: u64, contract: &Address, id: &U256) -> ApiError {
    ApiError::not_found(format!(
        "token {id} of {} on chain {chain} is not known to this index (no transfer of it was \
         seen)",
        checksummed(contract)
    ))
}

/// A collection's token in its standard's record.
fn nft_token(contract: &Address, t: &CollectionToken, row: Option<&TokenRow>) -> NftToken {
    match t.kind {
        TransferKind::Erc721 => NftToken::Erc721(erc721_token(
            contract,
            &t.token_id,
            t.uri.as_deref(),
            row,
            t.owner.as_ref(),
            t.metadata.as_ref(),
        )),
        _ => NftToken::Erc1155(erc1155_token(
            contract,
            &t.token_id,
            t.uri.as_deref(),
            t.metadata.as_ref(),
        )),
    }
}
