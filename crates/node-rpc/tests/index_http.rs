//! Every `index.*` method over HTTP: results byte for byte, every error with its exact message,
//! both profiles, and pagination of `getContainerRange`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Arc;

use common::{call, err, fill, ok, open, record, serve};
use snowline_node_rpc::Compat;
use snowline_types::container::{ContainerRecord, IndexPath, format_rfc3339_nano, parse_rfc3339};
use snowline_types::formatting::{decode_hex_checksum, encode_hex_checksum, encode_hex_plain};

// vector: avalanchego indexer/service.md (getContainerByID / getContainerByIndex examples,
// index 0 of /ext/index/X/tx on a local network).
const DOC0_ID: &str = "6fXf5hncR8LXvwtM8iezFQBpK5cubV6y1dWgpJCcNyzGB1EzY";
const DOC0_BYTES: &str = "0x00000000000400003039d891ad56056d9c01f18f43f58b5c784ad07a4a49cf3d1f11623804b5cba2c6bf00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000070429ccc5c5eb3b80000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db000000050429d069189e0000000000010000000000000000c85fc1980a77c5da78fe5486233fc09a769bb812bcb2cc548cf9495d046b3f1b00000001dbcf890f77f49b96857648b72b77f9f82937f28a68704af05da0dc12ba53f2db00000007000003a352a38240000000000000000000000001000000013cb7d3842e8cee6a0ebd09f1fe884f6861e1b29c0000000100000009000000011cdb75d4e0b0aeaba2ebc1ef208373fedc1ebbb498f8385ad6fb537211d1523a70d903b884da77d963d56f163191295589329b5710113234934d0fd59c01676b00b63d2108";
const DOC0_TIME: &str = "2021-04-02T15:34:00.262979-07:00";
// vector: avalanchego indexer/service.md ("Iterating Through X-Chain Transaction": the second
// mainnet X-Chain tx, index 1, the complete response body).
const DOC1_RESPONSE: &str = r#"{"jsonrpc":"2.0","result":{"id":"ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo","bytes":"0x00000000000000000001ed5f38341e436e5d46e2bb00b45d62ae97d1b050c64bc634ae10626739e35c4b0000000221e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff000000070000000129f6afc0000000000000000000000001000000017416792e228a765c65e2d76d28ab5a16d18c342f21e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff0000000700000222afa575c00000000000000000000000010000000187d6a6dd3cd7740c8b13a410bea39b01fa83bb3e000000016f375c785edb28d52edb59b54035c96c198e9d80f5f5f5eee070592fe9465b8d0000000021e67317cbc4be2aeb00677ad6462778a8f52274b9d605df2591b23027a87dff0000000500000223d9ab67c0000000010000000000000000000000010000000900000001beb83d3d29f1247efb4a3a1141ab5c966f46f946f9c943b9bc19f858bd416d10060c23d5d9c7db3a0da23446b97cd9cf9f8e61df98e1b1692d764c84a686f5f801a8da6e40","timestamp":"2021-11-04T00:42:55.01643414Z","encoding":"hex","index":"1"},"id":1}
"#;

fn doc_records() -> [ContainerRecord; 2] {
    let v: serde_json::Value = serde_json::from_str(DOC1_RESPONSE).unwrap();
    let r = &v["result"];
    let one = ContainerRecord {
        path: IndexPath::XTx,
        id: r["id"].as_str().unwrap().parse().unwrap(),
        bytes: decode_hex_checksum(r["bytes"].as_str().unwrap()).unwrap(),
        timestamp_ns: parse_rfc3339(r["timestamp"].as_str().unwrap()).unwrap(),
    };
    let zero = ContainerRecord {
        path: IndexPath::XTx,
        id: DOC0_ID.parse().unwrap(),
        bytes: decode_hex_checksum(DOC0_BYTES).unwrap(),
        timestamp_ns: parse_rfc3339(DOC0_TIME).unwrap(),
    };
    // Both ids follow the X/tx rule (sha256 of the signed tx bytes).
    zero.check_id().unwrap();
    one.check_id().unwrap();
    [zero, one]
}

/// The container JSON we serve for `r` at `index` (hex encoding).
fn container_json(r: &ContainerRecord, index: u64) -> String {
    format!(
        r#"{{"id":"{}","bytes":"{}","timestamp":"{}","encoding":"hex","index":"{index}"}}"#,
        r.id,
        encode_hex_checksum(&r.bytes),
        format_rfc3339_nano(r.timestamp_ns)
    )
}

