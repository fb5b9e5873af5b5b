//! Parameter helpers shared by the endpoint modules: turning `query`'s parse errors into the
//! spec's 400 body.

use snowline_query::{ParamError, SealedPageTokens};
use snowline_rest_api::{ApiError, Request};
use snowline_types::network::NetworkInfo;

/// A 400 naming the parameter, what is allowed, and the value received.
pub fn param_error(param: &str, expected: &str, got: &str) -> ApiError {
    bad(ParamError::invalid(param, expected, got))
}

/// Any `query` parse error as a 400.
pub fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// The optional `network` query filter (`mainnet`, `fuji`, `testnet`, and `local`).
pub fn network_filter(req: &Request) -> Result<Option<&'static NetworkInfo>, ApiError> {
    req.query("network")
        .map(|raw| snowline_query::params::Network::parse(raw, true).map(|n| n.info()))
        .transpose()
        .map_err(bad)
}

/// The position carried by the request's `pageToken`, if any, checked against `digest` (the
/// query's filters): a forged, truncated, expired or foreign token is a 400.
pub(crate) fn page_token(
    tokens: &SealedPageTokens,
    req: &Request,
    digest: &snowline_query::Digest,
) -> Result<Option<Vec<u8>>, ApiError> {
    open_token(tokens, req.query("pageToken"), digest, req.now_secs())
}

/// The position sealed in `token` (a `pageToken` read with the handler's other parameters),
/// checked against `digest` at `now`: [`page_token`] for a handler that read it already.
pub(crate) fn open_token(
    tokens: &SealedPageTokens,
    token: Option<&str>,
    digest: &snowline_query::Digest,
    now: u64,
) -> Result<Option<Vec<u8>>, ApiError> {
    let Some(token) = token else {
        return Ok(None);
    };
    tokens
        .decode(token, digest, now)
        .map(Some)
        .map_err(|e| ApiError::bad_request(format!("Invalid pageToken: {e}")))
}

/// The 400 of a token that authenticated but does not fit the query (or cannot be ours):
/// the same message as any other invalid token, so it tells nothing about which check failed.
pub(crate) fn invalid_token() -> ApiError {
    ApiError::bad_request(format!(
        "Invalid pageToken: {}",
        snowline_query::TokenError::Invalid
    ))
}
