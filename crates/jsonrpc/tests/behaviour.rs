//! End-to-end behaviour over HTTP, byte for byte.
//!
//! Expected answers follow gorilla/rpc v1.2.0 `v2/server.go` (ServeHTTP: POST check,
//! Content-Type check, X-Content-Type-Options), `v2/json2/server.go` (decoding with
//! `json.NewDecoder`, -32700/-32600 with `data` = the request, notifications,
//! `json.Encoder` output with trailing newline), `v2/json2/error.go`, `v2/map.go`
//! (lookup messages), and avalanchego `utils/json/codec.go` (method case rule,
//! `errInvalidArg`) and `utils/json/uint64.go`.

mod common;

use common::{post, raw, rpc, start, start_with};
use snowline_jsonrpc::ServerConfig;
use std::time::Duration;

const JSON_CT: &str = "application/json; charset=utf-8";

#[tokio::test]
async fn id_is_echoed_raw() {
    let s = start().await;
    for (id, echoed) in [
        ("0", "0"),
        ("\"abc\"", "\"abc\""),
        ("7", "7"),
        (" 7.50 ", "7.50"),
        ("{\"a\": [1, 2]}", "{\"a\":[1,2]}"),
        ("\"<x>\"", "\"\\u003cx\\u003e\""),
    ] {
        let r = rpc(
            s.addr,
            &format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"avm.getTx","params":{{"txID":"t"}}}}"#
            ),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            format!(
                "{{\"jsonrpc\":\"2.0\",\"result\":{{\"tx\":\"t\",\"encoding\":\"\"}},\"id\":{echoed}}}\n"
            )
        );
        assert_eq!(r.header("content-type"), Some(JSON_CT));
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(r.header("node-id"), Some("NodeID-test"));
    }
    s.shutdown().await;
}

#[tokio::test]
async fn notifications_get_empty_200() {
    let s = start().await;
    for body in [
        r#"{"jsonrpc":"2.0","method":"avm.getTx","params":{"txID":"t"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"avm.getTx","params":{"txID":"t"}}"#,
        // Errors other than parse errors are not reported to notifications either.
        r#"{"jsonrpc":"2.0","method":"avm.nope"}"#,
        r#"{"jsonrpc":"1.0","method":"avm.getTx"}"#,
        "null",
    ] {
        let r = rpc(s.addr, body).await;
        assert_eq!((r.status, r.body.as_str()), (200, ""), "{body}");
        assert_eq!(r.header("content-length"), Some("0"));
    }
    s.shutdown().await;
}

#[tokio::test]
async fn params_shapes_and_numbers() {
    let s = start().await;
    let cases = [
        (r#"[{"txID":"p"}]"#, r#"{"tx":"p","encoding":""}"#),
        (
            r#"{"txID":"u","unknown":[1,{"x":2}],"encoding":"hex"}"#,
            r#"{"tx":"u","encoding":"hex"}"#,
        ),
        (r#"{"TXID":"c"}"#, r#"{"tx":"c","encoding":""}"#),
    ];
    for (params, result) in cases {
        let r = rpc(
            s.addr,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{params}}}"#),
        )
        .await;
        assert_eq!(
            r.body,
            format!("{{\"jsonrpc\":\"2.0\",\"result\":{result},\"id\":1}}\n")
        );
    }
    for h in ["5", "\"5\""] {
        let r = rpc(
            s.addr,
            &format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"avm.echoHeight","params":{{"height":{h}}}}}"#
            ),
        )
        .await;
        assert_eq!(
            r.body,
            "{\"jsonrpc\":\"2.0\",\"result\":{\"height\":\"5\"},\"id\":2}\n"
        );
    }
    // Missing params: zero values.
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"2.0","id":3,"method":"avm.echoHeight"}"#,
    )
    .await;
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"result\":{\"height\":\"0\"},\"id\":3}\n"
    );
    // Go's encoder escapes HTML characters in results.
    let r = rpc(s.addr, r#"{"jsonrpc":"2.0","id":4,"method":"avm.html"}"#).await;
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"result\":\"\\u003ca\\u0026b\\u003e\",\"id\":4}\n"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn invalid_args_and_handler_errors() {
    let s = start().await;
    for params in [
        r#"{"height":"x"}"#,
        r#"{"height":-1}"#,
        "5",
        "[5]",
        r#"{"height":"5.0"}"#,
    ] {
        let r = rpc(
            s.addr,
            &format!(r#"{{"jsonrpc":"2.0","id":1,"method":"avm.echoHeight","params":{params}}}"#),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls\",\"data\":null},\"id\":1}\n",
            "{params}"
        );
        assert_eq!(r.header("x-content-type-options"), None);
    }
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"2.0","id":"e","method":"avm.getTx","params":{}}"#,
    )
    .await;
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"nil transaction ID\",\"data\":null},\"id\":\"e\"}\n"
    );
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    s.shutdown().await;
}

