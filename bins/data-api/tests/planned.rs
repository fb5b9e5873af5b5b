//! Every spec endpoint is routed and validates its parameters as the spec says: malformed input
//! is a 400 naming the parameter; a valid request for data not indexed is an empty answer, a
//! 404 or, for the signature aggregator without a P-Chain index, a 503; bodies are checked (JSON, size,
//! quorum rules).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{request, start};

const ADDR: &str = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";
const NODE: &str = "NodeID-111111111111111111116DBWJs";
const ID: &str = "11111111111111111111111111111111LpoYY";

#[test]
fn endpoints_validate_then_answer_or_say_not_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &["--no-rate-limits"]);
    // The blocks of every chain are served (tests/pchain_txs.rs, tests/xchain_txs.rs,
    // tests/cchain_blocks.rs): with nothing indexed, a node proposed none.
    for chain in ["p-chain", "x-chain", "c-chain"] {
        let path = format!(
            "/v1/networks/local/blockchains/{chain}/nodes/{NODE}/blocks?startTimestamp=1&endTimestamp=2"
        );
        let r = api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.json()["blocks"], serde_json::json!([]), "{path}");
    }
    // ICM messages are served (tests/icm.rs): with no EVM chain indexed, none match, under both
    // the spec's names and the legacy ones.
    for root in ["/v1/icm", "/v1/teleporter"] {
        let path = format!(
            "{root}/messages?sourceBlockchainId=43114&destinationBlockchainId={ID}&to={ADDR}&network=local"
        );
        let r = api.get(&path);
        assert_eq!(r.status, 200, "{path}: {}", r.body);
        assert_eq!(r.json(), serde_json::json!({"messages": []}), "{path}");
    }
    let bad = [
        ("/v1/networks/local/rewards".to_owned(), "addresses"),
        (
            "/v1/networks/local/rewards?nodeIds=NodeID-x".to_owned(),
            "nodeIds",
        ),
        (
            "/v1/networks/local/rewards?addresses=P-fuji1qqq".to_owned(),
            "addresses",
        ),
        (
            format!("/v1/networks/local/rewards:listPending?nodeIds={NODE}&sortOrder=up"),
            "sortOrder",
        ),
        (
            format!("/v1/networks/moon/rewards?nodeIds={NODE}"),
            "network",
        ),
        (
            format!("/v1/networks/local/blockchains/q-chain/nodes/{NODE}/blocks"),
            "blockchainId",
        ),
        (
            "/v1/networks/local/blockchains/p-chain/nodes/node1/blocks".to_owned(),
            "nodeId",
        ),
        (
            format!(
                "/v1/networks/local/blockchains/p-chain/nodes/{NODE}/blocks?startTimestamp=9&endTimestamp=3"
            ),
            "startTimestamp",
        ),
        (
            "/v1/networks/local/l1Validators?includeInactiveL1Validators=1".to_owned(),
            "includeInactiveL1Validators",
        ),
        (
            "/v1/networks/local/l1Validators?l1ValidationId=zz".to_owned(),
            "l1ValidationId",
        ),
        (
            "/v1/icm/messages?sourceBlockchainId=0xa86a".to_owned(),
            "sourceBlockchainId",
        ),
        ("/v1/icm/messages?from=bob".to_owned(), "from"),
        ("/v1/icm/messages?network=moon".to_owned(), "network"),
        ("/v1/icm/messages?pageSize=0".to_owned(), "pageSize"),
        (
            "/v1/icm/messages?blockchainId=43114".to_owned(),
            "blockchainId",
        ),
        ("/v1/icm/messages/0x12".to_owned(), "messageId"),
        (
            "/v1/teleporter/addresses/bob/messages".to_owned(),
            "address",
        ),
    ];
    for (path, param) in &bad {
        let m = api.get(path).error(400, "Bad Request");
        assert!(m.contains(param), "{path}: {m}");
    }
    // Another valid network than the one indexed.
    api.get(&format!("/v1/networks/mainnet/rewards?nodeIds={NODE}"))
        .error(404, "Not Found");
}

#[test]
fn the_signature_aggregator_checks_its_body() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(
        dir.path(),
        &["--max-body-bytes", "2048", "--no-rate-limits"],
    );
    let post = |body: &str| {
        request(
            &api.addr,
            "POST",
            "/v1/signatureAggregator/local/aggregateSignatures",
            &[],
            body,
        )
    };
    // A well-formed message of this network from the P-Chain, but no P-Chain indexed here:
    // the validator set is not known yet.
    let p_chain_message = format!("0000{:08x}{}00000001ff", 12_345, "00".repeat(32));
    let m = post(&format!(
        r#"{{"message": "{p_chain_message}", "quorumPercentage": 70, "quorumPercentageBuffer": 30}}"#
    ))
    .error(503, "Service Unavailable");
    assert!(m.contains("P-Chain is not indexed"), "{m}");
    for (body, needle) in [
        ("{", "Invalid JSON body"),
        ("{}", "message or justification"),
        (r#"{"message": "0x0"}"#, "message"),
        (r#"{"message": "0x00aa"}"#, "Warp message"),
        (
            r#"{"justification": "00", "quorumPercentage": 101}"#,
            "quorumPercentage",
        ),
        (
            r#"{"message": "00", "quorumPercentage": 90, "quorumPercentageBuffer": 20}"#,
            "at most 100",
        ),
        (
            r#"{"message": "00", "signingSubnetId": "x"}"#,
            "signingSubnetId",
        ),
    ] {
        let m = post(body).error(400, "Bad Request");
        assert!(m.contains(needle), "{body}: {m}");
    }
    let big = format!(r#"{{"message": "{}"}}"#, "00".repeat(2000));
    post(&big).error(413, "Payload Too Large");
    let m = api
        .get(&format!(
            "/v1/signatureAggregator/local/aggregateSignatures/{ID}"
        ))
        .error(404, "Not Found");
    assert!(m.contains("not a P-Chain transaction indexed here"), "{m}");
    api.get("/v1/signatureAggregator/local/aggregateSignatures/0x12")
        .error(400, "Bad Request");
}
