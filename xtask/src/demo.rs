//! `cargo xtask demo`: the main job on the bundled devnet. Builds everything (with the feature
//! set `cargo xtask test` uses, so RocksDB is built once: `builds.rs`), runs the store's smoke
//! check, then starts `node-rpc` on the devnet (127.0.0.1:9650), live: after the bundled history
//! it accepts new X and P blocks at [`LIVE_RATE`]; `data-api` following it (127.0.0.1:8080);
//! `metrics-api` over data-api's index (127.0.0.1:8081); the devnet's validators as
//! `warp-peers`, which `data-api` asks for Warp signatures; and, when anvil is installed
//! (`cargo xtask setup`), the EVM devnet: the local C-Chain (chain id 43112) on 127.0.0.1:9652
//! and an EVM L1 (99999) on 127.0.0.1:9653, each after the scenario ran on it, indexed by
//! `data-api`. Each service's URL is announced only once it answers a request over HTTP.
//! Ctrl-C stops all.
//!
//! The start-up is [`start`], which takes its addresses and data directory from a [`Setup`],
//! so a test runs the same code on free ports in a directory of its own.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::shell::status;

/// Containers per second the demo's devnet accepts after its history: a moving chain that is
/// easy to watch (about one X and one P block a second).
pub(crate) const LIVE_RATE: &str = "2";

/// The EVM devnet chains: name and chain id.
const EVM_CHAINS: [(&str, &str); 2] = [("C-Chain", "43112"), ("L1", "99999")];

/// Devnet nodes the demo's validator peers serve: the P-Chain devnet's genesis validators
/// (nodes 0-4) and every node its staking and L1 txs add after them, with room to spare.
const WARP_PEERS: usize = 48;

/// The blockchain id of the L1 99999: the devnet P-Chain's `CreateChainTx` for it (pinned by
/// `crates/evm-devnet/tests/icm.rs`), so `/v1/chains/{blockchainId}` and ICM messages name it.
const L1_BLOCKCHAIN_ID: &str = "mCAkA78CiH4yyVSzKi13uuzeWTDhDYGmbFvYbyheqvpewvuy3";

/// How long a service may take to start listening (node-rpc loads the devnet first; the EVM
/// devnet runs its scenario first), and then to answer.
pub(crate) const START_LIMIT: Duration = Duration::from_secs(600);

/// Where the demo's services listen and keep their data.
pub struct Setup {
    /// The directory of the built binaries.
    pub bin: PathBuf,
    /// Every service's data directory is under it.
    pub data_dir: PathBuf,
    /// `node-rpc`'s address (port 0: a free one).
    pub node_rpc: String,
    /// `data-api`'s address.
    pub data_api: String,
    /// `metrics-api`'s address.
    pub metrics_api: String,
    /// The EVM chains' ports, in [`EVM_CHAINS`] order (0: free ones).
    pub evm_ports: [u16; 2],
    /// anvil, to run the EVM devnet with; none: no EVM chains.
    pub anvil: Option<PathBuf>,
    /// Show the services' output (the demo); otherwise each one's stderr goes to
    /// `DATA_DIR/NAME.log` and its stdout is dropped.
    pub echo: bool,
}

impl Setup {
    /// The demo's fixed addresses, with data in `snowline-data/`.
    fn demo(bin: PathBuf, anvil: Option<PathBuf>) -> Self {
        Self {
            bin,
            data_dir: PathBuf::from("snowline-data"),
            node_rpc: "127.0.0.1:9650".into(),
            data_api: "127.0.0.1:8080".into(),
            metrics_api: "127.0.0.1:8081".into(),
            evm_ports: [9652, 9653],
            anvil,
            echo: true,
        }
    }

    pub(crate) fn dir(&self, sub: &str) -> String {
        self.data_dir.join(sub).display().to_string()
    }
}

/// A request that shows a service answers: what the announcement offers to try.
#[derive(Debug, Clone)]
pub struct Try {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path.
    pub path: String,
    /// A JSON-RPC body, for `POST`.
    pub body: Option<String>,
}