#[tokio::test]
async fn method_name_rules() {
    let s = start().await;
    let cases = [
        ("avm.GetTx", "method must start with a non-uppercase letter"),
        ("avm.getFoo", "rpc: can't find method \\\"avm.GetFoo\\\""),
        ("foo.bar", "rpc: can't find service \\\"foo.Bar\\\""),
        ("x", "rpc: service/method request ill-formed: \\\"x\\\""),
        (
            "a.b.c",
            "rpc: service/method request ill-formed: \\\"a.B.c\\\"",
        ),
    ];
    for (method, msg) in cases {
        let r = rpc(
            s.addr,
            &format!(r#"{{"jsonrpc":"2.0","id":9,"method":"{method}"}}"#),
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            format!(
                "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32000,\"message\":\"{msg}\",\"data\":null}},\"id\":9}}\n"
            )
        );
    }
    s.shutdown().await;
}

#[tokio::test]
async fn parse_and_version_errors() {
    let s = start().await;
    let empty = r#"{"jsonrpc":"","method":"","params":null,"id":null}"#;
    let cases = [
        ("x", "invalid character 'x' looking for beginning of value".to_owned(), empty.to_owned(), "null"),
        ("", "EOF".to_owned(), empty.to_owned(), "null"),
        ("{\"jsonrpc\":", "unexpected EOF".to_owned(), empty.to_owned(), "null"),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"avm.getTx"}]"#, "json: cannot unmarshal array into Go value of type json2.serverRequest".to_owned(), empty.to_owned(), "null"),
        (r#"{"jsonrpc":"2.0","id":5,"method":7}"#, "json: cannot unmarshal number into Go struct field serverRequest.method of type string".to_owned(), r#"{"jsonrpc":"2.0","method":"","params":null,"id":5}"#.to_owned(), "5"),
    ];
    for (body, msg, data, id) in cases {
        let r = rpc(s.addr, body).await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            format!(
                "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32700,\"message\":\"{msg}\",\"data\":{data}}},\"id\":{id}}}\n"
            ),
            "{body}"
        );
    }
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"1.0","id":3,"method":"avm.getTx","params":{ "txID" : "t" }}"#,
    )
    .await;
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"jsonrpc must be 2.0\",\"data\":{\"jsonrpc\":\"1.0\",\"method\":\"avm.getTx\",\"params\":{\"txID\":\"t\"},\"id\":3}},\"id\":3}\n"
    );
    // Bytes after the first complete value are never read (json.Decoder).
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{"txID":"t"}} trailing"#,
    )
    .await;
    assert!(r.body.contains("\"result\""));
    s.shutdown().await;
}

