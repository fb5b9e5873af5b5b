//! The Glacier OpenAPI's signature-aggregator examples (`glacier-data-api.json`,
//! `SignatureAggregatorRequest.message.examples[0]` and
//! `SignatureAggregationResponse.signedMessage.examples[0]`), as copied once for every test
//! into `fixtures/warp/glacier-examples.json`.

fn example(member: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fixtures/warp/glacier-examples.json"
    ))
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    hex::decode(v[member].as_str().unwrap()).unwrap()
}

/// The request's `message`: ABI-encoded `bytes` wrapping the unsigned message.
pub fn request_message() -> Vec<u8> {
    example("requestMessage")
}

/// The response's `signedMessage`.
pub fn signed_message() -> Vec<u8> {
    example("signedMessage")
}
