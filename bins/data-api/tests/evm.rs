//! The EVM endpoints end to end: both recorded devnet chains (the C-Chain and an L1) served by
//! replay servers, indexed by the real `data-api`, and every answer compared with what the
//! recorded JSON-RPC answers say (`snowline_evm_devnet::model`, which reads them with nothing of
//! the indexer's code): blocks, token transfers, internal transactions, ERC-721 and native
//! balances, deployed contracts, deployment transactions, and the errors of bad requests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{DataApi, all_pages, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::{RecordingModel, bytes, hash, q, u};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, U256};

/// The L1's blockchain id in the test's sources file.
fn l1_blockchain_id() -> String {
    snowline_types::Id([7; 32]).to_string()
}

/// Replay servers of both recordings.
fn replays() -> (tokio::runtime::Runtime, Vec<(u64, String)>) {
    common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ])
}

/// Writes the sources file of both chains into `dir`; its path.
fn sources_file(dir: &std::path::Path, urls: &[(u64, String)]) -> String {
    // The genesis funds the accounts whose balance the recording holds at block 0.
    let genesis = |chain: u64| -> Vec<String> {
        let m = RecordingModel::load(&recording_path(chain));
        m.lines
            .iter()
            .filter(|l| l["method"] == "eth_getBalance" && l["params"][1] == "0x0")
            .map(|l| l["params"][0].as_str().unwrap().to_owned())
            .collect()
    };
    let config = json!({"chains": [
        {"chainId": urls[0].0, "rpcUrl": urls[0].1, "genesisAccounts": genesis(urls[0].0)},
        {"chainId": urls[1].0.to_string(), "rpcUrl": urls[1].1, "network": "local",
         "chainName": "Snowline L1", "blockchainId": l1_blockchain_id(),
         "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18},
         "genesisAccounts": genesis(urls[1].0)},
    ]});
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// `data-api` indexing both chains from `dir/data`, not waiting.
fn start_indexing(dir: &std::path::Path, urls: &[(u64, String)]) -> DataApi {
    let sources = sources_file(dir, urls);
    start(
        &dir.join("data"),
        &[
            "--network",
            "local",
            "--evm-config",
            &sources,
            "--no-rate-limits",
        ],
    )
}

/// `data-api` indexing both chains; waits until both are caught up.
fn serve(dir: &std::path::Path, urls: &[(u64, String)]) -> DataApi {
    let api = start_indexing(dir, urls);
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    api
}

fn checksum(a: &Address) -> String {
    a.to_checksum(None)
}

/// The text an ABI `string` return value holds.
fn abi_string(data: &[u8]) -> String {
    let word = |i: usize| U256::from_be_slice(&data[32 * i..32 * i + 32]).to::<usize>();
    let (at, len) = (word(0), word(word(0) / 32));
    String::from_utf8(data[at + 32..at + 32 + len].to_vec()).unwrap()
}

/// What the token's contract answered to `selector` (`0x` + 8 hex digits), first time asked.
fn call_answer(m: &RecordingModel, token: &Address, selector: &str) -> Option<Vec<u8>> {
    let to = format!("{token:#x}");
    m.lines
        .iter()
        .find(|l| {
            l["method"] == "eth_call"
                && l["params"][0]["to"] == to.as_str()
                && l["params"][0]["data"] == selector
        })
        .and_then(|l| l.get("result"))
        .map(bytes)
}

#[test]
fn evm_chains_are_served_as_the_recorded_json_says() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = replays();
    let api = serve(dir.path(), &urls);

    // The L1 the sources file describes is listed, and found by its blockchain id.
    let chains = api.get("/v1/chains?network=local").json();
    let ids: BTreeSet<&str> = chains["chains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["chainId"].as_str().unwrap())
        .collect();
    assert!(ids.contains("43112") && ids.contains("99999"), "{chains}");
    let l1 = api
        .get(&format!("/v1/chains/{}", l1_blockchain_id()))
        .json();
    assert_eq!(l1["chainId"], "99999");
    assert_eq!(l1["chainName"], "Snowline L1");
    assert_eq!(l1["networkToken"]["symbol"], "SNOW");

    for (chain, _) in &urls {
        let m = RecordingModel::load(&recording_path(*chain));
        assert_eq!(m.chain_id(), *chain);
        blocks(&api, *chain, &m);
        transfers(&api, *chain, &m);
        internals(&api, *chain, &m);
        balances(&api, *chain, &m);
        deployments(&api, *chain, &m);
    }
    errors(&api, &RecordingModel::load(&recording_path(C_CHAIN_ID)));
    // A token's transfers, a page at a time: every altered or forged page token is refused, and
    // so is one issued for another token's transfers.
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let all = m.transfers();
    let busy: Vec<Address> = all
        .iter()
        .map(|t| t.token)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|k| all.iter().filter(|t| t.token == *k).count() >= 2)
        .collect();
    assert!(busy.len() >= 2, "two tokens with two transfers or more");
    let listing = |k: &Address| {
        format!(
            "/v1/chains/{C_CHAIN_ID}/tokens/{}/transfers?pageSize=1",
            checksum(k)
        )
    };
    common::assert_tokens_authenticated(&api, &listing(&busy[0]), &listing(&busy[1]));
}

