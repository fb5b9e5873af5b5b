//! `cargo xtask freshness --chain evm`: how long a block mined on an EVM node takes to be
//! served by the Data API. Starts anvil (chain 43112) and `data-api` indexing it on free ports,
//! then mines one block at a time (`evm_mine`) and measures from the moment the node answered
//! to the moment `GET /v1/chains/43112/blocks/{n}` first answers 200.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::http::{request, rpc};

/// anvil, killed when dropped.
struct Anvil(Child);

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Measures `samples` blocks with `data-api` from `bin` polling every `poll_ms` (its default
/// when `None`); `dir` holds its data.
pub fn measure(
    samples: usize,
    poll_ms: Option<u64>,
    release: bool,
    bin: &Path,
    dir: &Path,
) -> Result<(), String> {
    let anvil_bin = crate::evm::ensure()?.ok_or("anvil is not installed (cargo xtask setup)")?;
    let port = free_port()?;
    let node_addr = format!("127.0.0.1:{port}");
    let _anvil = Anvil(
        Command::new(&anvil_bin)
            .args([
                "--port",
                &port.to_string(),
                "--chain-id",
                "43112",
                "--silent",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start anvil: {e}"))?,
    );
    let up_by = Instant::now() + Duration::from_secs(30);
    while rpc(&node_addr, "/", "eth_blockNumber", json!([])).is_err() {
        if Instant::now() > up_by {
            return Err("anvil did not answer in 30 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let source = format!("43112=http://{node_addr}");
    let data = dir.join("data-api").to_string_lossy().into_owned();
    let poll = poll_ms.map(|p| p.to_string());
    let mut args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--network",
        "local",
        "--evm",
        &source,
        "--no-rate-limits",
        "--no-metering",
        "--data-dir",
        &data,
    ];
    if let Some(p) = &poll {
        args.extend(["--evm-poll-ms", p]);
    }
    let api = crate::service::start(&bin.join("data-api"), &args)?;
    let ready_by = Instant::now() + Duration::from_secs(60);
    while request(&api.addr, "GET", "/readyz", None)?.0 != 200 {
        if Instant::now() > ready_by {
            return Err("data-api did not catch up with anvil in 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut lags = Vec::with_capacity(samples);
    for i in 0..samples {
        // Spread the mining over the poll period so the samples do not lock to its phase.
        std::thread::sleep(Duration::from_millis(50 + (i as u64 * 37) % 250));
        rpc(&node_addr, "/", "evm_mine", json!([]))?;
        let mined = Instant::now();
        let head = rpc(&node_addr, "/", "eth_blockNumber", json!([]))?;
        let n = head
            .as_str()
            .and_then(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
            .ok_or("eth_blockNumber: not a quantity")?;
        let path = format!("/v1/chains/43112/blocks/{n}");
        let give_up = mined + Duration::from_secs(30);
        while request(&api.addr, "GET", &path, None)?.0 != 200 {
            if Instant::now() > give_up {
                return Err(format!("block {n} not served after 30 s"));
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        lags.push(mined.elapsed().as_secs_f64() * 1e3);
    }
    lags.sort_by(f64::total_cmp);
    let mean = lags.iter().sum::<f64>() / lags.len().max(1) as f64;
    println!(
        "freshness of EVM blocks (anvil, evm_mine), data-api EVM poll {}{}:",
        poll.as_deref()
            .map_or("default".to_owned(), |p| format!("{p} ms")),
        if release {
            ", release"
        } else {
            ", debug build"
        }
    );
    println!(
        "  mined on anvil -> served by data-api: {} samples, p50 {:.0} ms, p99 {:.0} ms, max \
         {:.0} ms, mean {:.0} ms",
        lags.len(),
        crate::stats::quantile(&lags, 0.5),
        crate::stats::quantile(&lags, 0.99),
        lags.last().copied().unwrap_or(f64::NAN),
        mean
    );
    Ok(())
}
