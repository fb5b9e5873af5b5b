//! Token holdings end to end: both recorded devnet chains indexed by the real `data-api`, and
//! every ERC-20, ERC-721 and ERC-1155 balance it serves (now and after every block) compared
//! with the balances summed by hand from the recorded `Transfer` / `TransferSingle` /
//! `TransferBatch` logs (`snowline_evm_devnet::model`, which decodes them with nothing of the
//! indexer's code; the recording holds no `balanceOf` answers, so the logs are the reading).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{DataApi, all_pages, start};
use serde_json::{Value, json};
use snowline_evm_devnet::model::{RecordingModel, bytes};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, U256};
use snowline_types::platformvm::UnsignedTx;

/// A holding: owner, standard (20, 721, 1155), token, id.
type Key = (Address, u16, Address, U256);

/// The non-zero balances after one block.
type Balances = BTreeMap<Key, U256>;

fn checksum(a: &Address) -> String {
    a.to_checksum(None)
}

/// The accounts anvil's default genesis funds, 10 000 ETH each (anvil's documented dev
/// accounts of the mnemonic "test test test test test test test test test test test junk").
const ANVIL_ACCOUNTS: [&str; 10] = [
    "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
    "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
    "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
    "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
    "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
    "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
];

/// Writes a genesis document funding [`ANVIL_ACCOUNTS`] (coreth's form: keys without `0x`,
/// hex balances) into `dir`; its path.
fn anvil_genesis(dir: &std::path::Path) -> String {
    let alloc: serde_json::Map<String, Value> = ANVIL_ACCOUNTS
        .iter()
        .map(|a| {
            (
                a.trim_start_matches("0x").to_owned(),
                json!({"balance": "0x21e19e0c9bab2400000"}),
            )
        })
        .collect();
    let path = dir.join("genesis.json");
    let doc = json!({"config": {"chainId": C_CHAIN_ID}, "alloc": alloc});
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// `data-api` indexing both recordings, the chains of `with_genesis` given the anvil genesis
/// file (the others none); waits until both are caught up.
fn serve(dir: &std::path::Path, urls: &[(u64, String)], with_genesis: &[u64]) -> DataApi {
    serve_with(dir, urls, with_genesis, json!({}))
}

/// [`serve`], the members of `extra` added to the first chain's source.
fn serve_with(
    dir: &std::path::Path,
    urls: &[(u64, String)],
    with_genesis: &[u64],
    extra: Value,
) -> DataApi {
    let genesis = anvil_genesis(dir);
    let mut config = json!({"chains": [
        {"chainId": urls[0].0, "rpcUrl": urls[0].1},
        {"chainId": urls[1].0.to_string(), "rpcUrl": urls[1].1, "network": "local",
         "chainName": "Snowline L1", "blockchainId": snowline_types::Id([7; 32]).to_string(),
         "networkToken": {"name": "Snow", "symbol": "SNOW", "decimals": 18}},
    ]});
    for (i, (chain, _)) in urls.iter().enumerate() {
        if with_genesis.contains(chain) {
            config["chains"][i]["genesisFile"] = json!(genesis);
        }
    }
    for (k, v) in extra.as_object().unwrap() {
        config["chains"][0][k] = v.clone();
    }
    let path = dir.join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let api = start(
        &dir.join("data"),
        &[
            "--network",
            "local",
            "--evm-config",
            path.to_str().unwrap(),
            "--no-rate-limits",
        ],
    );
    assert!(
        api.wait_until(60, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    api
}

/// The balances after each block, summed from the recorded logs: a mint (from the zero
/// address) and a burn (to it) change only the other side. `out[n]` holds the non-zero
/// balances after block `n`; `changed` every (key, block) where a balance changed.
fn model_balances(m: &RecordingModel) -> (Vec<Balances>, BTreeSet<(Key, u64)>) {
    let transfers = m.transfers();
    let mut now: BTreeMap<Key, U256> = BTreeMap::new();
    let mut out = Vec::new();
    let mut changed = BTreeSet::new();
    for n in 0..=m.tip() {
        for t in transfers.iter().filter(|t| t.block == n) {
            if t.from == t.to {
                continue;
            }
            if t.from != Address::ZERO {
                let b = now.entry((t.from, t.standard, t.token, t.id)).or_default();
                *b = b.checked_sub(t.value).expect("no balance goes negative");
                changed.insert(((t.from, t.standard, t.token, t.id), n));
            }
            if t.to != Address::ZERO {
                *now.entry((t.to, t.standard, t.token, t.id)).or_default() += t.value;
                changed.insert(((t.to, t.standard, t.token, t.id), n));
            }
        }
        out.push(
            now.iter()
                .filter(|(_, v)| **v > U256::ZERO)
                .map(|(k, v)| (*k, *v))
                .collect(),
        );
    }
    (out, changed)
}

/// What the token's contract answered to `selector`, the first time it was asked.
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

/// The text an ABI `string` return value holds.
fn abi_string(data: &[u8]) -> String {
    let word = |i: usize| U256::from_be_slice(&data[32 * i..32 * i + 32]).to::<usize>();
    let (at, len) = (word(0), word(word(0) / 32));
    String::from_utf8(data[at + 32..at + 32 + len].to_vec()).unwrap()
}

/// The `(token, id) -> balance` of `owner` in a listing's records of `standard`.
fn listed(records: &[Value], chain: u64) -> BTreeMap<(String, String, String), String> {
    records
        .iter()
        .map(|r| {
            assert_eq!(r["chainId"], chain.to_string(), "{r}");
            let id = r
                .get("tokenId")
                .and_then(Value::as_str)
                .unwrap_or("0")
                .to_owned();
            let balance = r
                .get("balance")
                .and_then(Value::as_str)
                .unwrap_or("1")
                .to_owned();
            (
                (
                    r["ercType"].as_str().unwrap().to_owned(),
                    r["address"].as_str().unwrap().to_owned(),
                    id,
                ),
                balance,
            )
        })
        .collect()
}

/// The model's holdings of `owner` of the standards `standards`, as [`listed`] keys them.
fn wanted(
    at: &BTreeMap<Key, U256>,
    owner: &Address,
    standards: &[u16],
) -> BTreeMap<(String, String, String), String> {
    at.iter()
        .filter(|((o, s, _, _), _)| o == owner && standards.contains(s))
        .map(|((_, s, t, id), v)| {
            let kind = match s {
                20 => "ERC-20",
                721 => "ERC-721",
                _ => "ERC-1155",
            };
            (
                (kind.to_owned(), checksum(t), id.to_string()),
                v.to_string(),
            )
        })
        .collect()
}

#[test]
fn token_balances_equal_the_recorded_transfer_logs_at_every_block() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let api = serve(dir.path(), &urls, &[C_CHAIN_ID, L1_CHAIN_ID]);
    for (chain, _) in &urls {
        let chain = *chain;
        let m = RecordingModel::load(&recording_path(chain));
        let (after, changed) = model_balances(&m);
        let owners: BTreeSet<Address> = changed.iter().map(|((o, ..), _)| *o).collect();
        let standards: BTreeSet<u16> = changed.iter().map(|((_, s, ..), _)| *s).collect();
        assert_eq!(
            standards.len(),
            3,
            "the scenario moves ERC-20, 721 and 1155"
        );
        let tip = m.tip();
        let c = format!("/v1/chains/{chain}/addresses");
        for o in &owners {
            let a = checksum(o);
            // After every block (each block where a balance changed among them), a page of one
            // at a time.
            for n in 0..=tip {
                let erc20 = all_pages(
                    &api,
                    &format!("{c}/{a}/balances:listErc20?blockNumber={n}&pageSize=1"),
                    "erc20TokenBalances",
                );
                assert_eq!(listed(&erc20, chain), wanted(&after[n as usize], o, &[20]));
                let erc1155 = all_pages(
                    &api,
                    &format!("{c}/{a}/balances:listErc1155?blockNumber={n}&pageSize=1"),
                    "erc1155TokenBalances",
                );
                assert_eq!(
                    listed(&erc1155, chain),
                    wanted(&after[n as usize], o, &[1155]),
                    "{a} at {n}"
                );
            }
            // Now: the same as after the tip, ERC-721 and ERC-1155 together in collectibles.
            let now = &after[tip as usize];
            let erc20 = all_pages(
                &api,
                &format!("{c}/{a}/balances:listErc20"),
                "erc20TokenBalances",
            );
            assert_eq!(listed(&erc20, chain), wanted(now, o, &[20]));
            let coll = all_pages(
                &api,
                &format!("{c}/{a}/balances:listCollectibles?pageSize=2"),
                "collectibleBalances",
            );
            assert_eq!(listed(&coll, chain), wanted(now, o, &[721, 1155]), "{a}");
            for r in coll.iter().filter(|r| r["ercType"] == "ERC-721") {
                assert_eq!(r["ownerAddress"], a.as_str());
                assert!(r.get("balance").is_none(), "{r}");
            }
            // Each ERC-20 record names its token as the contract answered.
            for r in &erc20 {
                let token: Address = r["address"].as_str().unwrap().parse().unwrap();
                let name = call_answer(&m, &token, "0x06fdde03").map(|d| abi_string(&d));
                assert_eq!(r["name"].as_str(), name.as_deref());
                let decimals = call_answer(&m, &token, "0x313ce567")
                    .map(|d| U256::from_be_slice(&d).to::<u64>());
                assert_eq!(r["decimals"].as_u64(), decimals);
                assert_eq!(r["tokenReputation"], Value::Null);
                assert!(r.get("price").is_none() && r.get("balanceValue").is_none());
            }
            // Filtered to one contract, and to a list.
            for (k, v) in wanted(now, o, &[20]) {
                let one = api
                    .get(&format!(
                        "{c}/{a}/balances:listErc20?contractAddresses={}",
                        k.1
                    ))
                    .json();
                let got = listed(one["erc20TokenBalances"].as_array().unwrap(), chain);
                assert_eq!(got, BTreeMap::from([(k.clone(), v)]));
            }
            let all20: Vec<String> = wanted(now, o, &[20]).into_keys().map(|k| k.1).collect();
            if !all20.is_empty() {
                let both = format!("{},{}", all20.join(","), checksum(&Address::ZERO));
                let page = api
                    .get(&format!(
                        "{c}/{a}/balances:listErc20?contractAddresses={both}"
                    ))
                    .json();
                assert_eq!(
                    listed(page["erc20TokenBalances"].as_array().unwrap(), chain),
                    wanted(now, o, &[20])
                );
            }
            for (k, _) in wanted(now, o, &[721, 1155]) {
                let only = all_pages(
                    &api,
                    &format!("{c}/{a}/balances:listCollectibles?contractAddress={}", k.1),
                    "collectibleBalances",
                );
                assert!(only.iter().all(|r| r["address"] == k.1.as_str()));
                let n = wanted(now, o, &[721, 1155])
                    .keys()
                    .filter(|x| x.1 == k.1)
                    .count();
                assert_eq!(only.len(), n);
            }
            // The native balance comes with the token balances, at the same block.
            let first = api
                .get(&format!("{c}/{a}/balances:listErc1155?blockNumber={tip}"))
                .json();
            let native = api
                .get(&format!("{c}/{a}/balances:getNative?blockNumber={tip}"))
                .json();
            assert_eq!(first["nativeTokenBalance"], native["nativeTokenBalance"]);
        }
        // Every (holding, block) where a balance changed was checked above; there are some of
        // each standard.
        assert!(changed.len() > owners.len());
    }
}

#[test]
fn bad_holdings_requests_are_refused_in_the_spec_shape() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let api = serve(dir.path(), &urls, &[C_CHAIN_ID, L1_CHAIN_ID]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let c = "/v1/chains/43112/addresses";
    let eoa = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    for (path, param) in [
        (format!("{c}/0x12/balances:listErc20"), "address"),
        (
            format!("{c}/{eoa}/balances:listErc20?blockNumber=x"),
            "blockNumber",
        ),
        (
            format!("{c}/{eoa}/balances:listErc20?pageSize=501"),
            "pageSize",
        ),
        (
            format!("{c}/{eoa}/balances:listErc20?contractAddresses=0x1"),
            "contractAddresses",
        ),
        (
            format!("{c}/{eoa}/balances:listErc20?filterSpamTokens=yes"),
            "filterSpamTokens",
        ),
        (
            format!("{c}/{eoa}/balances:listErc20?currency=btc"),
            "currency",
        ),
        (
            format!("{c}/{eoa}/balances:listErc20?pageToken=garbage"),
            "pageToken",
        ),
        (
            format!("{c}/{eoa}/balances:listErc1155?contractAddress=x"),
            "contractAddress",
        ),
        (
            format!("{c}/{eoa}/balances:listErc1155?blockNumber=-1"),
            "blockNumber",
        ),
        (
            format!("{c}/{eoa}/balances:listCollectibles?pageSize=0"),
            "pageSize",
        ),
        (
            format!("/v1/chains/x/addresses/{eoa}/balances:listCollectibles"),
            "chainId",
        ),
    ] {
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(param), "{path}: {msg}");
    }
    let many = vec![eoa; 101].join(",");
    let msg = api
        .get(&format!(
            "{c}/{eoa}/balances:listErc20?contractAddresses={many}"
        ))
        .error(400, "Bad Request");
    assert!(msg.contains("contractAddresses"), "{msg}");
    for kind in ["listErc20", "listErc1155"] {
        let msg = api
            .get(&format!(
                "{c}/{eoa}/balances:{kind}?blockNumber={}",
                m.tip() + 1
            ))
            .error(400, "Bad Request");
        assert!(msg.contains("not indexed yet"), "{msg}");
    }
    // A token of one listing opens no other (nor the same listing at another block).
    let (after, _) = model_balances(&m);
    let holder = after[m.tip() as usize]
        .keys()
        .filter(|(_, s, ..)| *s == 1155)
        .map(|(o, ..)| *o)
        .max_by_key(|o| {
            after[m.tip() as usize]
                .keys()
                .filter(|(x, s, ..)| x == o && *s == 1155)
                .count()
        })
        .unwrap();
    let h = checksum(&holder);
    let first = api
        .get(&format!("{c}/{h}/balances:listErc1155?pageSize=1"))
        .json();
    let t = first["nextPageToken"]
        .as_str()
        .expect("two ERC-1155 holdings");
    for other in [
        format!("{c}/{h}/balances:listErc20?pageToken={t}"),
        format!("{c}/{h}/balances:listCollectibles?pageToken={t}"),
        format!("{c}/{h}/balances:listErc1155?blockNumber=3&pageToken={t}"),
    ] {
        api.get(&other).error(400, "Bad Request");
    }
    common::assert_tokens_authenticated(
        &api,
        &format!("{c}/{h}/balances:listErc1155?pageSize=1"),
        &format!("{c}/{eoa}/balances:listErc1155?pageSize=1"),
    );
    // An unknown chain; a listed chain with nothing indexed.
    api.get(&format!(
        "/v1/chains/777/addresses/{eoa}/balances:listErc20"
    ))
    .error(404, "Not Found");
    let msg = api
        .get(&format!(
            "/v1/chains/43114/addresses/{eoa}/balances:listCollectibles"
        ))
        .error(404, "Not Found");
    assert!(msg.contains("not indexed"), "{msg}");
}

#[test]
fn genesis_balances_come_from_the_genesis_file_or_are_said_to_be_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    // The C-Chain has its genesis document; the L1 none.
    let api = serve(dir.path(), &urls, &[C_CHAIN_ID]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let funded: BTreeSet<Address> = m
        .lines
        .iter()
        .filter(|l| l["method"] == "eth_getBalance" && l["params"][1] == "0x0")
        .map(|l| l["params"][0].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(funded.len(), ANVIL_ACCOUNTS.len());
    let native = |chain: u64, a: &Address, n: u64| {
        api.get(&format!(
            "/v1/chains/{chain}/addresses/{}/balances:getNative?blockNumber={n}",
            checksum(a)
        ))
    };
    // What the node answered at block 0 (recorded) is what the genesis file says, and what the
    // index serves at block 0 and at every block before the account's first recorded change.
    for a in &funded {
        let want = m.balance_at(*a, 0).unwrap();
        for n in 0..=m.tip() {
            let r = native(C_CHAIN_ID, a, n);
            assert_eq!(r.status, 200, "{a} at {n}: {}", r.body);
            let recorded = m.balance_at(*a, n).unwrap();
            assert_eq!(
                r.json()["nativeTokenBalance"]["balance"],
                recorded.to_string()
            );
        }
        assert_eq!(
            native(C_CHAIN_ID, a, 0).json()["nativeTokenBalance"]["balance"],
            want.to_string()
        );
    }
    // An address the genesis does not fund and no block touched: a confident zero where the
    // genesis is known; where it is not, a 404 that says why, never a zero.
    let stranger: Address = "0x0000000000000000000000000000000000C0FFEE"
        .parse()
        .unwrap();
    let r = native(C_CHAIN_ID, &stranger, m.tip());
    assert_eq!(r.json()["nativeTokenBalance"]["balance"], "0");
    let l1 = RecordingModel::load(&recording_path(L1_CHAIN_ID));
    for (a, n) in [(stranger, l1.tip()), (*funded.first().unwrap(), 0)] {
        let msg = native(L1_CHAIN_ID, &a, n).error(404, "Not Found");
        assert!(msg.contains("genesis allocation is not known"), "{msg}");
    }
    // Once a block touched an address on the L1, its balance is the node's answer there.
    let touched = l1
        .lines
        .iter()
        .find(|l| l["method"] == "eth_getBalance" && l["params"][1] != "0x0")
        .unwrap();
    let a: Address = touched["params"][0].as_str().unwrap().parse().unwrap();
    let n = u64::from_str_radix(
        touched["params"][1]
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    let r = native(L1_CHAIN_ID, &a, n);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.json()["nativeTokenBalance"]["balance"],
        l1.balance_at(a, n).unwrap().to_string()
    );
}

/// What `token` answered to `supportsInterface(id)` (the first time asked): `None` when the
/// call failed.
fn supports(m: &RecordingModel, token: &Address, id: &str) -> Option<bool> {
    let data = format!("0x01ffc9a7{id}{}", "0".repeat(56));
    let to = format!("{token:#x}");
    let line = m.lines.iter().find(|l| {
        l["method"] == "eth_call"
            && l["params"][0]["to"] == to.as_str()
            && l["params"][0]["data"] == data
    })?;
    let r = bytes(line.get("result")?);
    (r.len() == 32).then(|| r[31] == 1 && r[..31].iter().all(|b| *b == 0))
}

/// The ERC type EIP-165 and the ERC-20 answers give `token`, from the recorded `eth_call`s:
/// EIP-165 "How to Detect if a Contract Implements ERC-165" (`supportsInterface(0x01ffc9a7)`
/// true and `supportsInterface(0xffffffff)` false), then the ERC-721 (`0x80ac58cd`) or
/// ERC-1155 (`0xd9b67a26`) claim; else ERC-20 when `decimals()` and `totalSupply()` answered.
fn erc_type(m: &RecordingModel, token: &Address) -> &'static str {
    let erc165 = supports(m, token, "01ffc9a7") == Some(true)
        && supports(m, token, "ffffffff") == Some(false);
    let answered = |sel: &str| call_answer(m, token, sel).is_some_and(|d| d.len() == 32);
    if erc165 && supports(m, token, "80ac58cd") == Some(true) {
        "ERC-721"
    } else if erc165 && supports(m, token, "d9b67a26") == Some(true) {
        "ERC-1155"
    } else if answered("0x313ce567") && answered("0x18160ddd") {
        "ERC-20"
    } else {
        "UNKNOWN"
    }
}

/// The last URI `token` answered for `id` (`tokenURI` or `uri`), over the blocks it was asked.
fn last_uri(m: &RecordingModel, token: &Address, id: &U256, standard: u16) -> String {
    let selector = if standard == 721 {
        "c87b56dd"
    } else {
        "0e89341c"
    };
    let data = format!("0x{selector}{}", hex::encode(id.to_be_bytes::<32>()));
    let to = format!("{token:#x}");
    m.lines
        .iter()
        .filter(|l| {
            l["method"] == "eth_call"
                && l["params"][0]["to"] == to.as_str()
                && l["params"][0]["data"] == data.as_str()
        })
        .filter_map(|l| l.get("result").map(|r| abi_string(&bytes(r))))
        .next_back()
        .unwrap_or_default()
}

#[test]
fn contracts_and_collections_are_described_as_the_recording_says() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let api = serve(dir.path(), &urls, &[C_CHAIN_ID, L1_CHAIN_ID]);
    for (chain, _) in &urls {
        let chain = *chain;
        let m = RecordingModel::load(&recording_path(chain));
        let transfers = m.transfers();
        let creations = m.creations();
        let contracts: BTreeSet<Address> = creations
            .iter()
            .map(|c| c.address)
            .chain(transfers.iter().map(|t| t.token))
            .collect();
        let mut kinds = BTreeSet::new();
        for c in &contracts {
            let v = api
                .get(&format!("/v1/chains/{chain}/addresses/{}", checksum(c)))
                .json();
            let want = erc_type(&m, c);
            kinds.insert(want);
            assert_eq!(v["ercType"], want, "{c}: {v}");
            assert_eq!(v["address"], checksum(c));
            if want == "ERC-20" || want == "ERC-721" {
                let name = call_answer(&m, c, "0x06fdde03").map(|d| abi_string(&d));
                assert_eq!(v["name"].as_str(), name.as_deref(), "{v}");
                let symbol = call_answer(&m, c, "0x95d89b41").map(|d| abi_string(&d));
                assert_eq!(v["symbol"].as_str(), symbol.as_deref(), "{v}");
            }
            if want == "ERC-20" {
                let d = call_answer(&m, c, "0x313ce567").unwrap();
                assert_eq!(v["decimals"], U256::from_be_slice(&d).to::<u64>());
            }
            match creations.iter().find(|k| k.address == *c) {
                Some(k) => {
                    let d = &v["deploymentDetails"];
                    assert_eq!(d["txHash"], format!("{:#x}", k.tx_hash));
                    assert_eq!(d["deployerAddress"], checksum(&k.deployer));
                    assert_eq!(
                        d.get("deployerContractAddress").and_then(Value::as_str),
                        k.factory.as_ref().map(checksum).as_deref()
                    );
                }
                None => assert!(v.get("deploymentDetails").is_none(), "{v}"),
            }
        }
        assert!(
            ["ERC-20", "ERC-721", "ERC-1155", "UNKNOWN"]
                .iter()
                .all(|k| kinds.contains(k)),
            "{kinds:?}"
        );
        // An account that is no contract.
        let eoa = checksum(&transfers[0].to);
        if !contracts.contains(&transfers[0].to) {
            api.get(&format!("/v1/chains/{chain}/addresses/{eoa}"))
                .error(404, "Not Found");
        }

        // Each collection's tokens: every id it moved, by id, with its last URI and owner.
        let mut owners: BTreeMap<(Address, U256), Address> = BTreeMap::new();
        for t in transfers.iter().filter(|t| t.standard == 721) {
            if t.to == Address::ZERO {
                owners.remove(&(t.token, t.id));
            } else {
                owners.insert((t.token, t.id), t.to);
            }
        }
        let collections: BTreeMap<Address, u16> = transfers
            .iter()
            .filter(|t| t.standard != 20)
            .map(|t| (t.token, t.standard))
            .collect();
        assert!(
            collections.values().any(|s| *s == 721) && collections.values().any(|s| *s == 1155)
        );
        for (token, standard) in &collections {
            let ids: BTreeSet<U256> = transfers
                .iter()
                .filter(|t| t.token == *token)
                .map(|t| t.id)
                .collect();
            let path = format!(
                "/v1/chains/{chain}/nfts/collections/{}/tokens?pageSize=2",
                checksum(token)
            );
            let got = all_pages(&api, &path, "tokens");
            let got_ids: Vec<String> = got
                .iter()
                .map(|g| g["tokenId"].as_str().unwrap().to_owned())
                .collect();
            let want_ids: Vec<String> = ids.iter().map(U256::to_string).collect();
            assert_eq!(got_ids, want_ids, "{path}");
            for (g, id) in got.iter().zip(&ids) {
                let kind = if *standard == 721 {
                    "ERC-721"
                } else {
                    "ERC-1155"
                };
                assert_eq!(g["ercType"], kind);
                assert_eq!(g["address"], checksum(token));
                assert_eq!(g["tokenUri"], last_uri(&m, token, id, *standard), "{g}");
                assert_eq!(
                    g.get("ownerAddress").and_then(Value::as_str),
                    owners.get(&(*token, *id)).map(checksum).as_deref(),
                    "{g}"
                );
                assert_eq!(g["metadata"]["indexStatus"], "UNINDEXED");
                let one = api
                    .get(&format!(
                        "/v1/chains/{chain}/nfts/collections/{}/tokens/{id}",
                        checksum(token)
                    ))
                    .json();
                assert_eq!(&one, g);
            }
            let unknown = ids.iter().max().unwrap() + U256::from(1000u32);
            let msg = api
                .get(&format!(
                    "/v1/chains/{chain}/nfts/collections/{}/tokens/{unknown}",
                    checksum(token)
                ))
                .error(404, "Not Found");
            assert!(msg.contains("not known"), "{msg}");
        }
    }
    // Bad input.
    let c = "/v1/chains/43112";
    let eoa = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    for (path, param) in [
        (format!("{c}/addresses/0x12"), "address"),
        (format!("{c}/nfts/collections/{eoa}/tokens/x1"), "tokenId"),
        (format!("{c}/nfts/collections/{eoa}/tokens/-1"), "tokenId"),
        (
            format!("{c}/nfts/collections/{eoa}/tokens/{}", "9".repeat(79)),
            "tokenId",
        ),
        (
            format!("{c}/nfts/collections/{eoa}/tokens?pageSize=101"),
            "pageSize",
        ),
        (
            format!("{c}/nfts/collections/{eoa}/tokens?pageToken=zz"),
            "pageToken",
        ),
        (format!("{c}/nfts/collections/0x1/tokens"), "address"),
    ] {
        let msg = api.get(&path).error(400, "Bad Request");
        assert!(msg.contains(param), "{path}: {msg}");
    }
    api.get(&format!("/v1/chains/777/addresses/{eoa}"))
        .error(404, "Not Found");
}

