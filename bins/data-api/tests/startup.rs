//! data-api started before its node: it serves at once, waits for the upstream (said once on
//! stderr; `/readyz` 503 `upstream not reached yet`), and follows it once it listens.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::upstream;

const VERTICES: &str =
    "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1";

#[test]
fn serve_waits_for_an_upstream_started_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let api = common::start(
        dir.path(),
        &[
            "--upstream",
            &url,
            "--genesis",
            "devnet",
            "--no-rate-limits",
        ],
    );
    let waiting = "waiting for the upstream";
    assert!(api.wait_until(60, |a| a.stderr_line(waiting).is_some()));
    let ready = api.get("/readyz");
    assert_eq!(ready.status, 503, "{}", ready.body);
    assert!(
        ready.body.contains("upstream not reached yet"),
        "{}",
        ready.body
    );
    let before = api.get(VERTICES);
    assert_eq!(
        before.status, 200,
        "it serves while waiting: {}",
        before.body
    );
    assert!(
        before.json()["vertices"].as_array().unwrap().is_empty(),
        "{}",
        before.body
    );

    let _up = upstream::start_at(1, 0, usize::MAX, &format!("127.0.0.1:{port}"));
    assert!(
        api.wait_until(120, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    // It holds what the upstream served: the X-Chain's first vertices, absent before.
    let vertices = api.get(VERTICES).json();
    assert!(
        !vertices["vertices"].as_array().unwrap().is_empty(),
        "{vertices}"
    );
    assert_eq!(api.stderr_lines(waiting).len(), 1, "the wait is said once");
}