struct Fixture {
    _dir: tempfile::TempDir,
    store: Arc<snowline_store::Store>,
    docs: [ContainerRecord; 2],
    blocks: Vec<ContainerRecord>,
}

const BLOCKS: u64 = 2500;

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(open(dir.path()));
    let docs = doc_records();
    fill(&store, &docs);
    let blocks: Vec<_> = (0..BLOCKS).map(|i| record(IndexPath::CBlock, i)).collect();
    fill(&store, &blocks);
    fill(&store, &[record(IndexPath::PBlock, 0)]);
    Fixture {
        _dir: dir,
        store,
        docs,
        blocks,
    }
}

#[tokio::test]
async fn methods_match_avalanchego_docs_byte_for_byte() {
    let f = fixture();
    for compat in [Compat::Spec, Compat::Avalanchego] {
        let s = serve(Arc::clone(&f.store), compat).await;
        let x = IndexPath::XTx;
        let doc1 = DOC1_RESPONSE;
        assert_eq!(
            call(
                s.addr,
                x,
                "index.getContainerByIndex",
                r#"{"index":1,"encoding":"hex"}"#
            )
            .await,
            doc1
        );
        assert_eq!(
            call(s.addr, x, "index.getContainerByIndex", r#"{"index":"1"}"#).await,
            doc1
        );
        assert_eq!(
            call(
                s.addr,
                x,
                "index.getContainerByID",
                r#"{"id":"ZGYTSU8w3zUP6VFseGC798vA2Vnxnfj6fz1QPfA9N93bhjJvo","encoding":"hex"}"#
            )
            .await,
            doc1
        );
        assert_eq!(
            call(s.addr, x, "index.getLastAccepted", r#"{"encoding":"hex"}"#).await,
            doc1
        );
        assert_eq!(call(s.addr, x, "index.getLastAccepted", "{}").await, doc1);
        // Index 0: the docs' fields, the timestamp rendered in UTC (the docs' node ran at -07:00).
        let zero = call(
            s.addr,
            x,
            "index.getContainerByIndex",
            r#"{"index":0,"encoding":"hex"}"#,
        )
        .await;
        let expected0 = ok(&format!(
            r#"{{"id":"{DOC0_ID}","bytes":"{DOC0_BYTES}","timestamp":"2021-04-02T22:34:00.262979Z","encoding":"hex","index":"0"}}"#
        ));
        assert_eq!(zero, expected0);
        assert_eq!(
            call(
                s.addr,
                x,
                "index.getContainerByID",
                &format!(r#"{{"id":"{DOC0_ID}","encoding":"hex"}}"#)
            )
            .await,
            expected0
        );
        // service.md getIndex / isAccepted examples.
        assert_eq!(
            call(
                s.addr,
                x,
                "index.getIndex",
                &format!(r#"{{"id":"{DOC0_ID}","encoding":"hex"}}"#)
            )
            .await,
            ok(r#"{"index":"0"}"#)
        );
        assert_eq!(
            call(
                s.addr,
                x,
                "index.isAccepted",
                &format!(r#"{{"id":"{DOC0_ID}","encoding":"hex"}}"#)
            )
            .await,
            ok(r#"{"isAccepted":true}"#)
        );
        // getContainerRange in the profile's shape.
        let range = call(
            s.addr,
            x,
            "index.getContainerRange",
            r#"{"startIndex":0,"numToFetch":100,"encoding":"hex"}"#,
        )
        .await;
        let items = format!(
            "[{expected},{one}]",
            expected = &expected0[26..expected0.len() - 9],
            one = &doc1[26..doc1.len() - 9]
        );
        let want = match compat {
            Compat::Spec => ok(&items),
            Compat::Avalanchego => ok(&format!(r#"{{"containers":{items}}}"#)),
        };
        assert_eq!(range, want, "{compat}");
    }
}

#[tokio::test]
async fn every_error_with_its_message() {
    let f = fixture();
    let unknown = record(IndexPath::XBlock, 99).id;
    for compat in [Compat::Spec, Compat::Avalanchego] {
        let s = serve(Arc::clone(&f.store), compat).await;
        let a = s.addr;
        let x = IndexPath::XTx;
        let empty = IndexPath::XVtx;
        let c = |p, m: &'static str, params: String| async move { call(a, p, m, &params).await };
        assert_eq!(
            c(x, "index.getContainerByIndex", r#"{"index":2}"#.into()).await,
            err("no container at index 2")
        );
        assert_eq!(
            c(
                x,
                "index.getContainerByIndex",
                r#"{"index":"18446744073709551615"}"#.into()
            )
            .await,
            err("no container at index 18446744073709551615")
        );
        assert_eq!(
            c(empty, "index.getContainerByIndex", r#"{"index":0}"#.into()).await,
            err("no container at index 0")
        );
        assert_eq!(
            c(empty, "index.getLastAccepted", "{}".into()).await,
            err("no containers have been accepted")
        );
        assert_eq!(
            c(
                empty,
                "index.getContainerRange",
                r#"{"startIndex":0,"numToFetch":1}"#.into()
            )
            .await,
            err("no containers have been accepted")
        );
        assert_eq!(
            c(
                x,
                "index.getContainerRange",
                r#"{"startIndex":2,"numToFetch":1}"#.into()
            )
            .await,
            err("start index (2) > last accepted index (1)")
        );
        assert_eq!(
            c(
                x,
                "index.getContainerRange",
                r#"{"startIndex":0,"numToFetch":1025}"#.into()
            )
            .await,
            err("numToFetch must be in [1,1024] but is 1025")
        );
        // numToFetch 0: the profiles differ.
        let zero = c(
            x,
            "index.getContainerRange",
            r#"{"startIndex":5,"numToFetch":0}"#.into(),
        )
        .await;
        let zero_empty = c(
            empty,
            "index.getContainerRange",
            r#"{"startIndex":0}"#.into(),
        )
        .await;
        match compat {
            Compat::Spec => {
                assert_eq!(zero, ok("null"));
                assert_eq!(zero_empty, ok("null"));
            }
            Compat::Avalanchego => {
                assert_eq!(zero, err("numToFetch must be in [1,1024] but is 0"));
                assert_eq!(zero_empty, err("numToFetch must be in [1,1024] but is 0"));
            }
        }
        let id = format!(r#"{{"id":"{unknown}"}}"#);
        assert_eq!(
            c(x, "index.getContainerByID", id.clone()).await,
            err("not found")
        );
        assert_eq!(c(x, "index.getIndex", id.clone()).await, err("not found"));
        assert_eq!(c(x, "index.getIndex", "{}".into()).await, err("not found"));
        assert_eq!(
            c(x, "index.isAccepted", id.clone()).await,
            ok(r#"{"isAccepted":false}"#)
        );
        // A container of another path is not in this one.
        let p0 = format!(r#"{{"id":"{}"}}"#, record(IndexPath::PBlock, 0).id);
        assert_eq!(
            c(x, "index.isAccepted", p0.clone()).await,
            ok(r#"{"isAccepted":false}"#)
        );
        assert_eq!(
            c(IndexPath::PBlock, "index.isAccepted", p0).await,
            ok(r#"{"isAccepted":true}"#)
        );
        // encoding json: valid parameter, unsupported by the method (checked after the lookup).
        let unsupported = err("unsupported encoding in method");
        assert_eq!(
            c(
                x,
                "index.getContainerByIndex",
                r#"{"index":0,"encoding":"json"}"#.into()
            )
            .await,
            unsupported
        );
        assert_eq!(
            c(x, "index.getLastAccepted", r#"{"encoding":"json"}"#.into()).await,
            unsupported
        );
        assert_eq!(
            c(
                x,
                "index.getContainerByID",
                format!(r#"{{"id":"{DOC0_ID}","encoding":"JSON"}}"#)
            )
            .await,
            unsupported
        );
        assert_eq!(
            c(
                x,
                "index.getContainerRange",
                r#"{"startIndex":0,"numToFetch":2,"encoding":"json"}"#.into()
            )
            .await,
            unsupported
        );
        assert_eq!(
            c(
                x,
                "index.getContainerByIndex",
                r#"{"index":7,"encoding":"json"}"#.into()
            )
            .await,
            err("no container at index 7")
        );
        assert_eq!(
            c(
                x,
                "index.getContainerByID",
                format!(r#"{{"id":"{unknown}","encoding":"json"}}"#)
            )
            .await,
            err("not found")
        );
        // Unknown encodings, malformed ids and numbers fail to decode (avalanchego's message).
        let invalid = err(snowline_jsonrpc::INVALID_ARG_MESSAGE);
        assert_eq!(
            c(x, "index.getLastAccepted", r#"{"encoding":"cb58"}"#.into()).await,
            invalid
        );
        assert_eq!(
            c(x, "index.getLastAccepted", r#"{"encoding":5}"#.into()).await,
            invalid
        );
        assert_eq!(
            c(x, "index.getContainerByID", r#"{"id":"notanid"}"#.into()).await,
            invalid
        );
        assert_eq!(
            c(x, "index.isAccepted", r#"{"id":7}"#.into()).await,
            invalid
        );
        assert_eq!(
            c(x, "index.getContainerByIndex", r#"{"index":-1}"#.into()).await,
            invalid
        );
        assert_eq!(
            c(
                x,
                "index.getContainerRange",
                r#"{"startIndex":"x","numToFetch":1}"#.into()
            )
            .await,
            invalid
        );
        // Encoding names are matched case-insensitively; getIndex ignores `encoding`.
        assert_eq!(
            c(x, "index.getLastAccepted", r#"{"encoding":"HEX"}"#.into()).await,
            DOC1_RESPONSE
        );
        assert_eq!(
            c(
                x,
                "index.getIndex",
                format!(r#"{{"id":"{DOC0_ID}","encoding":"json"}}"#)
            )
            .await,
            ok(r#"{"index":"0"}"#)
        );
        // hexc / hexnc: avalanchego serves them, the spec profile allows hex only.
        let r0 = &f.docs[0];
        let hexnc = c(
            x,
            "index.getContainerByIndex",
            r#"{"index":0,"encoding":"hexnc"}"#.into(),
        )
        .await;
        let hexc = c(
            x,
            "index.getContainerByIndex",
            r#"{"index":0,"encoding":"hexc"}"#.into(),
        )
        .await;
        match compat {
            Compat::Spec => {
                assert_eq!(hexnc, unsupported);
                assert_eq!(hexc, unsupported);
            }
            Compat::Avalanchego => {
                let want = container_json(r0, 0)
                    .replace(
                        &encode_hex_checksum(&r0.bytes),
                        &encode_hex_plain(&r0.bytes),
                    )
                    .replace("\"hex\"", "\"hexnc\"");
                assert_eq!(hexnc, ok(&want));
                assert_eq!(
                    hexc,
                    ok(&container_json(r0, 0).replace("\"hex\"", "\"hexc\""))
                );
            }
        }
    }
}

#[tokio::test]
async fn range_pagination_visits_every_container_once() {
    let f = fixture();
    for compat in [Compat::Spec, Compat::Avalanchego] {
        let s = serve(Arc::clone(&f.store), compat).await;
        for page in [1024u64, 333, 1] {
            if page == 1 && compat == Compat::Avalanchego {
                continue; // one call per container: enough to run once
            }
            let mut seen = Vec::new();
            let mut start = 0u64;
            loop {
                let body = call(
                    s.addr,
                    IndexPath::CBlock,
                    "index.getContainerRange",
                    &format!(r#"{{"startIndex":"{start}","numToFetch":{page},"encoding":"hex"}}"#),
                )
                .await;
                let v: serde_json::Value = serde_json::from_str(&body).unwrap();
                if v.get("error").is_some() {
                    assert_eq!(
                        body,
                        err(&format!(
                            "start index ({start}) > last accepted index ({})",
                            BLOCKS - 1
                        ))
                    );
                    break;
                }
                let items = match compat {
                    Compat::Spec => v["result"].as_array().unwrap().clone(),
                    Compat::Avalanchego => v["result"]["containers"].as_array().unwrap().clone(),
                };
                assert!(!items.is_empty() && items.len() as u64 <= page);
                for item in &items {
                    seen.push(item.clone());
                }
                start += items.len() as u64;
            }
            assert_eq!(seen.len() as u64, BLOCKS);
            for (i, item) in seen.iter().enumerate() {
                let want: serde_json::Value =
                    serde_json::from_str(&container_json(&f.blocks[i], i as u64)).unwrap();
                assert_eq!(item, &want);
            }
        }
        // The last page is short: fewer available than asked.
        let body = call(
            s.addr,
            IndexPath::CBlock,
            "index.getContainerRange",
            r#"{"startIndex":2400,"numToFetch":1024}"#,
        )
        .await;
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        let n = match compat {
            Compat::Spec => v["result"].as_array().unwrap().len(),
            Compat::Avalanchego => v["result"]["containers"].as_array().unwrap().len(),
        };
        assert_eq!(n, 100);
    }
}

#[tokio::test]
async fn unknown_path_and_method() {
    let f = fixture();
    let s = serve(Arc::clone(&f.store), Compat::Spec).await;
    let (status, body) = common::post(s.addr, "/ext/index/X/nope", "{}").await;
    assert_eq!((status, body.as_str()), (404, "404 page not found\n"));
    assert_eq!(
        call(s.addr, IndexPath::XTx, "index.getFoo", "{}").await,
        err(r#"rpc: can't find method \"index.GetFoo\""#)
    );
}
