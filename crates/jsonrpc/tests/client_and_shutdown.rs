//! The client against our server, and graceful shutdown.

mod common;

use common::{rpc, start};
use serde_json::json;
use snowline_jsonrpc::JsonU64;
use snowline_jsonrpc_client::{ClientError, RpcClient};
use std::time::Duration;

#[tokio::test]
async fn client_calls_and_errors() {
    let s = start().await;
    let c = RpcClient::new(&format!("http://{}/ext/bc/X", s.addr)).unwrap();
    let r: serde_json::Value = c
        .call("avm.getTx", json!({"txID": "abc", "encoding": "hex"}))
        .await
        .unwrap();
    assert_eq!(r, json!({"tx": "abc", "encoding": "hex"}));
    // The raw result is exactly the result's JSON text, cut out of the response body.
    let raw = c
        .call_raw("avm.getTx", json!({"txID": "abc", "encoding": "hex"}))
        .await
        .unwrap();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(raw.json()).unwrap(),
        r
    );
    assert!(raw.json().starts_with('{') && raw.json().ends_with('}'));
    // Keep-alive: many calls on the pooled connection.
    for h in 0..20u64 {
        let r: serde_json::Value = c
            .call("avm.echoHeight", json!([{"height": h}]))
            .await
            .unwrap();
        assert_eq!(r["height"], json!(h.to_string()));
        let n: JsonU64 = serde_json::from_value(r["height"].clone()).unwrap();
        assert_eq!(n, JsonU64(h));
    }
    match c.call::<_, serde_json::Value>("avm.getTx", json!({})).await {
        Err(ClientError::Rpc {
            code,
            message,
            data,
        }) => {
            assert_eq!(
                (code, message.as_str(), data),
                (-32000, "nil transaction ID", None)
            );
        }
        other => panic!("unexpected {other:?}"),
    }
    match c.call::<_, u8>("avm.getTx", json!({"txID": "x"})).await {
        Err(ClientError::Decode(_)) => {}
        other => panic!("unexpected {other:?}"),
    }
    let bad_path = RpcClient::new(&format!("http://{}/nope", s.addr)).unwrap();
    match bad_path
        .call::<_, serde_json::Value>("avm.getTx", json!({}))
        .await
    {
        Err(ClientError::Status { status: 404, body }) => assert_eq!(body, "404 page not found\n"),
        other => panic!("unexpected {other:?}"),
    }
    let slow = RpcClient::new(&format!("http://{}/ext/bc/X", s.addr))
        .unwrap()
        .with_timeout(Duration::from_millis(50));
    match slow
        .call::<_, String>("avm.sleep", json!({"ms": 2000}))
        .await
    {
        Err(ClientError::Timeout(_)) => {}
        other => panic!("unexpected {other:?}"),
    }
    assert!(matches!(
        RpcClient::new("not a url"),
        Err(ClientError::InvalidUrl(_))
    ));
    s.shutdown().await;
}

#[tokio::test]
async fn graceful_shutdown_finishes_in_flight_requests() {
    let mut s = start().await;
    let addr = s.addr;
    let in_flight = tokio::spawn(async move {
        rpc(
            addr,
            r#"{"jsonrpc":"2.0","id":1,"method":"avm.sleepNotify","params":{"ms":300}}"#,
        )
        .await
    });
    // Once the request is inside the handler, ask the server to stop.
    common::ENTERED.notified().await;
    let _ = s.stop.take().unwrap().send(());
    let r = in_flight.await.unwrap();
    assert_eq!(
        r.body,
        "{\"jsonrpc\":\"2.0\",\"result\":\"slept\",\"id\":1}\n"
    );
    s.task.await.unwrap();
    // The listener is closed: new connections are refused.
    assert!(tokio::net::TcpStream::connect(addr).await.is_err());
}

#[tokio::test]
async fn client_error_against_unreachable_server() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let c = RpcClient::new(&format!("http://{addr}/ext/bc/X")).unwrap();
    assert!(matches!(
        c.call::<_, u8>("avm.getTx", json!({})).await,
        Err(ClientError::Transport(_))
    ));
}