#[test]
fn a_chain_without_a_genesis_file_takes_its_genesis_from_the_p_chain_index() {
    // The devnet's P-Chain genesis creates the local C-Chain (the registry's 43112, by its
    // blockchain id) with avalanchego's local C-Chain genesis (`genesis/genesis_local.json`,
    // `cChainGenesis`): with no genesis in its source, the recording of 43112 takes its genesis
    // from that CreateChainTx's bytes when its block 0 is derived.
    let seed = 3;
    let up = common::upstream::start(seed, 0);
    let (devnet, _) = common::upstream::devnet(seed, 0);
    let genesis = devnet
        .p_genesis()
        .chains
        .into_iter()
        .find_map(|t| match t.tx.unsigned {
            UnsignedTx::CreateChainTx(c) if c.chain_name == "C-Chain" => Some((t.id, c)),
            _ => None,
        })
        .unwrap();
    let (blockchain_id, create) = genesis;
    let doc: Value = serde_json::from_slice(&create.genesis_data).unwrap();
    let alloc = doc["alloc"].as_object().unwrap();
    // The EWOQ key's address, funded with 0x295BE96E64066972000000 wei in that genesis.
    let ewoq = alloc
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"))
        .unwrap();
    assert_eq!(ewoq.1["balance"], "0x295BE96E64066972000000");
    let (_rt, urls) = common::replays(&[(C_CHAIN_ID, recording_path(C_CHAIN_ID))]);
    let dir = tempfile::tempdir().unwrap();
    let config = json!({"chains": [{"chainId": C_CHAIN_ID, "rpcUrl": urls[0].1}]});
    let path = dir.path().join("evm.json");
    std::fs::write(&path, config.to_string()).unwrap();
    let api = common::follow_with(
        &dir.path().join("data"),
        &up,
        seed,
        120,
        &["--evm-config", path.to_str().unwrap()],
    );
    let chain = api.get(&format!("/v1/chains/{C_CHAIN_ID}")).json();
    assert_eq!(chain["platformChainId"], blockchain_id.to_string());
    let native = |a: &str, n: u64| {
        api.get(&format!(
            "/v1/chains/{C_CHAIN_ID}/addresses/{a}/balances:getNative?blockNumber={n}"
        ))
    };
    for (k, v) in alloc {
        let want =
            U256::from_str_radix(v["balance"].as_str().unwrap().trim_start_matches("0x"), 16)
                .unwrap();
        let r = native(&format!("0x{}", k.trim_start_matches("0x")), 0);
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["nativeTokenBalance"]["balance"], want.to_string());
    }
    // The genesis is known, so an address it does not fund holds a confident zero.
    let r = native("0x0000000000000000000000000000000000C0FFEE", 0);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["nativeTokenBalance"]["balance"], "0");
}

