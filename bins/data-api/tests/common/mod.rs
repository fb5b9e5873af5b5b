//! Starting the real `data-api` binary on port 0 and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

use serde_json::Value;
// Each test binary uses some of these; a re-export unused by one is not dead code.
#[allow(unused_imports)]
pub use snowline_test_support::http::{Response, exchange, request};
use snowline_test_support::service::{Service, poll_until};

pub mod cmodel;
pub mod fleet;
pub mod looking_glass;
pub mod nats_client;
pub mod pmodel;
pub mod receiver;
pub mod upstream;

/// A running `data-api serve`, killed on drop.
pub struct DataApi(Service);

impl std::ops::Deref for DataApi {
    type Target = Service;

    fn deref(&self) -> &Service {
        &self.0
    }
}

impl std::ops::DerefMut for DataApi {
    fn deref_mut(&mut self) -> &mut Service {
        &mut self.0
    }
}

impl DataApi {
    /// Polls `f` until it returns true, for at most `secs` seconds.
    pub fn wait_until(&self, secs: u64, mut f: impl FnMut(&Self) -> bool) -> bool {
        poll_until(secs, || f(self))
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.0.running()
    }

    /// Stops the server as an operator does (SIGTERM), and waits for it to exit: what it
    /// indexed is on disk then, the writes of a catch-up round without the WAL included.
    pub fn terminate(self) -> std::process::ExitStatus {
        self.0.terminate()
    }
}

/// Runs `data-api ARGS` to completion and returns (success, stdout, stderr).
pub fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(args)
        .output()
        .expect("run data-api");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `data-api keys --data-dir DIR create ...`: returns (key id, secret).
pub fn create_key(dir: &Path, name: &str, org: &str, tier: &str) -> (String, String) {
    let d = dir.to_str().unwrap();
    let (ok, out, err) = run(&[
        "keys",
        "--data-dir",
        d,
        "create",
        "--name",
        name,
        "--org",
        org,
        "--tier",
        tier,
    ]);
    assert!(ok, "keys create failed: {err}");
    let secret = out
        .split_whitespace()
        .find(|w| w.starts_with("snl_"))
        .expect("secret printed")
        .to_owned();
    let id = out
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    (id, secret)
}

/// `data-api` following `up` with the devnet of `seed`'s genesis, in pages of 16 containers (so
/// most batches are derived while the previous one is written, and P-Chain proposals and their
/// options fall in different batches); waits up to `ready_secs` until it has caught up.
pub fn follow(dir: &Path, up: &upstream::Upstream, seed: u64, ready_secs: u64) -> DataApi {
    follow_with(dir, up, seed, ready_secs, &[])
}

/// [`follow`] with `extra` flags.
pub fn follow_with(
    dir: &Path,
    up: &upstream::Upstream,
    seed: u64,
    ready_secs: u64,
    extra: &[&str],
) -> DataApi {
    let seed = seed.to_string();
    let mut args = vec![
        "--upstream",
        &up.url,
        "--genesis",
        "devnet",
        "--devnet-seed",
        &seed,
        "--follow-batch",
        "16",
        "--no-rate-limits",
    ];
    args.extend_from_slice(extra);
    let api = start(dir, &args);
    assert!(
        api.wait_until(ready_secs, |a| a.get("/readyz").status == 200),
        "never ready: {}",
        api.get("/readyz").body
    );
    api
}

/// Starts `data-api serve --data-dir DIR ARGS --listen 127.0.0.1:0`; waits for "listening on".
pub fn start(dir: &Path, args: &[&str]) -> DataApi {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_data-api"));
    cmd.args(["serve", "--data-dir", dir.to_str().unwrap()])
        .args(args)
        .args(["--listen", "127.0.0.1:0"]);
    DataApi(Service::start(cmd))
}

/// `CHAIN-local1…` (CHAIN: `X`, `P` or `C`) of an address on the local network.
pub fn local_addr(chain: &str, a: &snowline_types::ShortId) -> String {
    snowline_types::address::format_address(
        chain,
        snowline_types::network::NetworkInfo::LOCAL.hrp,
        a,
    )
    .unwrap()
}

/// [`local_addr`] of each address.
pub fn local_addrs(chain: &str, addrs: &[snowline_types::ShortId]) -> Vec<String> {
    addrs.iter().map(|a| local_addr(chain, a)).collect()
}

