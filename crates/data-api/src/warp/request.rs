//! The aggregation request's body (spec endpoint 1), with its rules (the quorum rules
//! included), and the message it names: an unsigned Warp message, or the ABI-encoded `bytes`
//! of a `SendWarpMessage` log's data wrapping one, as icm-services' `UnpackWarpMessage` reads it.

use serde_json::Value;
use snowline_query::ParamError;
use snowline_query::params::{cb58_or_hex_id, hex_payload};
use snowline_rest_api::ApiError;
use snowline_types::Id;
use snowline_types::warp::UnsignedMessage;

use crate::params::bad;

/// Default `quorumPercentage`.
pub(crate) const DEFAULT_QUORUM: u64 = 67;

/// The aggregation request, validated.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Aggregation {
    pub(crate) message: Option<Vec<u8>>,
    pub(crate) justification: Option<Vec<u8>>,
    pub(crate) signing_subnet: Option<Id>,
    pub(crate) quorum: u64,
    pub(crate) buffer: u64,
    pub(crate) p_chain_height: u64,
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
    let signing_subnet = string(body, "signingSubnetId")?
        .map(|s| cb58_or_hex_id("signingSubnetId", s))
        .transpose()
        .map_err(bad)?;
    // 0 means the default, as icm-services reads it.
    let quorum = integer(body, "quorumPercentage", 100)?
        .filter(|q| *q != 0)
        .unwrap_or(DEFAULT_QUORUM);
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
        signing_subnet,
        quorum,
        buffer,
        p_chain_height,
    })
}

/// The unsigned message `bytes` name: first as the ABI encoding of one `bytes` value (a
/// `SendWarpMessage` log's data: offset 32, length, the bytes, zero padding), then as the message
/// itself.
pub(crate) fn unpack_message(bytes: &[u8]) -> Result<UnsignedMessage, ApiError> {
    if let Some(inner) = abi_bytes(bytes) {
        if let Ok(m) = UnsignedMessage::parse(inner) {
            return Ok(m);
        }
    }
    UnsignedMessage::parse(bytes).map_err(|e| {
        bad(ParamError::new(
            "message",
            format!("is neither an unsigned Warp message nor the ABI bytes of one: {e}"),
        ))
    })
}

/// The value of a canonical ABI encoding of a single `bytes`, if `data` is one.
fn abi_bytes(data: &[u8]) -> Option<&[u8]> {
    let word = |i: usize| -> Option<usize> {
        let w = data.get(32 * i..32 * i + 32)?;
        if w[..24].iter().any(|b| *b != 0) {
            return None;
        }
        usize::try_from(u64::from_be_bytes(w[24..].try_into().ok()?)).ok()
    };
    if word(0)? != 32 {
        return None;
    }
    let len = word(1)?;
    let padded = len.checked_add(31)? / 32 * 32;
    if data.len() != 64usize.checked_add(padded)? {
        return None;
    }
    let (value, padding) = data[64..].split_at(len);
    padding.iter().all(|b| *b == 0).then_some(value)
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
        let zero = parse(&json!({"message": "00", "quorumPercentage": 0})).unwrap();
        assert_eq!(zero.quorum, 67);
    }

    /// The Glacier OpenAPI's aggregation examples, copied to `fixtures/warp/glacier-examples.json`.
    fn openapi_example(member: &str) -> String {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/warp/glacier-examples.json"
        ))
        .unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        v[member].as_str().unwrap().to_owned()
    }

    #[test]
    fn the_openapi_request_example_unpacks_to_the_message_its_answer_signs() {
        // The request's `message` is a SendWarpMessage log's ABI bytes; the answer's
        // `signedMessage` starts with the unsigned message those bytes wrap
        // (shared/reference/warp-icm-pchain.md §A7: Fuji, 972 bytes, id c276b9aa…).
        let request = hex::decode(openapi_example("requestMessage")).unwrap();
        let answer = hex::decode(openapi_example("signedMessage")).unwrap();
        let m = unpack_message(&request).unwrap();
        assert_eq!(m.network_id, 5);
        assert_eq!(m.bytes().len(), 972);
        assert_eq!(&answer[..972], m.bytes().as_slice());
        assert_eq!(
            m.id().to_hex(),
            "c276b9aa0598f40efcb9d8063bb6102150c42ae630df7bea080618646f7c4a70"
        );
        // The bare message unpacks to itself; junk is a 400 naming `message`.
        assert_eq!(unpack_message(&m.bytes()).unwrap(), m);
        let e = unpack_message(&request[..100]).unwrap_err();
        assert_eq!(e.status.as_u16(), 400);
        assert!(e.message.contains("message"), "{}", e.message);
    }
}