/// Every block by number and by hash, each member from the recorded block and receipts.
fn blocks(api: &DataApi, chain: u64, m: &RecordingModel) {
    let mut cumulative = 0u64;
    for b in &m.blocks {
        let h = &b.block;
        let txs = h["transactions"].as_array().unwrap().len() as u64;
        cumulative += txs;
        let fees: U256 = b
            .receipts
            .as_array()
            .unwrap()
            .iter()
            .map(|r| u(&r["gasUsed"]) * u(&r["effectiveGasPrice"]))
            .fold(U256::ZERO, |a, x| a + x);
        let opt = |k: &str| h.get(k).filter(|v| !v.is_null()).map_or(U256::ZERO, u);
        let want = json!({
            "chainId": chain.to_string(),
            "blockNumber": b.number.to_string(),
            "blockTimestamp": q(&h["timestamp"]),
            "blockHash": h["hash"],
            "txCount": txs,
            "baseFee": opt("baseFeePerGas").to_string(),
            "gasUsed": q(&h["gasUsed"]).to_string(),
            "gasLimit": q(&h["gasLimit"]).to_string(),
            "gasCost": opt("blockGasCost").to_string(),
            "parentHash": h["parentHash"],
            "feesSpent": fees.to_string(),
            "cumulativeTransactions": cumulative.to_string(),
        });
        let by_number = api.get(&format!("/v1/chains/{chain}/blocks/{}", b.number));
        assert_eq!(by_number.json(), want, "block {}", b.number);
        let by_hash = api.get(&format!(
            "/v1/chains/{chain}/blocks/{}",
            h["hash"].as_str().unwrap()
        ));
        assert_eq!(by_hash.json(), want);
    }
    let past = api.get(&format!("/v1/chains/{chain}/blocks/{}", m.tip() + 1));
    past.error(404, "Not Found");
}

