//! Parameter helpers shared by the endpoint modules: turning `query`'s parse errors into the
//! spec's 400 body.

use snowline_query::ParamError;
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
