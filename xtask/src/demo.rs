//! `cargo xtask demo`: the main job on the bundled devnet. Builds everything, checks the store
//! end to end, then starts `node-rpc` on the devnet (127.0.0.1:9650), live: after the bundled
//! history it accepts new X and P blocks at [`LIVE_RATE`], and `data-api` following it
//! (127.0.0.1:8080); both print where they listen and example calls. Beside them, when anvil
//! is installed (`cargo xtask setup`), the EVM devnet: the local C-Chain (chain id 43112) on
//! 127.0.0.1:9652 and an EVM L1 (99999) on 127.0.0.1:9653, each after the scenario ran on it,
//! and `metrics-api` (127.0.0.1:8081) serving their metrics from data-api's index; and the
//! devnet's validators as `warp-peers`, which `data-api` asks for Warp signatures. Ctrl-C stops
//! all.

use std::path::PathBuf;
use std::process::{Child, Command};

use crate::run::status;

/// Containers per second the demo's devnet accepts after its history: a moving chain that is
/// easy to watch (about one X and one P block a second).
const LIVE_RATE: &str = "2";

/// The EVM devnet chains: chain id and port.
const EVM_CHAINS: [(&str, &str, &str); 2] = [("C-Chain", "43112", "9652"), ("L1", "99999", "9653")];

/// Closes the child's stdin when dropped and waits: `evm-devnet run --exit-on-stdin-close`
/// then stops its anvil and exits (a kill would leave anvil running). The pipe also closes
/// when xtask dies any other way.
struct StdinBound(Child);

impl Drop for StdinBound {
    fn drop(&mut self) {
        drop(self.0.stdin.take());
        let _ = self.0.wait();
    }
}

/// Kills the child when dropped (the demo's `node-rpc` and `metrics-api`, once `data-api` has
/// stopped).
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// Runs the demo until Ctrl-C.
pub fn run() -> Result<(), String> {
    status(Command::new("cargo").args(["build", "--workspace"]))?;
    status(Command::new("cargo").args([
        "run",
        "--quiet",
        "-p",
        "snowline-store",
        "--example",
        "smoke",
    ]))?;
    let bin = target_dir().join("debug");
    let evm = start_evm(&bin)?;
    eprintln!(
        "xtask: starting node-rpc on the devnet, live at {LIVE_RATE} new containers/s, and data-api \
         following it (data in snowline-data/); Ctrl-C stops both"
    );
    let node = Command::new(bin.join("node-rpc"))
        .args([
            "serve",
            "--source",
            "devnet",
            "--live-rate",
            LIVE_RATE,
            "--data-dir",
            "snowline-data/node-rpc",
        ])
        .spawn()
        .map_err(|e| format!("cannot start node-rpc: {e}"))?;
    let _node = Reaped(node);
    let (_peers, peers_file) = start_warp_peers(&bin)?;
    let mut data_api = Command::new(bin.join("data-api"));
    data_api.args([
        "serve",
        "--data-dir",
        "snowline-data/data-api",
        "--upstream",
        "http://127.0.0.1:9650",
        "--genesis",
        "devnet",
        "--warp-peers",
        &peers_file,
    ]);
    let sources = if evm.is_empty() {
        None
    } else {
        Some(write_evm_sources()?)
    };
    if let Some(sources) = &sources {
        data_api.args(["--evm-config", sources]);
    }
    eprintln!("xtask: $ {data_api:?}");
    let mut data_api = data_api
        .spawn()
        .map_err(|e| format!("cannot start data-api: {e}"))?;
    let _metrics = sources
        .as_deref()
        .map(|sources| start_metrics(&bin, sources))
        .transpose()?
        .flatten();
    let exit = data_api.wait().map_err(|e| format!("data-api: {e}"))?;
    if exit.success() {
        Ok(())
    } else {
        Err(format!("data-api failed ({exit})"))
    }
}

/// Devnet nodes the demo's validator peers serve: the P-Chain devnet's genesis validators
/// (nodes 0-4) and every node its staking and L1 txs add after them, with room to spare.
const WARP_PEERS: &str = "48";

