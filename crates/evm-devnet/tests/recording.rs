//! The committed recording (`fixtures/evm/devnet/`), without anvil: it holds the scenario's
//! plan tx for tx, covers every case the indexer must handle, and the replay server answers it
//! back byte for byte, batches included.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::sync::Arc;

use alloy_primitives::{Address, U256, address, keccak256};
use serde_json::{Value, json};
use snowline_evm_devnet::anvil::GENESIS_TIMESTAMP;
use snowline_evm_devnet::scenario::{BLOCK_INTERVAL, Planner, TxRequest};
use snowline_evm_devnet::{
    DevnetError, RECORDED_CHAINS, Recording, ScenarioConfig, recording_path, serve, spawn_replay,
};
use snowline_jsonrpc_client::RpcClient;

/// anvil's first ten dev accounts for the mnemonic "test test … junk" (the banner anvil 1.7.1
/// prints at start; also listed in the Foundry book's anvil reference).
const DEV_ACCOUNTS: [Address; 10] = [
    address!("f39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
    address!("70997970C51812dc3A010C7d01b50e0d17dc79C8"),
    address!("3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
    address!("90F79bf6EB2c4f870365E785982E1f101E93b906"),
    address!("15d34AAf54267DB7D7c367839AAf71A00a2C6A65"),
    address!("9965507D1a55bcC2695C58ba16FB37d819B0A4dc"),
    address!("976EA74026E726554dB657fA54763abd0C3a0aa9"),
    address!("14dC79964da2C08b23698B3D3cc7Ca32193d9955"),
    address!("23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f"),
    address!("a0Ee7A142d267C1f36714E4a8F75612F20a79720"),
];

/// The recorded answers of one chain: method → params → the line.
struct Lines(BTreeMap<(String, String), Value>);

impl Lines {
    fn load(chain_id: u64) -> Self {
        let text = std::fs::read_to_string(recording_path(chain_id)).unwrap();
        let mut map = BTreeMap::new();
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let key = (
                v["method"].as_str().unwrap().to_owned(),
                v["params"].to_string(),
            );
            assert!(map.insert(key, v).is_none(), "duplicate line {line:.120}");
        }
        Lines(map)
    }

    fn result(&self, method: &str, params: Value) -> &Value {
        &self.0[&(method.to_owned(), params.to_string())]["result"]
    }

    fn block(&self, n: u64) -> &Value {
        self.result("eth_getBlockByNumber", json!([format!("{n:#x}"), true]))
    }

    fn receipts(&self, n: u64) -> &Vec<Value> {
        self.result("eth_getBlockReceipts", json!([format!("{n:#x}")]))
            .as_array()
            .unwrap()
    }

    fn traces(&self, n: u64) -> &Vec<Value> {
        self.result(
            "debug_traceBlockByNumber",
            json!([format!("{n:#x}"), {"tracer": "callTracer"}]),
        )
        .as_array()
        .unwrap()
    }
}

fn plan(chain_id: u64) -> (Vec<Vec<TxRequest>>, Vec<Address>) {
    let mut p = Planner::new(ScenarioConfig::small(chain_id), DEV_ACCOUNTS.to_vec()).unwrap();
    let mut blocks = Vec::new();
    while let Some(b) = p.next_block().unwrap() {
        blocks.push(b);
    }
    (blocks, p.children().to_vec())
}

fn quantity(v: &Value) -> U256 {
    v.as_str().unwrap().parse().unwrap()
}

#[test]
fn recorded_blocks_hold_the_planned_txs() {
    for chain_id in RECORDED_CHAINS {
        let lines = Lines::load(chain_id);
        let (blocks, _) = plan(chain_id);
        let head = ScenarioConfig::small(chain_id).blocks;
        assert_eq!(
            lines.result("eth_chainId", json!([])),
            &json!(format!("{chain_id:#x}"))
        );
        assert_eq!(
            lines.result("eth_blockNumber", json!([])),
            &json!(format!("{head:#x}"))
        );
        for n in 0..=head {
            let block = lines.block(n);
            let ts = quantity(&block["timestamp"]);
            assert_eq!(ts, U256::from(GENESIS_TIMESTAMP + n * BLOCK_INTERVAL));
            if n > 0 {
                assert_eq!(block["parentHash"], lines.block(n - 1)["hash"]);
            }
            let txs = block["transactions"].as_array().unwrap();
            let planned: &[TxRequest] = if n == 0 { &[] } else { &blocks[n as usize - 1] };
            assert_eq!(txs.len(), planned.len(), "chain {chain_id} block {n}");
            for (tx, want) in txs.iter().zip(planned) {
                assert_eq!(
                    tx["from"].as_str().unwrap().parse::<Address>().unwrap(),
                    want.from
                );
                let to = tx["to"].as_str().map(|t| t.parse::<Address>().unwrap());
                assert_eq!(to, want.to);
                assert_eq!(quantity(&tx["nonce"]), U256::from(want.nonce));
                assert_eq!(quantity(&tx["value"]), want.value);
                assert_eq!(tx["input"].as_str().unwrap(), want.input.to_string());
                assert_eq!(quantity(&tx["chainId"]), U256::from(chain_id));
                let legacy = want.legacy_gas_price.is_some();
                assert_eq!(tx["type"], if legacy { "0x0" } else { "0x2" });
            }
            // Planned reverts, and only they, failed.
            for (r, want) in lines.receipts(n).iter().zip(planned) {
                let ok = r["status"] == "0x1";
                assert_eq!(ok, !want.action.reverts(), "{:?} in block {n}", want.action);
            }
        }
    }
}

/// The deployer's first contract lands at 0x5FbDB2…0aa3, the address every Foundry/Hardhat
/// tutorial shows for account 0's nonce 0; the factory's children where CREATE/CREATE2 put them.
#[test]
fn contracts_and_children_where_the_evm_puts_them() {
    for chain_id in RECORDED_CHAINS {
        let lines = Lines::load(chain_id);
        let first = &lines.receipts(1)[0];
        assert_eq!(
            first["contractAddress"],
            "0x5fbdb2315678afecb367f032d93f642f64180aa3"
        );
        let (_, children) = plan(chain_id);
        let mut created = Vec::new();
        fn walk(f: &Value, out: &mut Vec<Address>) {
            if matches!(f["type"].as_str(), Some("CREATE" | "CREATE2")) {
                out.push(f["to"].as_str().unwrap().parse().unwrap());
            }
            for c in f["calls"].as_array().into_iter().flatten() {
                walk(c, out);
            }
        }
        for n in 2..=ScenarioConfig::small(chain_id).blocks {
            for t in lines.traces(n) {
                walk(&t["result"], &mut created);
            }
        }
        assert_eq!(created, children);
    }
}

/// Every case the indexer must handle is in the small recording of each chain.
#[test]
fn recording_covers_the_indexer_cases() {
    const TRANSFER: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
    const BATCH: &str = "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";
    const ZERO: &str = "0x0000000000000000000000000000000000000000000000000000000000000000";
    for chain_id in RECORDED_CHAINS {
        let lines = Lines::load(chain_id);
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        let mut count = |what| *seen.entry(what).or_default() += 1;
        for n in 1..=ScenarioConfig::small(chain_id).blocks {
            for r in lines.receipts(n) {
                if r["status"] == "0x0" {
                    count("failed tx");
                }
                for log in r["logs"].as_array().unwrap() {
                    let topics = log["topics"].as_array().unwrap();
                    if topics[0] == TRANSFER && topics.len() == 4 && topics[1] != ZERO {
                        count("erc721 owner change");
                    }
                    if topics[0] == BATCH {
                        count("erc1155 batch");
                    }
                }
            }
            for t in lines.traces(n) {
                let root = &t["result"];
                let failed = root.get("error").is_some();
                fn walk(
                    f: &Value,
                    failed_tx: bool,
                    depth: usize,
                    count: &mut dyn FnMut(&'static str),
                ) {
                    if depth > 0 {
                        match f["type"].as_str() {
                            Some("CREATE") => count("internal create"),
                            Some("CREATE2") => count("internal create2"),
                            _ => {}
                        }
                        if f["value"].as_str().is_some_and(|v| v != "0x0") {
                            count("internal value");
                        }
                        if depth >= 2 {
                            count("nested frame");
                        }
                        if f.get("error").is_some() && !failed_tx {
                            count("failed frame in a good tx");
                        }
                        if failed_tx {
                            count("frame in a failed tx");
                        }
                    }
                    for c in f["calls"].as_array().into_iter().flatten() {
                        walk(c, failed_tx, depth + 1, count);
                    }
                }
                walk(root, failed, 0, &mut count);
            }
        }
        for want in [
            "failed tx",
            "erc721 owner change",
            "erc1155 batch",
            "internal create",
            "internal create2",
            "internal value",
            "nested frame",
            "failed frame in a good tx",
            "frame in a failed tx",
        ] {
            assert!(
                seen.contains_key(want),
                "chain {chain_id}: no {want} ({seen:?})"
            );
        }
        // Blocks hold several txs, and balances were asked at every block.
        assert!(lines.block(5)["transactions"].as_array().unwrap().len() > 1);
        let balances = lines
            .0
            .keys()
            .filter(|(m, _)| m == "eth_getBalance")
            .count();
        assert!(balances > 10 * 13, "{balances}");
    }
}

/// The detection calls as the indexer asks them: every `supportsInterface(0x01ffc9a7)` is
/// followed by `supportsInterface(0xffffffff)` (EIP-165's second call) on the same contract and
/// block, every `decimals()` by `totalSupply()`; and the two contracts those calls are about
/// answer as their sources (`fixtures/evm/contracts/src/`) say.
#[test]
fn detection_calls_are_recorded() {
    let sel = |sig: &str| alloy_primitives::hex::encode_prefixed(&keccak256(sig)[..4]);
    let pad = "0".repeat(56);
    let erc165 = format!("{}01ffc9a7{pad}", sel("supportsInterface(bytes4)"));
    let invalid = format!("{}ffffffff{pad}", sel("supportsInterface(bytes4)"));
    let (decimals, supply) = (sel("decimals()"), sel("totalSupply()"));
    for chain_id in RECORDED_CHAINS {
        let text = std::fs::read_to_string(recording_path(chain_id)).unwrap();
        let calls: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .filter(|v| v["method"] == "eth_call")
            .collect();
        let (mut pairs, mut erc20) = (0, 0);
        for (i, c) in calls.iter().enumerate() {
            let data = c["params"][0]["data"].as_str().unwrap();
            let want_next = if data == erc165 {
                pairs += 1;
                &invalid
            } else if data == decimals {
                erc20 += 1;
                &supply
            } else {
                continue;
            };
            let next = &calls[i + 1]["params"];
            assert_eq!(next[0]["data"].as_str(), Some(want_next.as_str()));
            assert_eq!(next[0]["to"], c["params"][0]["to"]);
            assert_eq!(next[1], c["params"][1]);
        }
        assert!(pairs > 10 && erc20 >= 2, "{pairs} probes, {erc20} ERC-20s");

        let lines = Lines::load(chain_id);
        let d = Planner::new(ScenarioConfig::small(chain_id), DEV_ACCOUNTS.to_vec())
            .unwrap()
            .deployed();
        let line = |to: Address, data: &str| {
            let params = json!([{"data": data, "to": format!("{to:#x}")}, "0x1"]);
            &lines.0[&("eth_call".to_owned(), params.to_string())]
        };
        let word = |n: u8| format!("0x{n:064x}");
        // ClaimsAll says yes even to the id ERC-165 requires denying.
        assert_eq!(line(d.claims_all, &erc165)["result"], word(1));
        assert_eq!(line(d.claims_all, &invalid)["result"], word(1));
        // NoSupply answers decimals() = 18 and reverts totalSupply(), which it lacks.
        assert_eq!(line(d.no_supply, &decimals)["result"], word(18));
        assert_eq!(line(d.no_supply, &supply)["error"]["code"], 3);
    }
}

/// POSTs `body` to the server over HTTP/1.1 and returns the response body.
fn post(port: u16, body: &str) -> String {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (_, body) = out.split_once("\r\n\r\n").unwrap();
    body.to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_server_answers_the_recording_byte_for_byte() {
    let path = recording_path(RECORDED_CHAINS[0]);
    let text = std::fs::read_to_string(&path).unwrap();
    let recording = Arc::new(Recording::load(&path).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = tokio::spawn(serve(listener, recording));
    let client = RpcClient::new(&format!("http://127.0.0.1:{port}")).unwrap();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let method = v["method"].as_str().unwrap();
        match client.call_raw(method, &v["params"]).await {
            Ok(raw) => {
                // The recorded text of the result, as it is in the line.
                let start = line.find("\"result\":").unwrap() + "\"result\":".len();
                assert_eq!(raw.json(), &line[start..line.len() - 1]);
            }
            Err(snowline_jsonrpc_client::ClientError::Rpc { code, .. }) => {
                assert_eq!(json!(code), v["error"]["code"]);
            }
            Err(e) => panic!("{method}: {e}"),
        }
    }
    // `latest` is the recorded head; hash-only blocks and blocks by hash are derived.
    let latest: Value = client
        .call("eth_getBlockByNumber", json!(["latest", false]))
        .await
        .unwrap();
    assert_eq!(latest["number"], "0xc");
    assert!(latest["transactions"][0].is_string());
    let by_hash: Value = client
        .call("eth_getBlockByHash", json!([latest["hash"], false]))
        .await
        .unwrap();
    assert_eq!(by_hash, latest);
    let batch = post(
        port,
        r#"[{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]},
            {"jsonrpc":"2.0","id":2,"method":"eth_getBlockReceipts","params":["0x1"]},
            {"jsonrpc":"2.0","id":3,"method":"eth_getBalance","params":["0x00000000000000000000000000000000000000aa","0x1"]}]"#,
    );
    let batch: Value = serde_json::from_str(&batch).unwrap();
    assert_eq!(batch[0]["result"], "0xa868");
    assert_eq!(batch[1]["result"].as_array().unwrap().len(), 18);
    assert_eq!(batch[2]["error"]["code"], -32000);
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spawned_replay_answers_at_its_url_up_to_the_recorded_head() {
    for chain in RECORDED_CHAINS {
        let text = std::fs::read_to_string(recording_path(chain)).unwrap();
        let replay = spawn_replay(&text).await.unwrap();
        let head = Recording::parse(&text).unwrap().head().unwrap();
        assert_eq!(replay.head, head);
        let client = RpcClient::new(&replay.url).unwrap();
        let got: String = client.call("eth_blockNumber", json!([])).await.unwrap();
        assert_eq!(got, format!("{head:#x}"));
    }
    // A recording without a head gives an indexer nowhere to stop.
    let headless = r#"{"method":"eth_chainId","params":[],"result":"0xa868"}"#;
    assert!(matches!(
        spawn_replay(headless).await,
        Err(DevnetError::Fixture(_))
    ));
}