impl Try {
    pub(crate) fn get(path: &str) -> Self {
        Self {
            method: "GET",
            path: path.to_owned(),
            body: None,
        }
    }

    pub(crate) fn rpc(path: &str, method: &str, params: &str) -> Self {
        Self {
            method: "POST",
            path: path.to_owned(),
            body: Some(format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":{params}}}"#
            )),
        }
    }

    /// Sends it to `url` (`http://HOST:PORT`): the JSON answer of a 200, or why not. A JSON-RPC
    /// answer must hold a `result`.
    pub fn send(&self, url: &str) -> Result<Value, String> {
        let addr = url.strip_prefix("http://").unwrap_or(url);
        let (code, body) =
            crate::http::request(addr, self.method, &self.path, self.body.as_deref())?;
        if code != 200 {
            return Err(format!(
                "{} {}: HTTP {code}: {body}",
                self.method, self.path
            ));
        }
        let v: Value = serde_json::from_str(&body)
            .map_err(|e| format!("{} {}: not JSON ({e}): {body}", self.method, self.path))?;
        if self.body.is_some() && v.get("result").is_none_or(Value::is_null) {
            return Err(format!("{} {}: no result: {body}", self.method, self.path));
        }
        Ok(v)
    }

    /// The same request as a command line.
    pub(crate) fn curl(&self, url: &str) -> String {
        match &self.body {
            None => format!("curl -s '{url}{}'", self.path),
            Some(b) => format!(
                "curl -s -X POST -H 'content-type: application/json' -d '{b}' '{url}{}'",
                self.path
            ),
        }
    }
}

/// A service the demo announces, once it answered [`Announced::check`].
#[derive(Debug, Clone)]
pub struct Announced {
    /// Its name (`node-rpc`, `data-api`, `metrics-api`, `EVM C-Chain (43112)`, ...).
    pub name: String,
    /// Where it listens, `http://HOST:PORT`.
    pub url: String,
    /// The request it answered.
    pub check: Try,
}

/// A started child: stopped with SIGTERM (then killed) when dropped; an EVM devnet is stopped
/// by closing its stdin (`--exit-on-stdin-close`: a kill would leave its anvil running).
pub(crate) struct Service {
    pub(crate) name: String,
    pub(crate) child: Child,
    stdin: Option<ChildStdin>,
}

impl Drop for Service {
    fn drop(&mut self) {
        let term = self.stdin.take().is_none();
        crate::service::stop(&mut self.child, term, Duration::from_secs(10));
    }
}

/// The running demo: its services (stopped when it is dropped) and what it announced.
pub struct Demo {
    /// Every service with a URL, in start order, each of which answered.
    pub announced: Vec<Announced>,
    /// `data-api`, whose exit ends the demo.
    data_api: Option<Service>,
    /// The others, stopped after `data-api`, last started first.
    others: Vec<Service>,
}

impl Drop for Demo {
    fn drop(&mut self) {
        drop(self.data_api.take());
        while let Some(s) = self.others.pop() {
            drop(s);
        }
    }
}

/// Starts `cmd` as `name`; returns it and its stdout's lines (echoed as they come when
/// `setup.echo`; they keep flowing after the receiver is dropped).
pub(crate) fn spawn(
    setup: &Setup,
    name: &str,
    cmd: &mut Command,
    stdin_bound: bool,
) -> Result<(Service, Receiver<String>), String> {
    if setup.echo {
        eprintln!("xtask: $ {cmd:?}");
        cmd.stderr(Stdio::inherit());
    } else {
        let log = setup.data_dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        cmd.stderr(file);
    }
    if stdin_bound {
        cmd.stdin(Stdio::piped());
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {name}: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let stdin = child.stdin.take();
    let (tx, rx) = channel();
    let echo = setup.echo;
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if echo {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
            }
            let _ = tx.send(line);
        }
    });
    Ok((
        Service {
            name: name.to_owned(),
            child,
            stdin,
        },
        rx,
    ))
}