/// Each token's transfers, newest first, page by page and within a block window.
fn transfers(api: &DataApi, chain: u64, m: &RecordingModel) {
    let all = m.transfers();
    let tokens: BTreeSet<Address> = all.iter().map(|t| t.token).collect();
    assert!(tokens.len() >= 3, "the scenario moves ERC-20, 721 and 1155");
    for token in &tokens {
        let mut want: Vec<_> = all.iter().filter(|t| t.token == *token).collect();
        want.reverse();
        let path = format!(
            "/v1/chains/{chain}/tokens/{}/transfers?pageSize=3",
            checksum(token)
        );
        let got = all_pages(api, &path, "transfers");
        assert_eq!(got.len(), want.len(), "{path}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g["blockNumber"], w.block.to_string());
            assert_eq!(g["txHash"], format!("{:#x}", w.tx_hash));
            assert_eq!(g["logIndex"], w.log_index);
            assert_eq!(g["from"]["address"], checksum(&w.from));
            assert_eq!(g["to"]["address"], checksum(&w.to));
            let block = &m.blocks[w.block as usize].block;
            assert_eq!(g["blockHash"], block["hash"]);
            assert_eq!(g["blockTimestamp"], q(&block["timestamp"]));
            match w.standard {
                20 => {
                    let t = &g["erc20Token"];
                    assert_eq!(g["value"], w.value.to_string());
                    assert_eq!(t["address"], checksum(token));
                    assert_eq!(t["ercType"], "ERC-20");
                    let name = call_answer(m, token, "0x06fdde03").map(|d| abi_string(&d));
                    assert_eq!(t["name"].as_str(), name.as_deref());
                    let decimals = call_answer(m, token, "0x313ce567")
                        .map(|d| U256::from_be_slice(&d).to::<u64>());
                    assert_eq!(t["decimals"].as_u64(), decimals);
                }
                721 => {
                    assert_eq!(g["erc721Token"]["tokenId"], w.id.to_string());
                    assert_eq!(g["erc721Token"]["ercType"], "ERC-721");
                }
                _ => {
                    assert_eq!(g["erc1155Token"]["tokenId"], w.id.to_string());
                    assert_eq!(g["value"], w.value.to_string());
                }
            }
        }
        // A window: startBlock inclusive, endBlock exclusive.
        let (lo, hi) = (want.last().unwrap().block, want[0].block);
        if hi > lo {
            let windowed = all_pages(
                api,
                &format!(
                    "/v1/chains/{chain}/tokens/{}/transfers?startBlock={}&endBlock={hi}&pageSize=100",
                    checksum(token),
                    lo + 1
                ),
                "transfers",
            );
            let n = want.iter().filter(|t| t.block > lo && t.block < hi).count();
            assert_eq!(windowed.len(), n);
        }
    }
}

/// Each address's internal transactions, newest first.
fn internals(api: &DataApi, chain: u64, m: &RecordingModel) {
    let frames = m.frames();
    let addresses: BTreeSet<Address> = frames
        .iter()
        .flat_map(|f| [Some(f.from), f.to])
        .flatten()
        .collect();
    assert!(frames.iter().any(|f| f.depth > 0 && f.value > U256::ZERO));
    assert!(frames.iter().any(|f| f.reverted));
    for a in &addresses {
        let mut want: Vec<_> = frames
            .iter()
            .filter(|f| f.from == *a || f.to == Some(*a))
            .collect();
        want.reverse();
        let path = format!(
            "/v1/chains/{chain}/addresses/{}/transactions:listInternals?pageSize=4",
            checksum(a)
        );
        let got = all_pages(api, &path, "transactions");
        assert_eq!(got.len(), want.len(), "{path}");
        for (g, w) in got.iter().zip(&want) {
            let want_json = json!({
                "blockNumber": w.block.to_string(),
                "blockTimestamp": q(&m.blocks[w.block as usize].block["timestamp"]),
                "blockHash": m.blocks[w.block as usize].block["hash"],
                "txHash": format!("{:#x}", w.tx_hash),
                "from": {"address": checksum(&w.from)},
                "to": {"address": checksum(&w.to.unwrap_or(Address::ZERO))},
                "internalTxType": w.kind,
                "value": w.value.to_string(),
                "isReverted": w.reverted,
                "gasUsed": w.gas_used.to_string(),
                "gasLimit": w.gas.to_string(),
            });
            assert_eq!(g, &want_json, "{path}");
        }
    }
}

