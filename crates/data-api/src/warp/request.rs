//! `POST /v1/signatureAggregator/{network}/aggregateSignatures` and
//! `GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}` (spec endpoints 1 and 2):
//! the body's and path's rules, including the quorum rules.

use std::sync::Arc;

use serde_json::Value;
use snowline_query::ParamError;
use snowline_query::params::{cb58_id, cb58_or_hex_id, hex_payload};
use snowline_rest::{ApiError, Reply, Router, Weight};

use super::Planned;
use crate::params::bad;

/// Default `quorumPercentage`.
const DEFAULT_QUORUM: u64 = 67;

/// The aggregation request, validated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Aggregation {
    pub(crate) message: Option<Vec<u8>>,
    pub(crate) justification: Option<Vec<u8>>,
    pub(crate) quorum: u64,
    pub(crate) buffer: u64,
    pub(crate) p_chain_height: u64,
}

pub(crate) fn routes(router: Router, planned: &Arc<Planned>) -> Router {
    let (a, b) = (Arc::clone(planned), Arc::clone(planned));
    router
        .post(
            "/v1/signatureAggregator/{network}/aggregateSignatures",
            Weight::MEDIUM,
            move |req| {
                let p = Arc::clone(&a);
                async move {
                    p.network(req.required_param("network")?)?;
                    parse(&req.json::<Value>()?)?;
                    Err::<Reply, _>(unavailable())
                }
            },
        )
        .get(
            "/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}",
            Weight::MEDIUM,
            move |req| {
                let p = Arc::clone(&b);
                async move {
                    p.network(req.required_param("network")?)?;
                    cb58_id("txHash", req.required_param("txHash")?).map_err(bad)?;
                    Err::<Reply, _>(unavailable())
                }
            },
        )
}

fn unavailable() -> ApiError {
    ApiError::service_unavailable(
        "signature aggregation is not available on this instance yet: it needs the P-Chain's \
         validator sets and connections to the signing subnet's validators",
    )
}

/// An optional integer member in `0..=max`.
fn integer(body: &Value, name: &str, max: u64) -> Result<Option<u64>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v.as_u64().filter(|n| *n <= max).map(Some).ok_or_else(|| {
            bad(ParamError::new(
                name,
                format!("must be an integer between 0 and {max}, got {v}"),
            ))
        }),
    }
}

/// An optional string member.
fn string<'a>(body: &'a Value, name: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(v) => Err(bad(ParamError::new(
            name,
            format!("must be a string, got {v}"),
        ))),
    }
}

/// The spec's rules for the aggregation body.
pub(crate) fn parse(body: &Value) -> Result<Aggregation, ApiError> {
    if !body.is_object() {
        return Err(ApiError::bad_request(
            "Invalid JSON body: expected an object",
        ));
    }
    let message = string(body, "message")?
        .map(|s| hex_payload("message", s))
        .transpose()
        .map_err(bad)?;
    let justification = string(body, "justification")?
        .map(|s| hex_payload("justification", s))
        .transpose()
        .map_err(bad)?;
    if message.is_none() && justification.is_none() {
        return Err(bad(ParamError::new(
            "message",
            "one of message or justification is required",
        )));
    }
    if let Some(s) = string(body, "signingSubnetId")? {
        cb58_or_hex_id("signingSubnetId", s).map_err(bad)?;
    }
    let quorum = integer(body, "quorumPercentage", 100)?.unwrap_or(DEFAULT_QUORUM);
    let buffer = integer(body, "quorumPercentageBuffer", 100)?.unwrap_or(0);
    if quorum + buffer > 100 {
        return Err(bad(ParamError::new(
            "quorumPercentageBuffer",
            format!(
                "quorumPercentage + quorumPercentageBuffer must be at most 100, got {quorum} + \
                 {buffer}"
            ),
        )));
    }
    let p_chain_height = integer(body, "pChainHeight", u64::MAX)?.unwrap_or(0);
    Ok(Aggregation {
        message,
        justification,
        quorum,
        buffer,
        p_chain_height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: Value) -> String {
        let e = parse(&v).unwrap_err();
        assert_eq!(e.status.as_u16(), 400);
        e.message
    }

    #[test]
    fn the_quorum_rules_of_the_spec() {
        let ok = parse(&json!({"message": "0x0102"})).unwrap();
        assert_eq!((ok.quorum, ok.buffer, ok.p_chain_height), (67, 0, 0));
        assert_eq!(ok.message, Some(vec![1, 2]));
        let ok = parse(&json!({"justification": "ab", "quorumPercentage": 80,
                               "quorumPercentageBuffer": 20, "pChainHeight": 12,
                               "signingSubnetId": "11111111111111111111111111111111LpoYY"}))
        .unwrap();
        assert_eq!((ok.quorum, ok.buffer, ok.p_chain_height), (80, 20, 12));
        assert!(err(json!({})).contains("one of message or justification"));
        assert!(err(json!({"message": "0x1"})).contains("message"));
        assert!(err(json!({"message": 5})).contains("must be a string"));
        assert!(
            err(json!({"message": "00", "quorumPercentage": 101})).contains("quorumPercentage")
        );
        assert!(err(json!({"message": "00", "quorumPercentage": -1})).contains("quorumPercentage"));
        assert!(err(json!({"message": "00", "quorumPercentage": 66.5})).contains("integer"));
        let m = err(json!({"message": "00", "quorumPercentage": 90, "quorumPercentageBuffer": 11}));
        assert!(m.contains("at most 100"), "{m}");
        assert!(err(json!({"message": "00", "signingSubnetId": "zz"})).contains("signingSubnetId"));
        assert!(err(json!({"message": "00", "pChainHeight": "7"})).contains("pChainHeight"));
        assert!(err(json!([1])).contains("object"));
    }
}