/// Past the connection cap a new client makes room by closing the connection idle the longest;
/// with every connection busy, it is answered at once: HTTP 503 with a JSON-RPC error object,
/// `retry-after` and `connection: close`, while the busy connection finishes its call. The
/// bounds are a third of the 30 s header timeout: only a wait for it fails.
#[tokio::test]
async fn past_the_cap_an_idle_connection_makes_room_and_busy_ones_mean_a_503_at_once() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let s = common::start_with(snowline_jsonrpc::ServerConfig {
        max_connections: 1,
        header_read_timeout: Duration::from_secs(30),
        ..snowline_jsonrpc::ServerConfig::default()
    })
    .await;
    let call = |body: &str| {
        format!(
            "POST /ext/bc/X HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    // The one slot, held by an idle keep-alive connection that made a call.
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"avm.getTx","params":{"txID":"a"}}"#;
    let mut idle = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    idle.write_all(call(body).as_bytes()).await.unwrap();
    let mut buf = [0u8; 4096];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
    let served = tokio::time::timeout(Duration::from_secs(10), rpc(s.addr, body))
        .await
        .expect("a client past the cap waited");
    assert_eq!(served.status, 200, "{}", served.body);
    let closed = tokio::time::timeout(Duration::from_secs(10), idle.read(&mut buf)).await;
    assert!(
        matches!(closed, Ok(Ok(0) | Err(_))),
        "the idle one stayed open"
    );

    // The slot, held by a connection in a call.
    let sleep = r#"{"jsonrpc":"2.0","id":1,"method":"avm.sleepBusy","params":{"ms":3000}}"#;
    let mut busy = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    busy.write_all(call(sleep).as_bytes()).await.unwrap();
    common::BUSY.notified().await;
    let refused = tokio::time::timeout(Duration::from_secs(10), rpc(s.addr, body))
        .await
        .expect("a client past the cap waited");
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(refused.header("connection"), Some("close"));
    let v: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(
        v,
        json!({"jsonrpc": "2.0", "error": {"code": -32000,
            "message": "the server is serving its limit of 1 connections, all busy; retry shortly"},
            "id": null})
    );
    let n = busy.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).contains("slept"));
}

/// A request refused before it is read (a URI over 64 KiB, headers over 256 KiB or 100 fields,
/// bytes that are not HTTP/1.1) is answered as Go's `net/http` does, the status and reason as
/// plain text with the reason after a colon (here the limit), and the connection closed.
#[tokio::test]
async fn requests_refused_before_they_are_read_are_answered_as_go_answers_them() {
    let s = start().await;
    let path = format!("/ext/bc/X?{}", "a".repeat(70_000));
    let long = common::post(&path, Some("application/json"), "{}");
    let big = format!(
        "POST /ext/bc/X HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "b".repeat(300_000)
    );
    let fields: String = (0..101).map(|i| format!("X-F{i}: v\r\n")).collect();
    let many = format!("POST /ext/bc/X HTTP/1.1\r\nHost: x\r\n{fields}\r\n");
    let heads = "431 Request Header Fields Too Large: the request's headers are over the \
                 limit of 262144 bytes or 100 fields";
    for (raw, status, body) in [
        (
            long,
            414,
            "414 URI Too Long: the request URI is longer than the limit of 65534 bytes",
        ),
        (big.into_bytes(), 431, heads),
        (many.into_bytes(), 431, heads),
        (
            b"POST /ext/bc/\xff HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
            "400 Bad Request: not a valid HTTP/1.1 request",
        ),
    ] {
        let r = common::raw(s.addr, &raw).await;
        assert_eq!(r.status, status, "{body}");
        assert_eq!(r.header("content-type"), Some("text/plain; charset=utf-8"));
        assert_eq!(r.header("connection"), Some("close"));
        assert_eq!(r.body, body);
    }
}