/// The first line of `lines` that `pick` takes something from, within [`START_LIMIT`].
pub(crate) fn wait_line(
    service: &mut Service,
    lines: &Receiver<String>,
    pick: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let deadline = Instant::now() + START_LIMIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left.min(Duration::from_millis(500))) {
            Ok(line) => {
                if let Some(found) = pick(&line) {
                    return Ok(found);
                }
            }
            Err(RecvTimeoutError::Timeout) if !left.is_zero() => {
                if let Ok(Some(exit)) = service.child.try_wait() {
                    return Err(format!("{} exited at start ({exit})", service.name));
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!("{} did not start in time", service.name));
            }
            Err(RecvTimeoutError::Disconnected) => {
                let exit = service.child.wait().map_err(|e| e.to_string())?;
                return Err(format!("{} exited at start ({exit})", service.name));
            }
        }
    }
}

/// The `http://HOST:PORT` a service prints in its "listening on http://..." line.
pub(crate) fn listening(line: &str) -> Option<String> {
    let rest = line.split("listening on http://").nth(1)?;
    Some(format!("http://{}", rest.split_whitespace().next()?))
}

/// Waits until `announced` answers its request (a service may take a while: metrics-api waits
/// for data-api's index to exist); says why when it does not.
pub(crate) fn answers(service: &mut Service, announced: &Announced) -> Result<(), String> {
    let deadline = Instant::now() + START_LIMIT;
    loop {
        match announced.check.send(&announced.url) {
            Ok(_) => return Ok(()),
            Err(why) if Instant::now() > deadline => {
                return Err(format!("{} does not answer: {why}", announced.name));
            }
            Err(_) => {
                if let Ok(Some(exit)) = service.child.try_wait() {
                    return Err(format!("{} exited ({exit})", service.name));
                }
                std::thread::sleep(Duration::from_millis(200));
            }
        }
    }
}

/// Starts every service of the demo as `setup` says and returns once each one with a URL
/// answers over HTTP.
pub fn start(setup: &Setup) -> Result<Demo, String> {
    std::fs::create_dir_all(&setup.data_dir)
        .map_err(|e| format!("{}: {e}", setup.data_dir.display()))?;
    let mut demo = Demo {
        announced: Vec::new(),
        data_api: None,
        others: Vec::new(),
    };
    let bin = &setup.bin;

    // The EVM devnet first: data-api's sources file names the chains' URLs.
    let mut evm_urls = Vec::new();
    if let Some(anvil) = &setup.anvil {
        for ((name, chain_id), port) in EVM_CHAINS.iter().zip(setup.evm_ports) {
            let label = format!("evm-devnet-{chain_id}");
            let (mut service, lines) = spawn(
                setup,
                &label,
                Command::new(bin.join("evm-devnet"))
                    .args(["run", "--exit-on-stdin-close", "--chain-id", chain_id])
                    .args(["--port", &port.to_string()])
                    .env("ANVIL_BIN", anvil),
                true,
            )?;
            let url = wait_line(&mut service, &lines, |l| {
                let rest = l.split(" on http://").nth(1)?;
                Some(format!("http://{}", rest.split_whitespace().next()?))
            })?;
            let announced = Announced {
                name: format!("EVM {name} ({chain_id}, anvil after the evm-devnet scenario)"),
                url: url.clone(),
                check: Try::rpc("/", "eth_blockNumber", "[]"),
            };
            answers(&mut service, &announced)?;
            demo.announced.push(announced);
            demo.others.push(service);
            evm_urls.push((*chain_id, *name, url));
        }
    }

    let (mut node, lines) = spawn(
        setup,
        "node-rpc",
        Command::new(bin.join("node-rpc")).args([
            "serve",
            "--source",
            "devnet",
            "--live-rate",
            LIVE_RATE,
            "--data-dir",
            &setup.dir("node-rpc"),
            "--listen",
            &setup.node_rpc,
            // The Data API's keys, checked when a call presents one; every call is metered
            // for data-api's RPC usage metrics (docs/jsonrpc.md, "API keys and metering").
            "--keys-from",
            &setup.dir("data-api/keys"),
        ]),
        false,
    )?;
    let node_url = wait_line(&mut node, &lines, listening)?;
    let announced = Announced {
        name: format!("node-rpc (the devnet, live at {LIVE_RATE} containers/s)"),
        url: node_url.clone(),
        check: Try::rpc(
            "/ext/index/X/block",
            "index.getLastAccepted",
            r#"{"encoding":"hex"}"#,
        ),
    };
    answers(&mut node, &announced)?;
    demo.announced.push(announced);
    demo.others.push(node);

    let (peers, peers_file) = start_warp_peers(setup)?;
    demo.others.push(peers);

    let sources = if evm_urls.is_empty() {
        None
    } else {
        Some(write_evm_sources(setup, &evm_urls)?)
    };
    let mut data_api = Command::new(bin.join("data-api"));
    data_api.args([
        "serve",
        "--data-dir",
        &setup.dir("data-api"),
        "--listen",
        &setup.data_api,
        "--upstream",
        &node_url,
        "--genesis",
        "devnet",
        "--warp-peers",
        &peers_file,
        "--rpc-usage-from",
        &setup.dir("node-rpc/rpc-usage"),
    ]);
    if let Some(sources) = &sources {
        data_api.args(["--evm-config", sources]);
    }
    let (mut api, lines) = spawn(setup, "data-api", &mut data_api, false)?;
    let api_url = wait_line(&mut api, &lines, listening)?;
    let announced = Announced {
        name: "data-api (following node-rpc; docs/data-api.md)".into(),
        url: api_url,
        check: Try::get("/v1/chains"),
    };
    answers(&mut api, &announced)?;
    demo.announced.push(announced);
    demo.data_api = Some(api);

    // metrics-api opens data-api's index as a secondary; it waits (503 on /readyz) until
    // data-api has created it.
    let mut metrics = Command::new(bin.join("metrics-api"));
    metrics.args([
        "serve",
        "--index-dir",
        &setup.dir("data-api"),
        "--data-dir",
        &setup.dir("metrics-api"),
        "--listen",
        &setup.metrics_api,
    ]);
    if let Some(sources) = &sources {
        metrics.args(["--evm-config", sources]);
    }
    let (mut service, lines) = spawn(setup, "metrics-api", &mut metrics, false)?;
    let url = wait_line(&mut service, &lines, listening)?;
    let announced = Announced {
        name: "metrics-api (over data-api's index; docs/metrics-api.md)".into(),
        url,
        check: Try::get("/v2/chains"),
    };
    answers(&mut service, &announced)?;
    demo.announced.push(announced);
    demo.others.push(service);
    Ok(demo)
}

