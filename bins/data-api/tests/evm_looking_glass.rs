//! The Looking Glass's composite query (`compositeQueryV2`, `compositeQueryV1`) and bridged-token
//! addresses (`getAddressesByBtcbBridged`) end to end: the real `data-api` indexing both recorded
//! devnet chains, moved to one block a UTC day, and serving the metrics API
//! (`--metrics-listen`). Every answer is compared with sets this test computes from the
//! recordings read as JSON: native balances from the recorded `eth_getBalance` answers (the
//! C-Chain's genesis file is written from those of block 0; the L1 gets none, so its native
//! sub-queries are a 404), token balances from the recorded transfer logs
//! (`snowline_evm_devnet::model`), block times from the recorded blocks. Each sub-query kind
//! alone, combined by AND and OR across kinds and chains, `subQueryCounts`, every page size of
//! the largest answers, the row cap and bad input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::looking_glass::{Balances, after_each_block, all_pages, checksum, serve};
use common::request;
use serde_json::{Value, json};
use snowline_evm_devnet::metrics_model::retime;
use snowline_evm_devnet::model::{LogTransfer, RecordingModel, q, u};
use snowline_evm_devnet::{C_CHAIN_ID, L1_CHAIN_ID, recording_path};
use snowline_types::evm::{Address, U256};

const DAY: u64 = 86_400;
/// Block 0's time: 2023-11-14 22:13:20 UTC; block n is n days later.
const START: u64 = 1_700_000_000;
/// 2023-11-14 00:00 UTC.
const DAY0: u64 = START / DAY * DAY;

/// `YYYY-MM-DD` of the day `off` days after 2023-11-14 (within November).
fn date(off: u64) -> String {
    assert!(off <= 16);
    format!("2023-11-{:02}", 13 + off)
}

/// Whose balance.
#[derive(Debug, Clone, Copy)]
enum Asset {
    Native,
    Erc20(Address),
    Nft(Address),
}

/// A sub-query's range as its DTO writes it: days (offsets of [`date`], so day 1 is block 0's)
/// or Unix seconds.
#[derive(Debug, Clone, Copy)]
enum Range {
    Days(u64, u64),
    Seconds(u64, u64),
}