/// Starts `warp-peers`: the devnet's validators answering Warp signature requests over the
/// Avalanche P2P protocol (`docs/p2p.md`), and writes where they listen for `data-api
/// --warp-peers`; returns the running peers and that file's path.
fn start_warp_peers(bin: &std::path::Path) -> Result<(Reaped, String), String> {
    use std::io::BufRead;
    let mut child = Command::new(bin.join("warp-peers"))
        .args(["--seed", "1", "--count", WARP_PEERS])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start warp-peers: {e}"))?;
    let stdout = child.stdout.take().ok_or("warp-peers: no stdout")?;
    let peers = Reaped(child);
    let count: usize = WARP_PEERS.parse().map_err(|_| "WARP_PEERS")?;
    let lines: Vec<String> = std::io::BufReader::new(stdout)
        .lines()
        .take(count)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("warp-peers: {e}"))?;
    if lines.len() != count {
        return Err(format!(
            "warp-peers printed {} of {count} peers",
            lines.len()
        ));
    }
    let path = "snowline-data/warp-peers.jsonl";
    std::fs::create_dir_all("snowline-data").map_err(|e| format!("snowline-data: {e}"))?;
    std::fs::write(path, lines.join("\n") + "\n").map_err(|e| format!("{path}: {e}"))?;
    eprintln!(
        "xtask: {count} devnet validator peers answer Warp signature requests over P2P \
         (addresses in {path}); data-api prints a POST to try"
    );
    Ok((peers, path.to_owned()))
}

/// Starts `metrics-api` over data-api's index once data-api has created it (it opens the index
/// as a secondary, so the index must exist); `None` when it does not appear within 30 s.
fn start_metrics(bin: &std::path::Path, sources: &str) -> Result<Option<Reaped>, String> {
    let current = std::path::Path::new("snowline-data/data-api/index/CURRENT");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !current.exists() {
        if std::time::Instant::now() > deadline {
            eprintln!("xtask: data-api created no index within 30 s: metrics-api not started");
            return Ok(None);
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    eprintln!("xtask: starting metrics-api over data-api's index (docs/metrics-api.md)");
    let child = Command::new(bin.join("metrics-api"))
        .args([
            "serve",
            "--index-dir",
            "snowline-data/data-api",
            "--data-dir",
            "snowline-data/metrics-api",
            "--evm-config",
            sources,
        ])
        .spawn()
        .map_err(|e| format!("cannot start metrics-api: {e}"))?;
    Ok(Some(Reaped(child)))
}

/// The blockchain id of the L1 99999: the devnet P-Chain's `CreateChainTx` for it (pinned by
/// `crates/evm-devnet/tests/icm.rs`), so `/v1/chains/{blockchainId}` and ICM messages name it.
const L1_BLOCKCHAIN_ID: &str = "mCAkA78CiH4yyVSzKi13uuzeWTDhDYGmbFvYbyheqvpewvuy3";

/// Writes the sources file that has `data-api` index the demo's EVM chains (the L1 described
/// there, the C-Chain being in the built-in registry); returns its path.
fn write_evm_sources() -> Result<String, String> {
    let chains: Vec<String> = EVM_CHAINS
        .iter()
        .map(|(name, id, port)| {
            let rpc = format!("http://127.0.0.1:{port}");
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
    let path = "snowline-data/evm-sources.json";
    std::fs::create_dir_all("snowline-data").map_err(|e| format!("snowline-data: {e}"))?;
    std::fs::write(
        path,
        format!("{{\"chains\": [\n  {}\n]}}\n", chains.join(",\n  ")),
    )
    .map_err(|e| format!("{path}: {e}"))?;
    Ok(path.to_owned())
}

/// Starts the EVM devnet's chains (`evm-devnet run`, which starts anvil and runs the scenario)
/// when anvil is installed; says so and starts nothing when it is not.
fn start_evm(bin: &std::path::Path) -> Result<Vec<StdinBound>, String> {
    let Some(anvil) = crate::evm::ensure()? else {
        eprintln!("xtask: no anvil: the demo runs without EVM chains");
        return Ok(Vec::new());
    };
    let mut chains = Vec::new();
    for (name, chain_id, port) in EVM_CHAINS {
        eprintln!(
            "xtask: EVM {name} (chain id {chain_id}) on http://127.0.0.1:{port} (anvil, the \
             evm-devnet scenario first; docs/evm-devnet.md)"
        );
        let child = Command::new(bin.join("evm-devnet"))
            .args([
                "run",
                "--exit-on-stdin-close",
                "--chain-id",
                chain_id,
                "--port",
                port,
            ])
            .env("ANVIL_BIN", &anvil)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start evm-devnet: {e}"))?;
        chains.push(StdinBound(child));
    }
    Ok(chains)
}
