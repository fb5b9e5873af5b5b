//! `node-rpc` with the Data API's keys and metering: without a valid key a call is refused with
//! a JSON-RPC error object (401 unknown or missing, 403 disabled), the plain handlers stay
//! open, and every call is recorded in `DATA_DIR/rpc-usage` as whole records, also across a
//! kill -9. The Data API's side (the two RPC usage operations over this record) is
//! `bins/data-api/tests/rpc_usage.rs`; the shared name makes `cargo test --test rpc_usage`
//! build both binaries.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{dir_arg, start};
use serde_json::{Value, json};
use snowline_access::keys::{ApiKeys, Tier};
use snowline_access::rpc::{Outcome, RpcUsageLog};
use snowline_test_support::http;
use snowline_test_support::service::poll_until;
use snowline_types::{Chain, NetworkInfo};

const HEIGHT: &str = r#"{"jsonrpc":"2.0","id":7,"method":"avm.getHeight","params":{}}"#;

fn call(addr: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, Value) {
    let r = http::request(addr, "POST", path, headers, body);
    let v = serde_json::from_str(&r.body).unwrap_or(Value::Null);
    (r.status, v)
}

/// The JSON-RPC error object of a refusal: code -32600, `id` null, no result.
fn refused(v: &Value) -> String {
    assert_eq!(v["jsonrpc"], "2.0", "{v}");
    assert_eq!(v["error"]["code"], -32600, "{v}");
    assert!(v["id"].is_null() && v.get("result").is_none(), "{v}");
    v["error"]["message"].as_str().unwrap().to_owned()
}

#[test]
fn keys_are_checked_and_every_call_is_metered() {
    let dir = tempfile::tempdir().unwrap();
    let keys_dir = dir.path().join("keys");
    let data = dir.path().join("node-rpc");
    let (good, bad) = {
        let keys = ApiKeys::open(&keys_dir).unwrap();
        let (good, good_secret) = keys.create("app", "acme", Tier::Free).unwrap();
        let (bad, bad_secret) = keys.create("old", "acme", Tier::Free).unwrap();
        keys.set_disabled(&bad.key_id, true).unwrap();
        ((good, good_secret), (bad, bad_secret))
    };
    let rpc = start(&[
        "serve",
        "--data-dir",
        dir_arg(&data),
        "--keys-from",
        dir_arg(&keys_dir),
        "--require-api-key",
    ]);
    let addr = rpc.addr.clone();
    // No key, an unknown key, a disabled key: refused before the call is read.
    let (status, v) = call(&addr, "/ext/bc/X", &[], HEIGHT);
    assert_eq!(status, 401);
    assert!(refused(&v).contains("x-data-api-key"), "{v}");
    let unknown = format!("snl_{}", "1".repeat(44));
    let (status, v) = call(&addr, "/ext/bc/X", &[("x-data-api-key", &unknown)], HEIGHT);
    assert_eq!((status, refused(&v).as_str()), (401, "Invalid API key"));
    let (status, v) = call(&addr, "/ext/bc/X", &[("x-data-api-key", &bad.1)], HEIGHT);
    assert_eq!((status, refused(&v).as_str()), (403, "API key is disabled"));
    // A valid key in either header is served; so is a bad method, as a JSON-RPC error.
    for header in ["x-data-api-key", "x-glacier-api-key"] {
        let (status, v) = call(&addr, "/ext/bc/X", &[(header, &good.1)], HEIGHT);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["id"], 7);
        assert!(v["result"]["height"].is_string(), "{v}");
    }
    let nope = r#"{"jsonrpc":"2.0","id":1,"method":"avm.nope","params":{}}"#;
    let (status, v) = call(&addr, "/ext/bc/X", &[("x-data-api-key", &good.1)], nope);
    assert_eq!((status, &v["error"]["code"]), (200, &json!(-32000)), "{v}");
    // The plain handlers are not gated.
    assert_eq!(rpc.get("/healthz").0, 200);

    // Six calls metered (not the health check), read from another process's view of the record.
    let record = data.join("rpc-usage");
    let reader = RpcUsageLog::open_secondary(&record, dir.path().join("reader")).unwrap();
    assert!(
        poll_until(30, || {
            reader.catch_up().unwrap();
            reader.calls(0, u64::MAX).unwrap().len() == 6
        }),
        "{:?}",
        reader.calls(0, u64::MAX)
    );
    let calls = reader.calls(0, u64::MAX).unwrap();
    let x = NetworkInfo::LOCAL.chain_id(Chain::X).to_string();
    let seen: Vec<(i32, &str, &str, Outcome)> = calls
        .iter()
        .map(|c| {
            assert_eq!((c.primary, c.chain_id.as_str()), (true, x.as_str()));
            assert_eq!(c.request_path, "/ext/bc/X");
            assert_eq!(c.network_id, NetworkInfo::LOCAL.network_id);
            (
                c.response_code,
                c.rpc_method.as_str(),
                c.api_key_id.as_str(),
                c.outcome,
            )
        })
        .collect();
    let id = good.0.key_id.as_str();
    assert_eq!(
        seen,
        [
            (401, "", "", Outcome::Invalid),
            (401, "", "", Outcome::Invalid),
            (403, "", "", Outcome::Invalid),
            (200, "avm.getHeight", id, Outcome::Success),
            (200, "avm.getHeight", id, Outcome::Success),
            (-32000, "avm.nope", id, Outcome::Invalid),
        ]
    );
    // kill -9 (drop), then the record opens read-write with every call whole.
    drop(rpc);
    drop(reader);
    let log = RpcUsageLog::open(&record).unwrap();
    assert_eq!(log.calls(0, u64::MAX).unwrap(), calls);
}

#[test]
fn a_required_key_needs_the_key_store() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args([
            "serve",
            "--data-dir",
            dir_arg(dir.path()),
            "--require-api-key",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--keys-from"), "{err}");
}
