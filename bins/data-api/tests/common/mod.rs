//! Starting the real `data-api` binary on port 0 and talking HTTP to it.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub mod cmodel;
pub mod pmodel;
pub mod receiver;
pub mod upstream;

/// A running `data-api serve`, killed on drop.
pub struct DataApi {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// What it has written on stderr so far, a line each.
    stderr: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    /// What it has written on stdout after its "listening on" line, a line each.
    stdout: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl DataApi {
    /// The first line on stdout after the "listening on" line that contains `needle`, waiting
    /// up to 30 s for it.
    pub fn stdout_line(&self, needle: &str) -> Option<String> {
        for _ in 0..300 {
            if let Some(l) = self
                .stdout
                .lock()
                .unwrap()
                .iter()
                .find(|l| l.contains(needle))
            {
                return Some(l.clone());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        None
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for DataApi {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_data-api"))
        .args(["serve", "--data-dir", dir.to_str().unwrap()])
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn data-api");
    let stderr = child.stderr.take().expect("stderr");
    let said = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    // Drain stderr for the whole life of the child, so it never blocks on a full pipe.
    let kept = std::sync::Arc::clone(&said);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let addr = loop {
        let Some(line) = lines.next() else {
            let _ = child.wait();
            // The drain thread ends with the child's stderr; give it a moment to store the rest.
            std::thread::sleep(Duration::from_millis(100));
            panic!(
                "data-api {args:?} exited before listening; stderr:\n{}",
                said.lock().unwrap().join("\n")
            );
        };
        let line = line.expect("read stdout");
        if let Some(rest) = line.split("listening on http://").nth(1) {
            break rest.split_whitespace().next().expect("address").to_owned();
        }
    };
    let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept_out = std::sync::Arc::clone(&out);
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept_out.lock().unwrap().push(line);
        }
    });
    DataApi {
        child,
        addr,
        stderr: said,
        stdout: out,
    }
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

/// One HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.body))
    }

    /// A header's value (names compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts the spec's error body for `status` and returns its message.
    pub fn error(&self, status: u16, reason: &str) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        let v = self.json();
        assert_eq!(v["statusCode"], status, "{v}");
        assert_eq!(v["error"], reason, "{v}");
        assert_eq!(v.as_object().unwrap().len(), 3, "{v}");
        v["message"].as_str().expect("message string").to_owned()
    }
}

impl DataApi {
    /// `GET path` with extra headers.
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        request(&self.addr, "GET", path, headers, "")
    }

    /// `GET path`.
    pub fn get(&self, path: &str) -> Response {
        self.get_with(path, &[])
    }

    /// The first line written on stderr so far that contains `needle`.
    pub fn stderr_line(&self, needle: &str) -> Option<String> {
        self.stderr_lines(needle).into_iter().next()
    }

    /// Every line written on stderr so far that contains `needle`.
    pub fn stderr_lines(&self, needle: &str) -> Vec<String> {
        let lines = self.stderr.lock().unwrap();
        lines
            .iter()
            .filter(|l| l.contains(needle))
            .cloned()
            .collect()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Polls `f` until it returns true, for at most `secs` seconds.
    pub fn wait_until(&self, secs: u64, mut f: impl FnMut(&Self) -> bool) -> bool {
        let end = Instant::now() + Duration::from_secs(secs);
        while Instant::now() < end {
            if f(self) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        false
    }
}

/// A minimal HTTP/1.1 request with `Connection: close`.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        req.push_str(&format!("{n}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    req.push_str("\r\n");
    req.push_str(body);
    exchange(addr, req.as_bytes())
}

/// Sends `bytes` on a new connection and reads the answer to its end (the server closes). A
/// write cut short is not a failure: the server may answer and close before reading it all.
pub fn exchange(addr: &str, bytes: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let _ = s.write_all(bytes);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    Response {
        status,
        headers,
        body: body.to_owned(),
    }
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

/// Every record under `key` of a listing, following `nextPageToken` (`&` or `?` joins it to
/// the path's query).
pub fn all_pages(api: &DataApi, path: &str, key: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let sep = if path.contains('?') { '&' } else { '?' };
    let mut token: Option<String> = None;
    loop {
        let p = match &token {
            Some(t) => format!("{path}{sep}pageToken={t}"),
            None => path.to_owned(),
        };
        let r = api.get(&p);
        assert_eq!(r.status, 200, "{p}: {}", r.body);
        let v = r.json();
        out.extend(v[key].as_array().unwrap().iter().cloned());
        match v.get("nextPageToken").and_then(Value::as_str) {
            Some(t) => token = Some(t.to_owned()),
            None => return out,
        }
    }
}

/// `data-api digest` of `dir`: each table's line, the usage log (it records the test's own
/// requests) and the polled validator uptimes (timed observations) left out.
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