#[test]
fn the_operators_reputation_list_rates_tokens_and_filter_spam_tokens_hides_the_malicious() {
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let (after, _) = model_balances(&m);
    let now = &after[m.tip() as usize];
    let erc20: BTreeSet<Address> = now
        .keys()
        .filter(|(_, s, ..)| *s == 20)
        .map(|(_, _, t, _)| *t)
        .collect();
    assert!(erc20.len() >= 2, "two ERC-20 tokens held");
    let (bad, good) = (*erc20.first().unwrap(), *erc20.last().unwrap());
    let rated = json!({checksum(&bad): "Malicious", format!("{good:#x}"): "Benign"});
    let api = serve_with(
        dir.path(),
        &urls,
        &[C_CHAIN_ID, L1_CHAIN_ID],
        json!({"tokenReputation": rated}),
    );
    let holders: BTreeSet<Address> = now
        .keys()
        .filter(|(_, s, t, _)| *s == 20 && (*t == bad || *t == good))
        .map(|(o, ..)| *o)
        .collect();
    assert!(!holders.is_empty());
    for h in &holders {
        let path = format!(
            "/v1/chains/{C_CHAIN_ID}/addresses/{}/balances:listErc20?pageSize=1",
            checksum(h)
        );
        let rating = |records: &[Value]| -> BTreeMap<String, Value> {
            records
                .iter()
                .map(|r| {
                    (
                        r["address"].as_str().unwrap().to_owned(),
                        r["tokenReputation"].clone(),
                    )
                })
                .collect()
        };
        let held = wanted(now, h, &[20]);
        let shown = rating(&all_pages(&api, &path, "erc20TokenBalances"));
        let all = rating(&all_pages(
            &api,
            &format!("{path}&filterSpamTokens=false"),
            "erc20TokenBalances",
        ));
        assert_eq!(all.len(), held.len());
        assert_eq!(
            shown.len(),
            held.len() - usize::from(all.contains_key(&checksum(&bad)))
        );
        assert!(!shown.contains_key(&checksum(&bad)), "{shown:?}");
        for (token, r) in &all {
            let want = if *token == checksum(&bad) {
                json!("Malicious")
            } else if *token == checksum(&good) {
                json!("Benign")
            } else {
                Value::Null
            };
            assert_eq!(r, &want, "{token}");
        }
    }
    // An address's history (v2) rates each ERC-20 transfer's token the same way, and
    // `filterSpamTokens` leaves out the transfers of the malicious one, and nothing else.
    let mut rated_transfers = 0;
    for h in &holders {
        let path = format!(
            "/v2/chains/{C_CHAIN_ID}/addresses/{}/transactions?pageSize=7",
            checksum(h)
        );
        let all = all_pages(&api, &path, "transactions");
        let kept = all_pages(
            &api,
            &format!("{path}&filterSpamTokens=true"),
            "transactions",
        );
        assert_eq!(all.len(), kept.len(), "every tx stays");
        for (a, k) in all.iter().zip(&kept) {
            assert_eq!(a["nativeTransaction"], k["nativeTransaction"]);
            let transfers = |tx: &Value| -> Vec<Value> {
                tx.get("erc20Transfers")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
            };
            let mut want = Vec::new();
            for t in transfers(a) {
                let token = t["erc20Token"]["address"].as_str().unwrap().to_owned();
                let rating = &t["erc20Token"]["tokenReputation"];
                if token == checksum(&bad) {
                    assert_eq!(rating, &json!("Malicious"));
                    rated_transfers += 1;
                    continue;
                }
                let expected = if token == checksum(&good) {
                    json!("Benign")
                } else {
                    Value::Null
                };
                assert_eq!(rating, &expected, "{token}");
                want.push(t);
            }
            assert_eq!(transfers(k), want);
        }
    }
    assert!(
        rated_transfers > 0,
        "the malicious token moved in some history"
    );
    // The list rates tokens of the chain it is given for only.
    let l1 = RecordingModel::load(&recording_path(L1_CHAIN_ID));
    let (l1_after, _) = model_balances(&l1);
    for (o, s, _, _) in l1_after[l1.tip() as usize].keys() {
        if *s != 20 {
            continue;
        }
        let page = all_pages(
            &api,
            &format!(
                "/v1/chains/{L1_CHAIN_ID}/addresses/{}/balances:listErc20",
                checksum(o)
            ),
            "erc20TokenBalances",
        );
        assert!(page.iter().all(|r| r["tokenReputation"].is_null()));
        assert_eq!(
            page.len(),
            wanted(&l1_after[l1.tip() as usize], o, &[20]).len()
        );
    }
}

