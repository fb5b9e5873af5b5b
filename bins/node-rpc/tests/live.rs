//! `node-rpc serve --live-rate`: after the devnet's history, new X and P blocks keep arriving
//! through the index (`index.*`, `avm.*` see them), a follower mirrors them, the P blocks parse
//! and chain on the history's, and SIGTERM stops it cleanly. Real binaries on port 0.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{NodeRpc, fixture_containers, start};
use serde_json::{Value, json};
use snowline_types::formatting::decode_hex_checksum;
use snowline_types::platformvm::parse_block;

/// The number of containers of `path` accepted so far (0 when none).
fn accepted(node: &NodeRpc, path: &str) -> u64 {
    let v = node.call(
        &format!("/ext/index/{path}"),
        "index.getLastAccepted",
        json!({"encoding": "hex"}),
    );
    v["result"]["index"]
        .as_str()
        .map_or(0, |i| i.parse::<u64>().unwrap() + 1)
}

fn history(path: &str) -> u64 {
    fixture_containers()
        .iter()
        .filter(|(p, _)| p == path)
        .count() as u64
}

#[test]
fn live_blocks_keep_coming_and_a_follower_sees_them() {
    let dir = tempfile::tempdir().unwrap();
    let node = start(&[
        "serve",
        "--live-rate",
        "40",
        "--data-dir",
        dir.path().to_str().unwrap(),
    ]);
    let (x0, p0) = (history("X/block"), history("P/block"));
    assert!(
        node.wait_until(60, |n| accepted(n, "X/block") >= x0 + 5
            && accepted(n, "P/block") >= p0 + 5),
        "no live blocks after the history"
    );
    // The X-Chain state derives them at once: the height is the index's.
    let x_now = accepted(&node, "X/block");
    let height: u64 = node.result("/ext/bc/X", "avm.getHeight", json!({}))["height"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        height >= x_now,
        "avm height {height} behind X/block {x_now}"
    );

    // The P blocks, history and live, parse and chain (inner and proposervm parents, heights).
    let p_now = accepted(&node, "P/block");
    let page = node.result(
        "/ext/index/P/block",
        "index.getContainerRange",
        json!({"startIndex": 0, "numToFetch": p_now, "encoding": "hex"}),
    );
    let page = page.get("containers").unwrap_or(&page).clone();
    let blocks: Vec<Value> = page.as_array().unwrap().clone();
    assert_eq!(blocks.len() as u64, p_now);
    let mut prev: Option<(snowline_types::Id, snowline_types::Id, u64)> = None;
    for c in &blocks {
        let bytes = decode_hex_checksum(c["bytes"].as_str().unwrap()).unwrap();
        let b = parse_block(&bytes).unwrap();
        let proposer = b.proposer.expect("wrapped in proposervm");
        if let Some((inner, outer, height)) = prev {
            assert_eq!(b.block.block.parent_id(), inner);
            assert_eq!(proposer.parent_id, outer);
            assert_eq!(b.block.block.height(), height + 1);
        }
        prev = Some((b.block.id, proposer.id, b.block.block.height()));
    }
    // Live blocks are stamped with the wall clock when accepted, the history in 2024.
    let last_ts = blocks.last().unwrap()["timestamp"].as_str().unwrap();
    assert!(last_ts.get(..4).unwrap() >= "2026", "{last_ts}");

    // A follower mirrors the moving index.
    let down_dir = tempfile::tempdir().unwrap();
    let down = start(&[
        "follow",
        "--upstream",
        &format!("http://{}", node.addr),
        "--genesis",
        "devnet",
        "--data-dir",
        down_dir.path().to_str().unwrap(),
    ]);
    let (x_seen, p_seen) = (accepted(&node, "X/block"), accepted(&node, "P/block"));
    assert!(
        down.wait_until(60, |d| accepted(d, "X/block") >= x_seen
            && accepted(d, "P/block") >= p_seen),
        "the follower did not get the live blocks"
    );
    let last = node.result(
        "/ext/index/X/block",
        "index.getContainerByIndex",
        json!({"index": x_seen - 1, "encoding": "hex"}),
    );
    let mirrored = down.result(
        "/ext/index/X/block",
        "index.getContainerByIndex",
        json!({"index": x_seen - 1, "encoding": "hex"}),
    );
    assert_eq!(last, mirrored);

    let status = node.terminate();
    assert!(status.success(), "node-rpc exited with {status}");
}

#[test]
fn live_rate_needs_the_devnet() {
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_node-rpc"))
        .args([
            "serve",
            "--source",
            "none",
            "--live-rate",
            "2",
            "--data-dir",
        ])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--source devnet"));
}