#[tokio::test]
async fn http_method_content_type_and_path() {
    let s = start().await;
    let r = raw(
        s.addr,
        b"GET /ext/bc/X HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (405, "rpc: POST method required, received GET")
    );
    assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{"txID":"t"}}"#;
    let r = raw(s.addr, &post("/ext/bc/X", None, body)).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (415, "rpc: unrecognized Content-Type: ")
    );
    let r = raw(s.addr, &post("/ext/bc/X", Some("text/plain"), body)).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (415, "rpc: unrecognized Content-Type: text/plain")
    );
    let r = raw(
        s.addr,
        &post("/ext/bc/X", Some("application/json ; charset=utf-8"), body),
    )
    .await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (415, "rpc: unrecognized Content-Type: application/json ")
    );
    for ct in [
        "application/json;charset=UTF-8",
        "Application/JSON; charset=utf-8",
    ] {
        let r = raw(s.addr, &post("/ext/bc/avm", Some(ct), body)).await;
        assert_eq!(r.status, 200, "{ct}");
        assert!(r.body.starts_with("{\"jsonrpc\":\"2.0\",\"result\""));
    }
    let r = raw(s.addr, &post("/ext/bc/Y", Some("application/json"), body)).await;
    assert_eq!((r.status, r.body.as_str()), (404, "404 page not found\n"));
    let r = raw(
        s.addr,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!((r.status, r.body.as_str()), (200, "ok"));
    let r = rpc(s.addr, r#"{"jsonrpc":"2.0","id":1,"method":"avm.path"}"#).await;
    assert!(r.body.contains("\"result\":\"/ext/bc/X\""));
    s.shutdown().await;
}

#[tokio::test]
async fn body_too_large() {
    let s = start_with(ServerConfig {
        max_body_bytes: 64,
        ..ServerConfig::default()
    })
    .await;
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{{"txID":"{}"}}}}"#,
        "a".repeat(100)
    );
    let r = rpc(s.addr, &big).await;
    assert_eq!(
        (r.status, r.body.as_str()),
        (413, "rpc: request body too large (limit 64 bytes)")
    );
    // Chunked bodies are limited while reading.
    let chunk = format!("{:x}\r\n{big}\r\n0\r\n\r\n", big.len());
    let req = format!(
        "POST /ext/bc/X HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n{chunk}"
    );
    let r = raw(s.addr, req.as_bytes()).await;
    assert_eq!(r.status, 413);
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"avm.blocking"}"#,
    )
    .await;
    assert_eq!(r.body, "{\"jsonrpc\":\"2.0\",\"result\":42,\"id\":1}\n");
    s.shutdown().await;
}

#[tokio::test]
async fn handler_timeout() {
    let s = start_with(ServerConfig {
        request_timeout: Duration::from_millis(50),
        ..ServerConfig::default()
    })
    .await;
    let r = rpc(
        s.addr,
        r#"{"jsonrpc":"2.0","id":1,"method":"avm.sleep","params":{"ms":5000}}"#,
    )
    .await;
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"request timed out after 50ms\",\"data\":null},\"id\":1}\n"
    );
    s.shutdown().await;
}

#[tokio::test]
async fn keep_alive_serves_several_requests_on_one_connection() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = start().await;
    let mut conn = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"avm.blocking"}"#;
    let req = format!(
        "POST /ext/bc/X HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let expected = "{\"jsonrpc\":\"2.0\",\"result\":42,\"id\":1}\n";
    for _ in 0..3 {
        conn.write_all(req.as_bytes()).await.unwrap();
        let mut buf = vec![0u8; 4096];
        let mut got = Vec::new();
        while !String::from_utf8_lossy(&got).ends_with(expected) {
            let n = conn.read(&mut buf).await.unwrap();
            assert!(n > 0, "connection closed early");
            got.extend_from_slice(&buf[..n]);
        }
        assert!(String::from_utf8_lossy(&got).starts_with("HTTP/1.1 200 OK\r\n"));
    }
    s.shutdown().await;
}

/// Bad input by hand over the wire: a batch of 10,000 calls (avalanchego serves no batches: one
/// parse error, no call run) and JSON nested past Go's 10,000 levels (in the params, the id or
/// at the top), each one JSON-RPC error object; a body over the limit is Go's 413.
#[tokio::test]
async fn batches_and_deep_nesting_are_one_json_rpc_error() {
    let s = start().await;
    let empty = r#"{"jsonrpc":"","method":"","params":null,"id":null}"#;
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{"txID":"t"}}"#;
    let batch = format!("[{}]", vec![call; 10_000].join(","));
    let deep =
        |open: &str, close: &str| format!("{}{}", open.repeat(100_000), close.repeat(100_000));
    let cases = [
        (
            batch,
            "json: cannot unmarshal array into Go value of type json2.serverRequest",
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{}}}"#,
                deep("[", "]")
            ),
            "invalid character '[' exceeded max depth",
        ),
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":{},"method":"avm.getTx"}}"#,
                deep(r#"{"a":"#, "}").replace("{\"a\":}", "{\"a\":1}")
            ),
            "invalid character '{' exceeded max depth",
        ),
        (deep("[", "]"), "invalid character '[' exceeded max depth"),
    ];
    for (body, msg) in cases {
        assert!(body.len() < 1 << 20);
        let r = rpc(s.addr, &body).await;
        assert_eq!(r.status, 200);
        assert_eq!(
            r.body,
            format!(
                "{{\"jsonrpc\":\"2.0\",\"error\":{{\"code\":-32700,\"message\":\"{msg}\",\"data\":{empty}}},\"id\":null}}\n"
            ),
            "{msg}"
        );
    }
    s.shutdown().await;
}