/// Starts `warp-peers`: the devnet's validators answering Warp signature requests over the
/// Avalanche P2P protocol (`docs/p2p.md`), and writes where they listen for `data-api
/// --warp-peers`; returns the running peers and that file's path.
fn start_warp_peers(setup: &Setup) -> Result<(Service, String), String> {
    let (mut peers, lines) = spawn(
        setup,
        "warp-peers",
        Command::new(setup.bin.join("warp-peers")).args([
            "--seed",
            "1",
            "--count",
            &WARP_PEERS.to_string(),
        ]),
        false,
    )?;
    let mut found = Vec::with_capacity(WARP_PEERS);
    while found.len() < WARP_PEERS {
        found.push(wait_line(&mut peers, &lines, |l| {
            l.trim_start().starts_with('{').then(|| l.to_owned())
        })?);
    }
    let path = setup.data_dir.join("warp-peers.jsonl");
    std::fs::write(&path, found.join("\n") + "\n")
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!(
        "xtask: {WARP_PEERS} devnet validator peers answer Warp signature requests over P2P \
         (addresses in {}); data-api prints a POST to try",
        path.display()
    );
    Ok((peers, path.display().to_string()))
}

/// Writes the sources file that has `data-api` index the demo's EVM chains (the L1 described
/// there, the C-Chain being in the built-in registry); returns its path.
fn write_evm_sources(setup: &Setup, chains: &[(&str, &str, String)]) -> Result<String, String> {
    let chains: Vec<String> = chains
        .iter()
        .map(|(id, name, rpc)| {
            if *id == "43112" {
                format!(r#"{{"chainId": "{id}", "rpcUrl": "{rpc}"}}"#)
            } else {
                format!(
                    r#"{{"chainId": "{id}", "rpcUrl": "{rpc}", "network": "local",
  "chainName": "Snowline devnet {name}", "blockchainId": "{L1_BLOCKCHAIN_ID}",
  "networkToken": {{"name": "Snow", "symbol": "SNOW", "decimals": 18}}}}"#
                )
            }
        })
        .collect();
    let path = setup.data_dir.join("evm-sources.json");
    std::fs::write(
        &path,
        format!("{{\"chains\": [\n  {}\n]}}\n", chains.join(",\n  ")),
    )
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.display().to_string())
}

pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// Prints what answers where, with a request to try on each.
fn announce(demo: &Demo) {
    println!("\nxtask: the demo is up; every service below answered the request shown:");
    for a in &demo.announced {
        println!("  {}: {}\n    {}", a.name, a.url, a.check.curl(&a.url));
    }
    println!("xtask: Ctrl-C stops all (data in snowline-data/)");
}

/// Runs the demo until Ctrl-C (or until data-api stops).
pub fn run() -> Result<(), String> {
    status(Command::new("cargo").args(crate::builds::DEMO_BUILD))?;
    let bin = target_dir().join("debug");
    status(&mut Command::new(bin.join("examples/smoke")))?;
    let anvil = crate::evm::ensure()?;
    if anvil.is_none() {
        eprintln!("xtask: no anvil: the demo runs without EVM chains");
    }
    let mut demo = start(&Setup::demo(bin, anvil))?;
    announce(&demo);
    let exit = match demo.data_api.as_mut() {
        Some(api) => api.child.wait().map_err(|e| format!("data-api: {e}"))?,
        None => return Ok(()),
    };
    if exit.success() {
        Ok(())
    } else {
        Err(format!("data-api failed ({exit})"))
    }
}

/// The directory of the binaries next to this test binary (`target/debug`).
#[cfg(test)]
pub(crate) fn built_bins() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    exe.parent()
        .and_then(std::path::Path::parent)
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    /// The demo's own start-up, on free ports in a directory of its own: every service it
    /// announces answers, and so does each one's request when sent again from here.
    #[test]
    fn every_announced_service_answers() {
        let bin = built_bins();
        for b in [
            "node-rpc",
            "data-api",
            "metrics-api",
            "warp-peers",
            "evm-devnet",
        ] {
            assert!(
                bin.join(b).is_file(),
                "{} is not built: cargo build --workspace --bins",
                bin.join(b).display()
            );
        }
        let dir = std::env::temp_dir().join(format!("xtask-demo-{}", std::process::id()));
        let anvil = crate::evm::installed();
        let setup = Setup {
            bin,
            data_dir: dir.clone(),
            node_rpc: "127.0.0.1:0".into(),
            data_api: "127.0.0.1:0".into(),
            metrics_api: "127.0.0.1:0".into(),
            evm_ports: [0, 0],
            anvil: anvil.clone(),
            echo: false,
        };
        let demo = match start(&setup) {
            Ok(demo) => demo,
            Err(e) => {
                let logs: Vec<String> = std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter(|f| f.path().extension().is_some_and(|x| x == "log"))
                    .map(|f| {
                        let text = std::fs::read_to_string(f.path()).unwrap_or_default();
                        format!("{}:\n{text}", f.path().display())
                    })
                    .collect();
                panic!("{e}\n{}", logs.join("\n"));
            }
        };
        let mut names: Vec<&str> = demo
            .announced
            .iter()
            .map(|a| a.name.split(' ').next().unwrap())
            .collect();
        names.dedup();
        let mut expected = vec!["node-rpc", "data-api", "metrics-api"];
        if anvil.is_some() {
            expected.insert(0, "EVM");
        }
        assert_eq!(names, expected);
        let mut ports: Vec<&str> = demo.announced.iter().map(|a| a.url.as_str()).collect();
        ports.sort_unstable();
        ports.dedup();
        assert_eq!(ports.len(), demo.announced.len(), "one address each");
        for a in &demo.announced {
            let answer = a.check.send(&a.url);
            assert!(answer.is_ok(), "{}: {answer:?}", a.name);
        }
        drop(demo);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