/// Now, Unix seconds.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Everything the X- and P-Chain endpoints show for the devnet's addresses, the nodes their
/// rewards name, the L1 validators and the vertices.
pub fn view(api: &DataApi, addrs: &[snowline_types::ShortId]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let get = |out: &mut Vec<(String, Value)>, q: String| {
        let r = api.get(&q);
        assert_eq!(r.status, 200, "{q}: {}", r.body);
        let mut v = r.json();
        // Tokens are authenticated per data directory: compare positions, not tokens.
        v.as_object_mut().unwrap().remove("nextPageToken");
        out.push((q, v));
    };
    let hrp = snowline_types::network::NetworkInfo::LOCAL.hrp;
    let mut nodes = std::collections::BTreeSet::new();
    for a in addrs {
        let x = snowline_types::address::format_address("X", hrp, a).unwrap();
        let p = snowline_types::address::format_address("P", hrp, a).unwrap();
        for q in [
            format!(
                "/v1/networks/local/blockchains/x-chain/utxos?addresses={x}&includeSpent=true&pageSize=100&sortOrder=asc"
            ),
            format!(
                "/v1/networks/local/blockchains/x-chain/balances?addresses={x}&blockTimestamp=1900000000"
            ),
            format!(
                "/v1/networks/local/blockchains/p-chain/utxos?addresses={p}&includeSpent=true&pageSize=100&sortOrder=asc"
            ),
            format!(
                "/v1/networks/local/blockchains/p-chain/balances?addresses={p}&blockTimestamp=1900000000"
            ),
        ] {
            get(&mut out, q);
        }
        for (q, member) in [
            (
                format!("/v1/networks/local/rewards?addresses={p}&pageSize=100"),
                "historicalRewards",
            ),
            (
                format!("/v1/networks/local/rewards:listPending?addresses={p}&pageSize=100"),
                "pendingRewards",
            ),
        ] {
            get(&mut out, q);
            if let Some((_, v)) = out.last() {
                for r in v[member].as_array().into_iter().flatten() {
                    nodes.insert(r["nodeId"].as_str().unwrap_or_default().to_owned());
                }
            }
        }
    }
    for n in &nodes {
        get(
            &mut out,
            format!("/v1/networks/local/blockchains/p-chain/nodes/{n}/blocks?pageSize=100"),
        );
    }
    get(
        &mut out,
        "/v1/networks/local/l1Validators?includeInactiveL1Validators=true&pageSize=100".into(),
    );
    for h in 0..40 {
        get(
            &mut out,
            format!(
                "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight={h}&pageSize=100"
            ),
        );
    }
    out
}

/// Checks that `first` (a listing's first page, with a `nextPageToken`) refuses every altered
/// page token in the spec's 400 shape naming `pageToken`, never a page and never a 500: each
/// character replaced by another of the alphabet, each byte of the decoded token flipped (low and
/// high bit), the token truncated and extended, forged ones (random bytes; the real token's body
/// with a random tag) and `foreign`, a real token of another query. The real token still works.
pub fn assert_tokens_authenticated(api: &DataApi, first: &str, foreign: &str) {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
    let page = api.get(first);
    assert_eq!(page.status, 200, "{first}: {}", page.body);
    let token = page.json()["nextPageToken"]
        .as_str()
        .unwrap_or_else(|| panic!("{first} has a next page"))
        .to_owned();
    let sep = if first.contains('?') { '&' } else { '?' };
    let with = |t: &str| format!("{first}{sep}pageToken={t}");
    assert_eq!(api.get(&with(&token)).status, 200, "the real token");
    let mut bad: Vec<(String, String)> = Vec::new();
    for (i, c) in token.char_indices() {
        let other = if c == 'A' { 'B' } else { 'A' };
        let mut t = token.clone();
        t.replace_range(i..i + 1, &other.to_string());
        bad.push((format!("char {i} {c}->{other}"), t));
    }
    let raw = B64.decode(&token).expect("a token is URL-safe base64");
    for i in 0..raw.len() {
        for bit in [0x01u8, 0x80] {
            let mut r = raw.clone();
            r[i] ^= bit;
            bad.push((format!("byte {i} ^ {bit:#04x}"), B64.encode(&r)));
        }
    }
    for cut in [1, 2, 3, token.len() / 2, token.len() - 4] {
        bad.push((format!("cut {cut}"), token[..token.len() - cut].to_owned()));
    }
    bad.push(("extended".into(), format!("{token}AAAA")));
    let mut seed = raw.len() as u64 ^ 0x9e37_79b9_7f4a_7c15;
    let mut random = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u8
            })
            .collect()
    };
    bad.push(("random bytes".into(), B64.encode(random(raw.len()))));
    let mut forged = raw[..raw.len() - 16].to_vec();
    forged.extend(random(16));
    bad.push(("real body, random tag".into(), B64.encode(&forged)));
    let other = api.get(foreign);
    assert_eq!(other.status, 200, "{foreign}: {}", other.body);
    let other = other.json()["nextPageToken"]
        .as_str()
        .unwrap_or_else(|| panic!("{foreign} has a next page"))
        .to_owned();
    assert_ne!(other, token);
    bad.push(("another query's token".into(), other));
    for (what, t) in &bad {
        let r = api.get(&with(t));
        assert_eq!(r.status, 400, "{what}: {t}: {}", r.body);
        let m = r.error(400, "Bad Request");
        assert!(m.contains("pageToken"), "{what}: {m}");
    }
}