#[test]
fn a_chain_indexed_from_a_later_block_says_its_token_balances_are_not_known() {
    // Balances are summed from the transfer logs: without the logs before the start block a
    // sum would be a made-up number, so the listings say why they cannot answer.
    let dir = tempfile::tempdir().unwrap();
    let (_rt, urls) = common::replays(&[
        (C_CHAIN_ID, recording_path(C_CHAIN_ID)),
        (L1_CHAIN_ID, recording_path(L1_CHAIN_ID)),
    ]);
    let api = serve_with(dir.path(), &urls, &[L1_CHAIN_ID], json!({"startBlock": 2}));
    let m = RecordingModel::load(&recording_path(C_CHAIN_ID));
    let (after, _) = model_balances(&m);
    let holder = checksum(&after[m.tip() as usize].keys().next().unwrap().0);
    for kind in ["listErc20", "listErc1155", "listCollectibles"] {
        let msg = api
            .get(&format!(
                "/v1/chains/{C_CHAIN_ID}/addresses/{holder}/balances:{kind}"
            ))
            .error(404, "Not Found");
        assert!(msg.contains("from block 2 on"), "{kind}: {msg}");
        // The L1, indexed from block 0, answers.
        let r = api.get(&format!(
            "/v1/chains/{L1_CHAIN_ID}/addresses/{holder}/balances:{kind}"
        ));
        assert_eq!(r.status, 200, "{}", r.body);
    }
}
