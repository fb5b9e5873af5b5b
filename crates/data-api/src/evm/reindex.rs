//! `POST /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex`: queues the
//! token's metadata to be fetched again, at most once an hour per token (as Glacier documents;
//! sooner is a 429). A token the collection never moved is a 404.

use snowline_chain_evm::metadata::Reindex;
use snowline_rest_api::hyper::StatusCode;
use snowline_rest_api::{ApiError, Profile, Reply, Request};
use snowline_types::rest::evm::checksummed;

use super::collections::{not_moved, token_id};
use super::context::{EvmApi, path_address};

pub(crate) fn handle(api: &EvmApi, req: &Request) -> Result<Reply, ApiError> {
    let chain = api.chain(req)?;
    let contract = path_address(req)?;
    let id = token_id(req)?;
    let done = api
        .metadata
        .reindex(chain.id, contract, id)
        .map_err(|e| ApiError::internal(format!("queueing the token failed: {e}")))?;
    match done {
        // Glacier answers 201; the spec's profile answers its POSTs 200.
        Reindex::Queued => Ok(Reply::bytes(
            match req.profile() {
                Profile::Glacier => StatusCode::CREATED,
                Profile::Spec => StatusCode::OK,
            },
            Vec::new(),
        )),
        Reindex::Unknown => Err(not_moved(chain.id, &contract, &id)),
        Reindex::TooSoon(secs) => Err(ApiError::too_many_requests(format!(
            "token {id} of {} was reindexed less than an hour ago; it may be again in {secs} s",
            checksummed(&contract)
        ))),
    }
}