impl Range {
    fn bounds(self) -> (u64, u64) {
        match self {
            // Day `off` starts at DAY0 + (off - 1) days.
            Range::Days(a, b) => (DAY0 + a * DAY - DAY, DAY0 + b * DAY - DAY + DAY - 1),
            Range::Seconds(a, b) => (a, b),
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum When {
    Latest,
    All(Range),
    Any(Range),
}

#[derive(Debug, Clone)]
struct Sub {
    chain: u64,
    asset: Asset,
    when: When,
    min: U256,
}

impl Sub {
    /// The `CompositeQueryRequestDto` sub-query, with `id`.
    fn dto(&self, id: &str) -> Value {
        let chain = self.chain.to_string();
        let (kind, mut params) = match (self.asset, self.when) {
            (Asset::Native, When::Latest) => (
                "LatestBalance",
                json!({"tokenType": "NATIVE", "minBalance": self.min.to_string()}),
            ),
            (Asset::Erc20(t), When::Latest) => (
                "LatestBalance",
                json!({"tokenType": "ERC20", "contractAddress": checksum(&t),
                       "minBalance": self.min.to_string()}),
            ),
            (Asset::Native, w) => (
                if matches!(w, When::All(_)) {
                    "AllTimeNativeBalance"
                } else {
                    "AnyTimeNativeBalance"
                },
                json!({"minBalance": self.min.to_string()}),
            ),
            (Asset::Erc20(t), w) => (
                if matches!(w, When::All(_)) {
                    "AllTimeErc20Balance"
                } else {
                    "AnyTimeErc20Balance"
                },
                json!({"minBalance": self.min.to_string(), "contractAddress": checksum(&t)}),
            ),
            (Asset::Nft(t), w) => (
                if matches!(w, When::All(_)) {
                    "AllTimeNftHolders"
                } else {
                    "AnyTimeNftHolders"
                },
                json!({"contractAddress": format!("{t:#x}")}),
            ),
        };
        params["evmChainId"] = json!(chain);
        if let When::All(r) | When::Any(r) = self.when {
            match r {
                Range::Days(a, b) => {
                    params["firstDate"] = json!(date(a));
                    params["lastDate"] = json!(date(b));
                }
                Range::Seconds(a, b) => {
                    params["startTs"] = json!(a);
                    params["endTs"] = json!(b);
                }
            }
        }
        json!({"id": id, "type": kind, "params": params})
    }
}

/// One recorded chain, read as JSON.
struct Chain {
    id: u64,
    times: Vec<u64>,
    tokens: Vec<Balances>,
    /// Native balance rows: the recorded `eth_getBalance` answers by address and block.
    native: BTreeMap<Address, BTreeMap<u64, U256>>,
    transfers: Vec<LogTransfer>,
}

impl Chain {
    fn load(path: &Path) -> Self {
        let m = RecordingModel::load(path);
        let transfers = m.transfers();
        let mut native: BTreeMap<Address, BTreeMap<u64, U256>> = BTreeMap::new();
        for l in m.lines.iter().filter(|l| l["method"] == "eth_getBalance") {
            let a: Address = l["params"][0].as_str().unwrap().parse().unwrap();
            native
                .entry(a)
                .or_default()
                .insert(q(&l["params"][1]), u(&l["result"]));
        }
        Self {
            id: m.chain_id(),
            times: m.blocks.iter().map(|b| q(&b.block["timestamp"])).collect(),
            tokens: after_each_block(&m, &transfers),
            native,
            transfers,
        }
    }

    fn tokens_of(&self, standard: impl Fn(u16) -> bool) -> BTreeSet<Address> {
        self.transfers
            .iter()
            .filter(|t| standard(t.standard))
            .map(|t| t.token)
            .collect()
    }

    /// The balance of `a` after block `n`; `None` before any row of it.
    fn value(&self, asset: Asset, a: &Address, n: usize) -> Option<U256> {
        match asset {
            Asset::Native => self
                .native
                .get(a)?
                .range(..=n as u64)
                .next_back()
                .map(|(_, v)| *v),
            Asset::Erc20(t) => self.tokens[n].get(&(*a, t, U256::ZERO)).copied(),
            Asset::Nft(t) => self.tokens[n]
                .iter()
                .filter(|((o, tok, _), _)| o == a && *tok == t)
                .map(|(_, v)| *v)
                .reduce(|x, y| x + y),
        }
    }

    fn candidates(&self, asset: Asset) -> BTreeSet<Address> {
        match asset {
            Asset::Native => self.native.keys().copied().collect(),
            Asset::Erc20(t) | Asset::Nft(t) => self
                .tokens
                .last()
                .unwrap()
                .keys()
                .filter(|(_, tok, _)| *tok == t)
                .map(|(o, _, _)| *o)
                .collect(),
        }
    }

    /// The addresses `s` chooses: the balance after the tip, or entering the first block timed
    /// within the range and after each block within it (at least one, or all).
    fn chosen(&self, s: &Sub) -> BTreeSet<Address> {
        let tip = self.times.len() - 1;
        let zero = U256::ZERO;
        let (range, any) = match s.when {
            When::Latest => {
                return self
                    .candidates(s.asset)
                    .into_iter()
                    .filter(|a| self.value(s.asset, a, tip).is_some_and(|v| v >= s.min))
                    .collect();
            }
            When::All(r) => (r.bounds(), false),
            When::Any(r) => (r.bounds(), true),
        };
        let inside: Vec<usize> = (0..=tip)
            .filter(|n| range.0 <= self.times[*n] && self.times[*n] <= range.1)
            .collect();
        let (Some(&first), Some(&last)) = (inside.first(), inside.last()) else {
            return BTreeSet::new();
        };
        self.candidates(s.asset)
            .into_iter()
            .filter(|a| {
                if self.value(s.asset, a, last).is_none() {
                    return false;
                }
                let entering = first
                    .checked_sub(1)
                    .and_then(|p| self.value(s.asset, a, p))
                    .unwrap_or(zero);
                let mut after = (first..=last).map(|n| self.value(s.asset, a, n).unwrap_or(zero));
                if any {
                    entering >= s.min || after.any(|v| v >= s.min)
                } else {
                    entering >= s.min && after.all(|v| v >= s.min)
                }
            })
            .collect()
    }

    /// The sub-queries tried on this chain.
    fn subs(&self, with_native: bool) -> Vec<Sub> {
        let days = [(0, 0), (1, 13), (0, 16), (4, 7), (6, 6), (14, 16), (3, 3)];
        let spans = |r: Vec<Range>| -> Vec<When> {
            r.into_iter()
                .flat_map(|r| [When::All(r), When::Any(r)])
                .collect()
        };
        let by_day = spans(days.iter().map(|(a, b)| Range::Days(*a, *b)).collect());
        let t = &self.times;
        let by_second = spans(vec![
            Range::Seconds(t[0], t[12]),
            Range::Seconds(t[2] + 1, t[7]),
            Range::Seconds(t[4], t[4]),
            Range::Seconds(t[12] + 1, t[12] + DAY),
        ]);
        let mut out = Vec::new();
        let mut add = |asset: Asset, whens: &[When], mins: &[U256]| {
            for when in whens {
                for min in mins {
                    out.push(Sub {
                        chain: self.id,
                        asset,
                        when: *when,
                        min: *min,
                    });
                }
            }
        };
        for t in self.tokens_of(|s| s == 20) {
            let amounts: BTreeSet<U256> = self
                .tokens
                .iter()
                .flat_map(|b| b.iter())
                .filter(|((_, tok, _), _)| *tok == t)
                .map(|(_, v)| *v)
                .collect();
            let median = amounts.iter().nth(amounts.len() / 2).copied().unwrap();
            let mins = [U256::ZERO, U256::from(1u8), median];
            add(Asset::Erc20(t), &[When::Latest], &mins);
            add(Asset::Erc20(t), &by_day, &mins);
        }
        for t in self.tokens_of(|s| s != 20) {
            add(Asset::Nft(t), &by_day, &[U256::from(1u8)]);
            add(Asset::Nft(t), &by_second, &[U256::from(1u8)]);
        }
        if with_native {
            let amounts: BTreeSet<U256> = self
                .native
                .values()
                .flat_map(|r| r.values().copied())
                .collect();
            let median = amounts.iter().nth(amounts.len() / 2).copied().unwrap();
            let mins = [U256::ZERO, U256::from(1u8), median, U256::MAX];
            add(Asset::Native, &[When::Latest], &mins);
            add(Asset::Native, &by_day, &mins);
        }
        out
    }
}

/// A composite query's answer: `(subQueryCounts, totalCount, addresses)` over every page.
type Answer = (BTreeMap<String, u64>, u64, Vec<String>);

/// POSTs `body` to `path`, following `nextPageToken` (sent with the same body); every page's
/// counts must agree.
fn composite(metrics: &str, path: &str, body: &Value) -> Answer {
    let mut body = body.clone();
    let mut addresses = Vec::new();
    let mut first: Option<(BTreeMap<String, u64>, u64)> = None;
    loop {
        let r = request(
            metrics,
            "POST",
            path,
            &[("content-type", "application/json")],
            &body.to_string(),
        );
        assert_eq!(r.status, 200, "{body}: {}", r.body);
        let v = r.json();
        let counts: BTreeMap<String, u64> =
            serde_json::from_value(v["subQueryCounts"].clone()).unwrap();
        let total = v["totalCount"].as_u64().unwrap();
        match &first {
            None => first = Some((counts, total)),
            Some(f) => assert_eq!(f, &(counts, total), "{body}"),
        }
        let page: Vec<String> = v["addresses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_owned())
            .collect();
        let size = body["pageSize"].as_u64().unwrap_or(1000) as usize;
        assert!(page.len() <= size, "{body}");
        addresses.extend(page);
        match v.get("nextPageToken").and_then(Value::as_str) {
            Some(t) => {
                assert!(!t.is_empty());
                body["pageToken"] = json!(t);
            }
            None => break,
        }
    }
    let (counts, total) = first.unwrap();
    (counts, total, addresses)
}

/// The answer the model gives for `subs` combined by `operator`.
fn expected(chains: &BTreeMap<u64, Chain>, subs: &[(String, Sub)], and: bool) -> Answer {
    let sets: Vec<BTreeSet<Address>> = subs
        .iter()
        .map(|(_, s)| chains[&s.chain].chosen(s))
        .collect();
    let counts = subs
        .iter()
        .zip(&sets)
        .map(|((id, _), s)| (id.clone(), s.len() as u64))
        .collect();
    let all: BTreeSet<Address> = if and {
        sets[0]
            .iter()
            .filter(|a| sets.iter().all(|s| s.contains(*a)))
            .copied()
            .collect()
    } else {
        sets.iter().flatten().copied().collect()
    };
    // By address bytes, as the service orders them.
    let combined: Vec<String> = all.iter().map(checksum).collect();
    (counts, combined.len() as u64, combined)
}

fn body(subs: &[(String, Sub)], and: bool, size: Option<u64>) -> Value {
    let mut b = json!({
        "queries": subs.iter().map(|(id, s)| s.dto(id)).collect::<Vec<_>>(),
        "operator": if and { "AND" } else { "OR" },
    });
    if let Some(n) = size {
        b["pageSize"] = json!(n);
    }
    b
}

/// Writes `chain`'s recording moved to one block a day into `dir`; its path.
fn one_block_a_day(dir: &Path, chain: u64) -> std::path::PathBuf {
    let raw = std::fs::read_to_string(recording_path(chain)).unwrap();
    let path = dir.join(format!("{chain}.jsonl"));
    std::fs::write(&path, retime(&raw, START, &[DAY])).unwrap();
    path
}

/// A genesis file funding the accounts of `chain`'s recorded `eth_getBalance` answers at
/// block 0, with those balances (coreth's form); its path.
fn genesis_of(dir: &Path, chain: &Chain) -> String {
    let alloc: serde_json::Map<String, Value> = chain
        .native
        .iter()
        .filter_map(|(a, rows)| rows.get(&0).map(|v| (a, v)))
        .map(|(a, v)| (format!("{a:x}"), json!({"balance": format!("{v:#x}")})))
        .collect();
    assert!(!alloc.is_empty());
    let path = dir.join("genesis.json");
    let doc = json!({"config": {"chainId": chain.id}, "alloc": alloc});
    std::fs::write(&path, doc.to_string()).unwrap();
    path.to_str().unwrap().to_owned()
}

/// Net bridged amounts of `token`: minted to each address less burnt from it, when not negative.
fn net_bridged(chain: &Chain, token: Address) -> BTreeMap<Address, U256> {
    let mut moved: BTreeMap<Address, (U256, U256)> = BTreeMap::new();
    for t in chain
        .transfers
        .iter()
        .filter(|t| t.token == token && t.standard == 20)
    {
        if t.from == t.to {
            continue;
        }
        if t.from == Address::ZERO {
            moved.entry(t.to).or_default().0 += t.value;
        } else if t.to == Address::ZERO {
            moved.entry(t.from).or_default().1 += t.value;
        }
    }
    moved
        .into_iter()
        .filter_map(|(a, (m, b))| m.checked_sub(b).map(|n| (a, n)))
        .collect()
}

#[test]
fn composite_queries_and_bridged_amounts_are_those_the_recordings_give() {
    let dir = tempfile::tempdir().unwrap();
    let ids = [C_CHAIN_ID, L1_CHAIN_ID];
    let paths = ids.map(|c| (c, one_block_a_day(dir.path(), c)));
    let chains: BTreeMap<u64, Chain> = paths.iter().map(|(c, p)| (*c, Chain::load(p))).collect();
    let (c, l1) = (&chains[&C_CHAIN_ID], &chains[&L1_CHAIN_ID]);
    assert!(c.times.windows(2).all(|w| w[1] == w[0] + DAY) && c.times[0] == START);
    let genesis = genesis_of(dir.path(), c);
    // The L1's bridged token: its ERC-20 minted the most.
    let bridged = l1
        .tokens_of(|s| s == 20)
        .into_iter()
        .max_by_key(|t| {
            l1.transfers
                .iter()
                .filter(|x| x.token == *t && x.from == Address::ZERO)
                .count()
        })
        .unwrap();
    // A cap on the rows one request reads that every query below stays under (the largest
    // reads a chain's native rows three times) and twenty native sub-queries pass.
    let native_rows: usize = c.native.values().map(BTreeMap::len).sum();
    let cap = (4 * native_rows).to_string();
    let flag = format!("{L1_CHAIN_ID}={}", checksum(&bridged));
    let (_rt, urls) = common::replays(&paths);
    let (_api, metrics) = serve(
        dir.path(),
        &urls,
        |config| config["chains"][0]["genesisFile"] = json!(genesis),
        &["--bridged-token", &flag, "--looking-glass-max-rows", &cap],
    );
    const V2: &str = "/v2/lookingGlass/compositeQuery";
    const V1: &str = "/v1/lookingGlass/compositeQuery";

    // Each sub-query alone, under both operators (one sub-query: the same set).
    let mut subs: Vec<Sub> = c.subs(true);
    subs.extend(l1.subs(false));
    let (mut nonempty, mut fewer) = (0, 0);
    for (i, s) in subs.iter().enumerate() {
        let one = vec![(format!("q{i}"), s.clone())];
        let want = expected(&chains, &one, true);
        let candidates = chains[&s.chain].candidates(s.asset).len() as u64;
        nonempty += usize::from(want.1 > 0);
        fewer += usize::from(want.1 > 0 && want.1 < candidates);
        for and in [true, false] {
            assert_eq!(
                composite(&metrics, V2, &body(&one, and, None)),
                want,
                "{s:?}"
            );
        }
    }
    assert!(
        nonempty > subs.len() / 3 && fewer > 10,
        "{nonempty} {fewer} of {}",
        subs.len()
    );

    // Combined: every third sub-query with two others, across kinds and chains, by AND and OR;
    // counts per id, the total, the addresses.
    let n = subs.len();
    let mut and_smaller = 0;
    for i in (0..n).step_by(3) {
        let group: Vec<(String, Sub)> = [i, (i * 7 + 5) % n, (i * 13 + 11) % n]
            .iter()
            .enumerate()
            .map(|(k, j)| (format!("{k}-{j}"), subs[*j].clone()))
            .collect();
        let all = expected(&chains, &group, true);
        let any = expected(&chains, &group, false);
        and_smaller += usize::from(all.1 < any.1);
        assert_eq!(
            composite(&metrics, V2, &body(&group, true, Some(3))),
            all,
            "{group:?}"
        );
        assert_eq!(
            composite(&metrics, V2, &body(&group, false, Some(1000))),
            any,
            "{group:?}"
        );
    }
    assert!(and_smaller > 5, "{and_smaller}");

    // Every page size of the largest answer, on v2 and the legacy v1 path alike.
    let widest = (0..n)
        .max_by_key(|i| expected(&chains, &[(String::new(), subs[*i].clone())], true).1)
        .unwrap();
    let pair = vec![
        ("wide".to_owned(), subs[widest].clone()),
        ("native".to_owned(), subs[0].clone()),
    ];
    let want = expected(&chains, &pair, false);
    assert!(want.1 >= 10, "{want:?}");
    for size in 1..=want.1 + 1 {
        assert_eq!(
            composite(&metrics, V2, &body(&pair, false, Some(size))),
            want,
            "{size}"
        );
    }
    for size in [1, 4, 10_000] {
        assert_eq!(
            composite(&metrics, V1, &body(&pair, false, Some(size))),
            want,
            "{size}"
        );
    }

    // The bridged token's net amounts: thresholds, pages of 1, 2 and 1000.
    let net = net_bridged(l1, bridged);
    let median = net.values().nth(net.len() / 2).copied().unwrap();
    for threshold in [U256::ZERO, U256::from(1u8), median, U256::MAX] {
        let mut want: Vec<(String, String)> = net
            .iter()
            .filter(|(_, v)| **v >= threshold)
            .map(|(a, v)| (checksum(a), v.to_string()))
            .collect();
        want.sort_by_key(|(a, _)| a.to_lowercase());
        for size in [1, 2, 1000] {
            let path = format!(
                "/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses?threshold={threshold}&pageSize={size}"
            );
            assert_eq!(all_pages(&metrics, &path).0, want, "{path}");
        }
    }

    // Bad input: a 400 (or 404) in the spec's shape, naming what is wrong.
    let native = |chain: u64| Sub {
        chain,
        asset: Asset::Native,
        when: When::Latest,
        min: U256::ZERO,
    };
    let token = l1.tokens_of(|s| s == 20).into_iter().next().unwrap();
    let good = body(&[("a".to_owned(), native(C_CHAIN_ID))], true, None);
    let with = |f: &dyn Fn(&mut Value)| {
        let mut b = good.clone();
        f(&mut b);
        b.to_string()
    };
    let twenty_one: Vec<Value> = (0..21)
        .map(|i| native(C_CHAIN_ID).dto(&format!("n{i}")))
        .collect();
    let twenty: Vec<Value> = (0..20)
        .map(|i| native(C_CHAIN_ID).dto(&format!("n{i}")))
        .collect();
    let other = composite(&metrics, V2, &body(&pair, false, Some(1)));
    assert!(other.1 > 1);
    let first_page = request(
        &metrics,
        "POST",
        V2,
        &[],
        &body(&pair, false, Some(1)).to_string(),
    )
    .json();
    let foreign = first_page["nextPageToken"].as_str().unwrap().to_owned();
    let cases: Vec<(String, u16, &str)> = vec![
        ("{".into(), 400, "Invalid JSON"),
        ("[]".into(), 400, "CompositeQueryRequestDto"),
        (
            with(&|b| {
                b.as_object_mut().unwrap().remove("operator");
            }),
            400,
            "operator",
        ),
        (with(&|b| b["operator"] = json!("XOR")), 400, "operator"),
        (with(&|b| b["queries"] = json!([])), 400, "queries"),
        (with(&|b| b["queries"] = json!(twenty_one)), 400, "queries"),
        (with(&|b| b["queries"] = json!(twenty)), 400, "index rows"),
        (
            with(&|b| {
                b["queries"][0].as_object_mut().unwrap().remove("id");
            }),
            400,
            "queries[0].id",
        ),
        (
            with(&|b| {
                let q0 = b["queries"][0].clone();
                b["queries"].as_array_mut().unwrap().push(q0);
            }),
            400,
            "queries[1].id",
        ),
        (
            with(&|b| b["queries"][0]["type"] = json!("Balance")),
            400,
            "queries[0].type",
        ),
        (
            with(&|b| b["queries"][0]["type"] = json!("LatestBalanceStarsArena")),
            400,
            "Stars Arena",
        ),
        (
            with(&|b| b["queries"][0]["params"]["minBalance"] = json!("-1")),
            400,
            "minBalance",
        ),
        (
            with(&|b| b["queries"][0]["params"]["minBalance"] = json!("1.5")),
            400,
            "minBalance",
        ),
        (
            with(&|b| b["queries"][0]["params"]["minBalance"] = json!(1)),
            400,
            "minBalance",
        ),
        (
            with(&|b| b["queries"][0]["params"]["tokenType"] = json!("ERC721")),
            400,
            "tokenType",
        ),
        (
            with(&|b| b["queries"][0]["params"]["tokenType"] = json!("ERC20")),
            400,
            "contractAddress",
        ),
        (
            with(&|b| {
                b["queries"][0]["params"]["tokenType"] = json!("ERC20");
                b["queries"][0]["params"]["contractAddress"] = json!("0x12");
            }),
            400,
            "contractAddress",
        ),
        (
            with(&|b| b["queries"][0]["params"]["evmChainId"] = json!("1")),
            404,
            "evmChainId",
        ),
        (
            with(&|b| b["queries"][0]["params"]["evmChainId"] = json!(43112)),
            400,
            "evmChainId",
        ),
        (
            with(&|b| b["queries"][0]["params"]["evmChainId"] = json!(L1_CHAIN_ID.to_string())),
            404,
            "genesis",
        ),
        (with(&|b| b["pageSize"] = json!(0)), 400, "pageSize"),
        (with(&|b| b["pageSize"] = json!(10_001)), 400, "pageSize"),
        (with(&|b| b["pageSize"] = json!("5")), 400, "pageSize"),
        (
            with(&|b| b["pageToken"] = json!("nonsense")),
            400,
            "pageToken",
        ),
        (
            with(&|b| b["pageToken"] = json!(foreign.clone())),
            400,
            "pageToken",
        ),
    ];
    let dated = |first: &str, last: &str| {
        let s = Sub {
            chain: C_CHAIN_ID,
            asset: Asset::Erc20(token),
            when: When::Any(Range::Days(1, 2)),
            min: U256::ZERO,
        };
        let mut q = s.dto("d");
        q["params"]["firstDate"] = json!(first);
        q["params"]["lastDate"] = json!(last);
        json!({"queries": [q], "operator": "OR"}).to_string()
    };
    let mut cases = cases;
    cases.push((dated("2023-13-01", "2023-11-20"), 400, "firstDate"));
    cases.push((dated("2023-11-14", "14/11/2023"), 400, "lastDate"));
    cases.push((dated("2023-11-20", "2023-11-14"), 400, "firstDate"));
    for (b, status, needle) in &cases {
        for path in [V2, V1] {
            let r = request(&metrics, "POST", path, &[], b);
            assert_eq!(r.status, *status, "{b}: {}", r.body);
            let v = r.json();
            let message = v["message"][0].as_str().unwrap_or_default();
            assert!(message.contains(needle), "{b}: {}", r.body);
            assert_eq!(v["statusCode"], *status, "{}", r.body);
        }
    }
    // The bridged route: BTC.b's chain is not indexed here, the C-Chain has no bridged token,
    // and the threshold is required.
    for (path, status, needle) in [
        (
            "/v2/chains/43114/btcb/bridged:getAddresses?threshold=1".to_owned(),
            404,
            "43114",
        ),
        (
            format!("/v2/chains/{C_CHAIN_ID}/btcb/bridged:getAddresses?threshold=1"),
            404,
            "bridged token",
        ),
        (
            format!("/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses"),
            400,
            "threshold",
        ),
        (
            format!("/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses?threshold=-1"),
            400,
            "threshold",
        ),
        (
            format!("/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses?threshold=1&pageSize=5001"),
            400,
            "pageSize",
        ),
        (
            format!(
                "/v2/chains/{L1_CHAIN_ID}/btcb/bridged:getAddresses?threshold=1&pageToken={foreign}"
            ),
            400,
            "pageToken",
        ),
    ] {
        let r = request(&metrics, "GET", &path, &[], "");
        assert_eq!(r.status, status, "{path}: {}", r.body);
        assert!(r.body.contains(needle), "{path}: {}", r.body);
    }
}
