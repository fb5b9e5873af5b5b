//! Waiting at start: the backoff's pauses, the upstream URL's address, and a wait that ends
//! when the upstream listens.

#![allow(clippy::unwrap_used, missing_docs)]

use std::time::Duration;

use snowline_cli::{Backoff, host_port, wait_for_upstream};

#[test]
fn backoff_doubles_up_to_its_bound() {
    let mut b = Backoff::new(Duration::from_millis(100), Duration::from_millis(500));
    let pauses: Vec<u128> = (0..5).map(|_| b.pause().as_millis()).collect();
    assert_eq!(pauses, [100, 200, 400, 500, 500]);
}

#[test]
fn upstream_urls_give_host_and_port() {
    assert_eq!(
        host_port("http://127.0.0.1:9650").unwrap(),
        "127.0.0.1:9650"
    );
    assert_eq!(
        host_port("http://node.example/ext/bc/C/rpc").unwrap(),
        "node.example:80"
    );
    assert_eq!(
        host_port("https://u:p@node.example:9651/x").unwrap(),
        "node.example:9651"
    );
    assert_eq!(host_port("http://[::1]:9650/").unwrap(), "[::1]:9650");
    assert_eq!(host_port("http://[::1]").unwrap(), "[::1]:80");
    assert!(host_port("127.0.0.1:9650").is_err());
    assert!(host_port("http:///x").is_err());
}

#[tokio::test]
async fn waiting_ends_when_the_upstream_listens() {
    // A port that was free: nothing listens on it until the listener below binds it.
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = probe.local_addr().unwrap();
    drop(probe);
    let wait =
        tokio::spawn(async move { wait_for_upstream("test", &format!("http://{addr}")).await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!wait.is_finished(), "it waits while nothing listens");
    let _listener = tokio::net::TcpListener::bind(addr).await.unwrap();
    wait.await.unwrap().unwrap();
}