/// Replay servers of the recordings of `chains` (each a chain id and its recording's path), on
/// a runtime of their own; each chain id with its server's URL.
pub fn replays(
    chains: &[(u64, std::path::PathBuf)],
) -> (tokio::runtime::Runtime, Vec<(u64, String)>) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let urls = chains
        .iter()
        .map(|(chain, path)| {
            let listener = rt
                .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
                .unwrap();
            let url = format!("http://{}", listener.local_addr().unwrap());
            let recording =
                std::sync::Arc::new(snowline_evm_devnet::Recording::load(path).unwrap());
            rt.spawn(snowline_evm_devnet::serve(listener, recording));
            (*chain, url)
        })
        .collect();
    (rt, urls)
}

/// Every page of `path`, following `nextPageToken` (appended with `?` or `&`): each page's
/// body, every one answered 200.
pub fn page_bodies(api: &DataApi, path: &str) -> Vec<Value> {
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut bodies = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let p = match &token {
            Some(t) => format!("{path}{sep}pageToken={t}"),
            None => path.to_owned(),
        };
        let r = api.get(&p);
        assert_eq!(r.status, 200, "{p}: {}", r.body);
        let v = r.json();
        token = v
            .get("nextPageToken")
            .and_then(Value::as_str)
            .map(str::to_owned);
        bodies.push(v);
        if token.is_none() {
            return bodies;
        }
        assert!(bodies.len() < 100_000, "{path}: paging does not end");
    }
}

/// The items under `key` of every page of `path`, in order, and the size of each page.
pub fn paged(api: &DataApi, path: &str, key: &str) -> (Vec<Value>, Vec<usize>) {
    let mut items = Vec::new();
    let mut sizes = Vec::new();
    for page in page_bodies(api, path) {
        let list = page[key]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no {key}: {page}"));
        sizes.push(list.len());
        items.extend(list.iter().cloned());
    }
    (items, sizes)
}

/// The items under `key` of every page of `path`, in order.
pub fn all_pages(api: &DataApi, path: &str, key: &str) -> Vec<Value> {
    paged(api, path, key).0
}

/// Asserts that pages of `sizes` asked with `pageSize=size` are all full but the last.
pub fn assert_full_pages(path: &str, sizes: &[usize], size: usize) {
    let (last, full) = sizes.split_last().expect("at least one page");
    assert!(full.iter().all(|n| *n == size), "{path}: {sizes:?}");
    assert!(*last <= size, "{path}: {sizes:?}");
}

/// Whether a JSON value holds a `null` anywhere (the spec's records omit absent members).
pub fn has_null(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Array(a) => a.iter().any(has_null),
        Value::Object(o) => o.values().any(has_null),
        _ => false,
    }
}

/// `data-api digest` of `dir`: each table's line, the usage log (it records the test's own
/// requests) and the polled validator uptimes (timed observations) left out.
/// Where two stopped indexes differ, for a failure message: for each table whose digest line
/// differs, its entry counts and up to five keys (hex) whose entries are not in the other.
pub fn digest_difference(a: &Path, b: &Path) -> String {
    let (da, db) = (digest(a), digest(b));
    let mut out = String::new();
    for line in da.iter().filter(|l| !db.contains(l)) {
        let table = line.split(' ').next().unwrap_or_default();
        let (ea, eb) = (table_entries(a, table), table_entries(b, table));
        let only = |x: &[String], y: &[String]| -> Vec<String> {
            let y: std::collections::HashSet<&String> = y.iter().collect();
            x.iter()
                .filter(|e| !y.contains(e))
                .take(5)
                .cloned()
                .collect()
        };
        out += &format!(
            "\n{table}: {} vs {} entries; only in the first: {:?}; only in the second: {:?}",
            ea.len(),
            eb.len(),
            only(&ea, &eb),
            only(&eb, &ea)
        );
    }
    out
}

/// Every entry of `table` in the stopped index in `dir`, as `key value` hex lines.
pub fn table_entries(dir: &Path, table: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args([
            "digest",
            "--data-dir",
            dir.to_str().unwrap(),
            "--table",
            table,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

pub fn digest(dir: &Path) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(["digest", "--data-dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        // Usage and the followed node's uptimes are observations, not derived from the chain.
        .filter(|l| !l.starts_with("access_usage") && !l.starts_with("ph_uptimes"))
        .map(str::to_owned)
        .collect()
}
