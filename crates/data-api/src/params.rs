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
    let Some(token) = req.query("pageToken") else {
        return Ok(None);
    };
    tokens
        .decode(token, digest, now_secs())
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

/// Now, Unix seconds.
pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `minUtxoAmount`, the inclusive floor of the amounts listed (default 0). The spec and the
/// OpenAPI type it as a number >= 0 (the SDK sends whatever number it is given), so a fraction or
/// an exponent (`1.5`, `1e3`) is accepted: amounts are whole nano-units, so the floor is the value
/// rounded up; a value beyond every amount saturates at `u64::MAX`. Anything else is a 400.
pub(crate) fn min_utxo_amount(raw: Option<&str>) -> Result<u64, ApiError> {
    let Some(raw) = raw else {
        return Ok(0);
    };
    if let Ok(whole) = raw.parse::<u64>() {
        return Ok(whole);
    }
    match raw.parse::<f64>() {
        // `as` saturates: a value above u64::MAX becomes u64::MAX.
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x.ceil() as u64),
        _ => Err(param_error(
            "minUtxoAmount",
            "must be a number >= 0 (nano-units)",
            raw,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::min_utxo_amount;

    #[test]
    fn min_utxo_amount_takes_any_number_at_least_zero() {
        // Regression: `1.5` and `1e3` are numbers as the OpenAPI types the parameter, and were
        // refused with 400 ("must be an integer").
        let cases: [(Option<&str>, u64); 9] = [
            (None, 0),
            (Some("0"), 0),
            (Some("-0"), 0),
            (Some("1000"), 1000),
            (Some("1.5"), 2),
            (Some("0.0001"), 1),
            (Some("1e3"), 1000),
            (Some("18446744073709551615"), u64::MAX),
            (Some("1e30"), u64::MAX),
        ];
        for (raw, want) in cases {
            assert_eq!(min_utxo_amount(raw).ok(), Some(want), "{raw:?}");
        }
        // Whole numbers are exact, also beyond f64's 53-bit precision.
        for n in (0..64).map(|shift| (1u64 << shift) + 1) {
            assert_eq!(min_utxo_amount(Some(&n.to_string())).ok(), Some(n), "{n}");
        }
    }

    #[test]
    fn min_utxo_amount_refuses_what_is_not_a_number_at_least_zero() {
        for raw in ["-1", "-0.5", "abc", "", "NaN", "inf", "1,5", "0x10"] {
            let err = min_utxo_amount(Some(raw)).err();
            assert_eq!(
                err.as_ref().map(|e| e.status.as_u16()),
                Some(400),
                "{raw:?}"
            );
            let message = err.map(|e| e.message).unwrap_or_default();
            assert!(
                message.contains("minUtxoAmount") && message.contains(&format!("{raw:?}")),
                "{raw:?}: {message}"
            );
        }
    }
}
