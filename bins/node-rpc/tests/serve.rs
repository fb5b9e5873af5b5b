//! The `node-rpc` binary end to end: serving the devnet, importing a file, following another
//! `node-rpc`. Each test starts the real binary on port 0 and talks HTTP to it.

#![allow(clippy::unwrap_used)]

mod common;

use common::{fixture_containers, repo_root, run, start};
use serde_json::json;

/// The devnet's funded example address (key 1 of seed 1, `fixtures/devnet/genesis.json`).
fn funded_address() -> String {
    let g: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("fixtures/devnet/genesis.json")).unwrap(),
    )
    .unwrap();
    g["keys"][1]["address"].as_str().unwrap().to_owned()
}

fn last_id(path: &str) -> String {
    fixture_containers()
        .into_iter()
        .filter(|(p, _)| p == path)
        .map(|(_, id)| id)
        .next_back()
        .unwrap()
}

#[test]
fn serves_the_devnet_it_generates() {
    let dir = tempfile::tempdir().unwrap();
    let node = start(&["serve", "--data-dir", dir.path().to_str().unwrap()]);
    let containers = fixture_containers();
    // The committed fixture is the same devnet (seed 1, small preset), so the served index
    // must hold exactly its containers.
    for path in ["X/tx", "X/vtx", "X/block"] {
        let count = containers.iter().filter(|(p, _)| p == path).count();
        let last = node.result(
            &format!("/ext/index/{path}"),
            "index.getLastAccepted",
            json!({"encoding": "hex"}),
        );
        assert_eq!(last["id"], last_id(path), "{path}");
        assert_eq!(last["index"], (count - 1).to_string(), "{path}");
    }
    let blocks = containers.iter().filter(|(p, _)| p == "X/block").count();
    let height = node.result("/ext/bc/X", "avm.getHeight", json!({}));
    assert_eq!(height["height"], blocks.to_string());
    let balances = node.result(
        "/ext/bc/X",
        "avm.getAllBalances",
        json!({"address": funded_address()}),
    );
    assert!(!balances["balances"].as_array().unwrap().is_empty());
    let tx = node.result(
        "/ext/bc/X",
        "avm.getTx",
        json!({"txID": last_id("X/tx"), "encoding": "json"}),
    );
    assert_eq!(tx["tx"]["id"], last_id("X/tx"));
    // A client mistake is a JSON-RPC error, not a crash.
    let err = node.call("/ext/bc/X", "avm.getTx", json!({"txID": "nope"}));
    assert_eq!(err["error"]["code"], -32000);
}

#[test]
fn imports_a_file_and_serves_the_same_answers() {
    let served = tempfile::tempdir().unwrap();
    let imported = tempfile::tempdir().unwrap();
    let fixture = repo_root().join("fixtures/devnet/containers.jsonl");
    // Compacted in full once written: the answers below must not change.
    let out = run(&[
        "import",
        "--compact",
        "--data-dir",
        imported.path().to_str().unwrap(),
        fixture.to_str().unwrap(),
    ]);
    assert!(
        out.contains(&format!(
            "imported {} containers",
            fixture_containers().len()
        )),
        "{out}"
    );
    // Importing again adds nothing.
    let again = run(&[
        "import",
        "--data-dir",
        imported.path().to_str().unwrap(),
        fixture.to_str().unwrap(),
    ]);
    assert!(again.contains("imported 0 containers"), "{again}");

    let a = start(&["serve", "--data-dir", served.path().to_str().unwrap()]);
    let b = start(&[
        "serve",
        "--source",
        "none",
        "--data-dir",
        imported.path().to_str().unwrap(),
    ]);
    for path in ["X/tx", "X/vtx", "X/block"] {
        let url = format!("/ext/index/{path}");
        let params = json!({"startIndex": 0, "numToFetch": 1024, "encoding": "hex"});
        assert_eq!(
            a.result(&url, "index.getContainerRange", params.clone()),
            b.result(&url, "index.getContainerRange", params),
            "{path}"
        );
    }
    let tx = json!({"txID": last_id("X/tx"), "encoding": "hex"});
    assert_eq!(
        a.result("/ext/bc/X", "avm.getTx", tx.clone()),
        b.result("/ext/bc/X", "avm.getTx", tx)
    );
}

#[test]
fn follows_another_node_rpc() {
    let up_dir = tempfile::tempdir().unwrap();
    let down_dir = tempfile::tempdir().unwrap();
    let up = start(&["serve", "--data-dir", up_dir.path().to_str().unwrap()]);
    let upstream = format!("http://{}", up.addr);
    let down = start(&[
        "follow",
        "--upstream",
        &upstream,
        "--genesis",
        "devnet",
        "--data-dir",
        down_dir.path().to_str().unwrap(),
    ]);
    for path in ["X/tx", "X/vtx", "X/block"] {
        let url = format!("/ext/index/{path}");
        let want = up.result(&url, "index.getLastAccepted", json!({"encoding": "hex"}));
        assert!(
            down.wait_until(60, |n| {
                let got = n.call(&url, "index.getLastAccepted", json!({"encoding": "hex"}));
                got["result"] == want
            }),
            "{path} did not catch up"
        );
    }
    let q = json!({"addresses": [funded_address()], "limit": 1024});
    assert_eq!(
        up.result("/ext/bc/X", "avm.getUTXOs", q.clone()),
        down.result("/ext/bc/X", "avm.getUTXOs", q)
    );
    let b = json!({"address": funded_address()});
    assert_eq!(
        up.result("/ext/bc/X", "avm.getAllBalances", b.clone()),
        down.result("/ext/bc/X", "avm.getAllBalances", b)
    );
}