/// ERC-721 holdings replayed from the transfers; native balances as recorded at every block.
fn balances(api: &DataApi, chain: u64, m: &RecordingModel) {
    let mut owners: BTreeMap<(Address, U256), Address> = BTreeMap::new();
    for t in m.transfers().iter().filter(|t| t.standard == 721) {
        if t.to == Address::ZERO {
            owners.remove(&(t.token, t.id));
        } else {
            owners.insert((t.token, t.id), t.to);
        }
    }
    let holders: BTreeSet<Address> = owners.values().copied().collect();
    assert!(!holders.is_empty());
    for h in &holders {
        let want: Vec<(Address, U256)> = owners
            .iter()
            .filter(|(_, o)| *o == h)
            .map(|(k, _)| *k)
            .collect();
        let path = format!(
            "/v1/chains/{chain}/addresses/{}/balances:listErc721?pageSize=2",
            checksum(h)
        );
        let got = all_pages(api, &path, "erc721TokenBalances");
        let got: Vec<(String, String, String)> = got
            .iter()
            .map(|g| {
                assert_eq!(g["chainId"], chain.to_string());
                (
                    g["address"].as_str().unwrap().to_owned(),
                    g["tokenId"].as_str().unwrap().to_owned(),
                    g["ownerAddress"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want_rows: Vec<(String, String, String)> = want
            .iter()
            .map(|(c, id)| (checksum(c), id.to_string(), checksum(h)))
            .collect();
        assert_eq!(got, want_rows, "{path}");
        let first = api.get(&path).json();
        let native = &first["nativeTokenBalance"];
        let balance = m.balance_at(*h, m.tip()).unwrap_or(U256::ZERO);
        assert_eq!(native["balance"], balance.to_string());
        assert_eq!(native["chainId"], chain.to_string());
        assert!(native.get("price").is_none(), "no price source: {native}");
        // Filtered to one contract.
        let c = want[0].0;
        let only = all_pages(
            api,
            &format!("{path}&contractAddress={}", checksum(&c)),
            "erc721TokenBalances",
        );
        assert_eq!(only.len(), want.iter().filter(|(x, _)| *x == c).count());
    }

    // Native balances: at every block, the last recorded answer at or before it.
    let recorded: BTreeSet<Address> = m
        .lines
        .iter()
        .filter(|l| l["method"] == "eth_getBalance")
        .map(|l| l["params"][0].as_str().unwrap().parse().unwrap())
        .collect();
    for a in &recorded {
        for n in 0..=m.tip() {
            let r = api.get(&format!(
                "/v1/chains/{chain}/addresses/{}/balances:getNative?blockNumber={n}",
                checksum(a)
            ));
            let want = m.balance_at(*a, n).unwrap_or(U256::ZERO);
            assert_eq!(
                r.json()["nativeTokenBalance"]["balance"],
                want.to_string(),
                "{a} at {n}"
            );
        }
        let now = api.get(&format!(
            "/v1/chains/{chain}/addresses/{}/balances:getNative",
            checksum(a)
        ));
        let want = m.balance_at(*a, m.tip()).unwrap_or(U256::ZERO);
        assert_eq!(
            now.json()["nativeTokenBalance"]["balance"],
            want.to_string()
        );
    }
}

/// Contracts by deployer (the EOA and the factory), and each one's deployment transaction.
fn deployments(api: &DataApi, chain: u64, m: &RecordingModel) {
    let creations = m.creations();
    assert!(creations.iter().any(|c| c.factory.is_some()));
    let deployers: BTreeSet<Address> = creations
        .iter()
        .flat_map(|c| [Some(c.deployer), c.factory])
        .flatten()
        .collect();
    for d in &deployers {
        let mut want: Vec<_> = creations
            .iter()
            .filter(|c| c.deployer == *d || c.factory == Some(*d))
            .collect();
        want.reverse();
        let path = format!(
            "/v1/chains/{chain}/contracts/{}/deployments?pageSize=2",
            checksum(d)
        );
        let got = all_pages(api, &path, "contracts");
        assert_eq!(got.len(), want.len(), "{path}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g["address"], checksum(&w.address));
            let details = &g["deploymentDetails"];
            assert_eq!(details["txHash"], format!("{:#x}", w.tx_hash));
            assert_eq!(details["deployerAddress"], checksum(&w.deployer));
            assert_eq!(
                details
                    .get("deployerContractAddress")
                    .and_then(Value::as_str),
                w.factory.as_ref().map(checksum).as_deref()
            );
        }
    }
    let frames = m.frames();
    let transfers = m.transfers();
    for c in &creations {
        let r = api.get(&format!(
            "/v1/chains/{chain}/contracts/{}/transactions:getDeployment",
            checksum(&c.address)
        ));
        let v = r.json();
        let tx = &v["nativeTransaction"];
        assert_eq!(tx["txHash"], format!("{:#x}", c.tx_hash));
        assert_eq!(tx["from"]["address"], checksum(&c.deployer));
        assert_eq!(tx["blockNumber"], c.block.to_string());
        assert_eq!(tx["chainId"], chain.to_string());
        let block = &m.blocks[c.block as usize];
        let (i, rtx) = block.block["transactions"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .find(|(_, t)| hash(&t["hash"]) == c.tx_hash)
            .unwrap();
        assert_eq!(tx["blockIndex"], i);
        assert_eq!(tx["input"], rtx["input"]);
        assert_eq!(tx["nonce"], q(&rtx["nonce"]).to_string());
        assert_eq!(tx["gasUsed"], q(&block.receipts[i]["gasUsed"]).to_string());
        let internal: Vec<&Value> = v["internalTransactions"]
            .as_array()
            .unwrap()
            .iter()
            .collect();
        let want: Vec<_> = frames.iter().filter(|f| f.tx_hash == c.tx_hash).collect();
        assert_eq!(internal.len(), want.len());
        for (g, w) in internal.iter().zip(&want) {
            assert_eq!(g["internalTxType"], w.kind);
            assert_eq!(g["from"]["address"], checksum(&w.from));
        }
        let count = |std: u16| {
            transfers
                .iter()
                .filter(|t| t.tx_hash == c.tx_hash && t.standard == std)
                .count()
        };
        assert_eq!(v["erc20Transfers"].as_array().unwrap().len(), count(20));
        assert_eq!(v["erc721Transfers"].as_array().unwrap().len(), count(721));
        assert_eq!(v["erc1155Transfers"].as_array().unwrap().len(), count(1155));
        assert_eq!(v["networkTokenDetails"]["networkToken"]["decimals"], 18);
        assert!(v["networkTokenDetails"].get("currentPrice").is_none());
    }
}

/// Bad requests are 400s naming the parameter; data this instance does not hold is a 404.
fn errors(api: &DataApi, m: &RecordingModel) {
    let c = "/v1/chains/43112";
    let eoa = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    // The token with the most transfers (it has more than one page of one).
    let transfers = m.transfers();
    let busiest = transfers
        .iter()
        .map(|t| t.token)
        .max_by_key(|a| transfers.iter().filter(|t| t.token == *a).count())
        .unwrap();
    let token = checksum(&busiest);
    for (path, param) in [
        (format!("{c}/blocks/latest"), "blockId"),
        (format!("{c}/tokens/0x12/transfers"), "address"),
        (
            format!("{c}/tokens/{token}/transfers?startBlock=5&endBlock=5"),
            "startBlock",
        ),
        (
            format!("{c}/tokens/{token}/transfers?pageSize=101"),
            "pageSize",
        ),
        (
            format!("{c}/tokens/{token}/transfers?pageSize=0"),
            "pageSize",
        ),
        (
            format!("{c}/tokens/{token}/transfers?pageToken=garbage"),
            "pageToken",
        ),
        (
            format!("{c}/addresses/{eoa}/transactions:listInternals?endBlock=x"),
            "endBlock",
        ),
        (
            format!("{c}/addresses/{eoa}/balances:listErc721?pageSize=501"),
            "pageSize",
        ),
        (
            format!("{c}/addresses/{eoa}/balances:listErc721?contractAddress=0x1"),
            "contractAddress",
        ),
        (
            format!("{c}/addresses/{eoa}/balances:getNative?blockNumber=-1"),
            "blockNumber",
        ),
        (
            format!("{c}/addresses/{eoa}/balances:getNative?currency=btc"),
            "currency",
        ),
        (
            format!("{c}/contracts/{eoa}/transactions:getDeployment?currency=x"),
            "currency",
        ),
        ("/v1/chains/x/blocks/1".to_owned(), "chainId"),
    ] {
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(param), "{path}: {msg}");
    }
    // A block past the indexed tip.
    let msg = api
        .get(&format!(
            "{c}/addresses/{eoa}/balances:getNative?blockNumber={}",
            m.tip() + 1
        ))
        .error(400, "Bad Request");
    assert!(msg.contains("not indexed yet"), "{msg}");
    // A page token of one listing does not open another.
    let first = api
        .get(&format!("{c}/tokens/{token}/transfers?pageSize=1"))
        .json();
    let t = first["nextPageToken"].as_str().unwrap();
    api.get(&format!("{c}/contracts/{eoa}/deployments?pageToken={t}"))
        .error(400, "Bad Request");
    // An EOA has no deployment; a listed chain with no source is not indexed; an unknown one is
    // not served.
    api.get(&format!("{c}/contracts/{eoa}/transactions:getDeployment"))
        .error(404, "Not Found");
    let msg = api.get("/v1/chains/43114/blocks/1").error(404, "Not Found");
    assert!(msg.contains("not indexed"), "{msg}");
    api.get("/v1/chains/777/blocks/1").error(404, "Not Found");
}

/// An address for requests that only need a well-formed one.
const EOA: &str = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F";

#[test]
fn without_a_source_every_evm_endpoint_validates_then_says_not_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let api = start(dir.path(), &["--no-rate-limits"]);
    let ok = [
        format!("/v1/chains/43112/contracts/{EOA}/transactions:getDeployment?currency=eur"),
        format!("/v1/chains/43112/tokens/{EOA}/transfers?startBlock=1&endBlock=5&pageSize=100"),
        format!("/v1/chains/43112/addresses/{EOA}/transactions:listInternals?endBlock=9"),
        format!(
            "/v1/chains/43112/addresses/{EOA}/balances:listErc721?pageSize=500&contractAddress={EOA}"
        ),
        format!("/v1/chains/43112/contracts/{EOA}/deployments?pageSize=1"),
        format!("/v1/chains/43112/addresses/{EOA}/balances:getNative"),
        "/v1/chains/43112/blocks/12".to_owned(),
        format!("/v1/chains/43112/blocks/0x{}", "ab".repeat(32)),
    ];
    for path in &ok {
        let m = api.get(path).error(404, "Not Found");
        assert!(m.contains("not indexed"), "{path}: {m}");
    }
    let bad = [
        (
            "/v1/chains/43112/contracts/0x12/transactions:getDeployment".to_owned(),
            "address",
        ),
        (
            format!("/v1/chains/43112/contracts/{EOA}/transactions:getDeployment?currency=btc"),
            "currency",
        ),
        (
            format!("/v1/chains/43112/tokens/{EOA}/transfers?startBlock=5&endBlock=5"),
            "startBlock",
        ),
        (
            format!("/v1/chains/43112/tokens/{EOA}/transfers?pageSize=101"),
            "pageSize",
        ),
        (
            format!("/v1/chains/43112/tokens/{EOA}/transfers?startBlock=-1"),
            "startBlock",
        ),
        (
            format!("/v1/chains/43112/addresses/{EOA}/balances:listErc721?pageSize=501"),
            "pageSize",
        ),
        (
            format!("/v1/chains/43112/addresses/{EOA}/balances:listErc721?contractAddress=x"),
            "contractAddress",
        ),
        (
            format!("/v1/chains/43112/contracts/{EOA}/deployments?pageToken=abc"),
            "pageToken",
        ),
        ("/v1/chains/43112/blocks/latest".to_owned(), "blockId"),
        (
            format!("/v1/chains/nope/contracts/{EOA}/deployments"),
            "chainId",
        ),
    ];
    for (path, param) in &bad {
        let m = api.get(path).error(400, "Bad Request");
        assert!(m.contains(param), "{path}: {m}");
    }
    // A well-formed chain id this instance does not serve is a 404.
    let m = api
        .get(&format!("/v1/chains/999/contracts/{EOA}/deployments"))
        .error(404, "Not Found");
    assert!(m.contains("999"), "{m}");
}

/// What the EVM endpoints show of both chains, page tokens left out (they are sealed per data
/// directory).
fn evm_view(api: &DataApi) -> Vec<(String, Value)> {
    let mut paths = Vec::new();
    for chain in [C_CHAIN_ID, L1_CHAIN_ID] {
        let m = RecordingModel::load(&recording_path(chain));
        let c = format!("/v1/chains/{chain}");
        paths.extend((0..=m.tip()).map(|n| format!("{c}/blocks/{n}")));
        let tokens: BTreeSet<Address> = m.transfers().iter().map(|t| t.token).collect();
        paths.extend(
            tokens
                .iter()
                .map(|t| format!("{c}/tokens/{}/transfers?pageSize=100", checksum(t))),
        );
        let addresses: BTreeSet<Address> = m
            .frames()
            .iter()
            .flat_map(|f| [Some(f.from), f.to])
            .flatten()
            .collect();
        for a in &addresses {
            let a = checksum(a);
            paths.push(format!(
                "{c}/addresses/{a}/transactions:listInternals?pageSize=100"
            ));
            paths.push(format!(
                "{c}/addresses/{a}/balances:listErc721?pageSize=500"
            ));
            paths.push(format!("{c}/addresses/{a}/balances:getNative"));
            paths.push(format!("{c}/contracts/{a}/deployments?pageSize=100"));
        }
    }
    paths
        .into_iter()
        .map(|p| {
            let r = api.get(&p);
            assert_eq!(r.status, 200, "{p}: {}", r.body);
            let mut v = r.json();
            v.as_object_mut().unwrap().remove("nextPageToken");
            (p, v)
        })
        .collect()
}

#[test]
fn killed_while_indexing_evm_chains_then_restarted_equals_a_clean_run() {
    let (_rt, urls) = replays();
    let clean_dir = tempfile::tempdir().unwrap();
    let want = evm_view(&serve(clean_dir.path(), &urls));
    assert!(want.len() > 100, "{} answers compared", want.len());

    // SIGKILL (dropping a `DataApi`) after a growing delay, on the same data directory: the
    // early rounds cut ingestion short (the deriver's own test cuts it after every block).
    let dir = tempfile::tempdir().unwrap();
    let tip = RecordingModel::load(&recording_path(C_CHAIN_ID)).tip();
    let mut cut_short = 0;
    for delay_ms in [0u64, 10, 25, 50, 90, 140, 200, 300] {
        let api = start_indexing(dir.path(), &urls);
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        if api.get(&format!("/v1/chains/43112/blocks/{tip}")).status != 200 {
            cut_short += 1;
        }
        drop(api);
    }
    assert!(
        cut_short > 0,
        "every round had already indexed the whole chain"
    );
    let restarted = serve(dir.path(), &urls);
    assert_eq!(evm_view(&restarted), want);
    // The metrics the followers derive in the same batches come out the same too.
    drop(restarted);
    let metrics = metrics_rows(dir.path());
    assert!(
        metrics.iter().any(|r| r.starts_with("cm_cursor (99999")),
        "{metrics:?}"
    );
    assert_eq!(metrics, metrics_rows(clean_dir.path()));
}

/// Every row of the metrics tables of the index in `dir/data`, opened read-only (no server
/// running on it).
fn metrics_rows(dir: &std::path::Path) -> Vec<String> {
    use snowline_chain_metrics::tables::{CmAddresses, CmBuckets, CmCursor};
    use snowline_store::{Direction, ReadView, Schema, Store, Table};
    fn dump<T: Table>(store: &Store, out: &mut Vec<String>)
    where
        T::Key: std::fmt::Debug,
        T::Value: std::fmt::Debug,
    {
        for e in store.scan::<T, _>(.., Direction::Forward).unwrap() {
            out.push(format!("{} {:?}", T::NAME, e.unwrap()));
        }
    }
    let schema = snowline_chain_metrics::tables().into_iter().fold(
        Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
        Schema::with_spec,
    );
    let store = Store::open_read_only(dir.join("data/index"), &schema).unwrap();
    let mut out = Vec::new();
    dump::<CmBuckets>(&store, &mut out);
    dump::<CmAddresses>(&store, &mut out);
    dump::<CmCursor>(&store, &mut out);
    out
}
