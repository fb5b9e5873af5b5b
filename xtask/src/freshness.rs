//! `cargo xtask freshness`: how long a block accepted by `node-rpc` takes to be visible in the
//! Data API. Starts the real `node-rpc` (devnet, live) and `data-api` following it on free
//! ports, then for each new X block measures from its acceptance (the timestamp `node-rpc`
//! stamps it with as it writes it to its index, read back with `index.getContainerByIndex`) to
//! the moment `data-api`'s `/utxos` listing first shows an output of one of its txs (with
//! `--chain p`, for each new P block, the moment `data-api` answers at its height). Prints
//! p50/p99/max (docs/benchmarks.md, "Freshness").

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use crate::http::{request, rpc};
use crate::service::start;
use crate::shell::status;
use crate::stats::quantile;

const USAGE: &str = "usage: cargo xtask freshness [--chain x|p|evm] [--rate CONTAINERS_PER_S] \
                     [--samples N] [--poll-ms MS] [--release]";

/// The run's settings.
struct Args {
    /// Whose blocks are measured: the X-Chain's or the P-Chain's.
    chain: Chain,
    /// Measure an EVM chain's blocks (anvil) instead.
    evm: bool,
    rate: f64,
    samples: usize,
    poll_ms: Option<u64>,
    release: bool,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        chain: Chain::X,
        evm: false,
        rate: 10.0,
        samples: 300,
        poll_ms: None,
        release: false,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))
        };
        match a.as_str() {
            "--chain" => {
                out.chain = match value()?.as_str() {
                    "x" => Chain::X,
                    "p" => Chain::P,
                    "evm" => {
                        out.evm = true;
                        Chain::X
                    }
                    _ => return Err(USAGE.to_owned()),
                }
            }
            "--rate" => out.rate = value()?.parse().map_err(|_| USAGE.to_owned())?,
            "--samples" => out.samples = value()?.parse().map_err(|_| USAGE.to_owned())?,
            "--poll-ms" => out.poll_ms = Some(value()?.parse().map_err(|_| USAGE.to_owned())?),
            "--release" => out.release = true,
            _ => return Err(USAGE.to_owned()),
        }
    }
    if !out.rate.is_finite() || out.rate <= 0.0 || out.samples == 0 {
        return Err(USAGE.to_owned());
    }
    Ok(out)
}

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Unix nanoseconds of an RFC 3339 UTC time as the index API writes it
/// (`2026-11-25T01:18:03.820807152Z`, fraction optional).
fn parse_rfc3339_ns(s: &str) -> Option<i64> {
    let s = s.strip_suffix('Z')?;
    let (date, time) = s.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let (hms, frac) = time.split_once('.').unwrap_or((time, ""));
    let mut t = hms.split(':').map(|p| p.parse::<i64>().ok());
    let (hh, mm, ss) = (t.next()??, t.next()??, t.next()??);
    let nanos = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<9}").get(..9)?.parse::<i64>().ok()?
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hh * 3_600 + mm * 60 + ss) * 1_000_000_000) + nanos)
}

/// A new X block waiting to be seen in the Data API.
/// The chain whose new blocks are measured.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Chain {
    X,
    P,
}

impl Chain {
    fn index_path(self) -> &'static str {
        match self {
            Chain::X => "/ext/index/X/block",
            Chain::P => "/ext/index/P/block",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Chain::X => "X",
            Chain::P => "P",
        }
    }
}

/// A new block waiting to be visible, and what shows it.
struct Pending {
    accepted_ns: i64,
    sign: Sign,
}

/// What in the Data API shows a block.
enum Sign {
    /// An X block: this tx's output among its recipient's UTXOs.
    XOutput { tx_id: String, address: String },
    /// A P block: an answer as of this P-Chain height or later.
    PHeight(u64),
}

/// The block at `index` of node-rpc's `chain` index: its acceptance time and what will show
/// it. Index `i` holds height `i + 1` (the genesis is not a container).
fn new_block(node: &str, chain: Chain, index: u64) -> Result<Option<Pending>, String> {
    let c = rpc(
        node,
        chain.index_path(),
        "index.getContainerByIndex",
        json!({"index": index.to_string(), "encoding": "hex"}),
    )?;
    let accepted_ns = c["timestamp"]
        .as_str()
        .and_then(parse_rfc3339_ns)
        .ok_or_else(|| format!("container {index}: no timestamp"))?;
    let sign = match chain {
        Chain::X => match x_output(node, index + 1)? {
            Some(sign) => sign,
            None => return Ok(None),
        },
        Chain::P => Sign::PHeight(index + 1),
    };
    Ok(Some(Pending { accepted_ns, sign }))
}

/// One plain output (no locktime, one owner) of a tx of the X block at `height`.
fn x_output(node: &str, height: u64) -> Result<Option<Sign>, String> {
    let block = rpc(
        node,
        "/ext/bc/X",
        "avm.getBlockByHeight",
        json!({"height": height.to_string(), "encoding": "json"}),
    )?;
    let txs = block["block"]["txs"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for tx in txs {
        let outputs = tx["unsignedTx"]["outputs"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for o in outputs {
            let out = &o["output"];
            if out["locktime"].as_u64() != Some(0) || out["threshold"].as_u64() != Some(1) {
                continue;
            }
            if let (Some(id), Some(addr)) = (tx["id"].as_str(), out["addresses"][0].as_str()) {
                return Ok(Some(Sign::XOutput {
                    tx_id: id.to_owned(),
                    address: addr.to_owned(),
                }));
            }
        }
    }
    Ok(None)
}

/// Whether data-api shows `p`: an X output among its owner's newest UTXOs, or a P-Chain answer
/// (`l1Validators`' `blockHeight`) at the block's height or later.
fn visible(api: &str, p: &Pending) -> Result<bool, String> {
    let path = match &p.sign {
        Sign::XOutput { address, .. } => format!(
            "/v1/networks/local/blockchains/x-chain/utxos?addresses={address}&includeSpent=true&pageSize=50"
        ),
        Sign::PHeight(_) => "/v1/networks/local/l1Validators?pageSize=1".to_owned(),
    };
    let (status, body) = request(api, "GET", &path, None)?;
    if status != 200 {
        return Err(format!("GET {path}: {status} {body}"));
    }
    let v: Value = serde_json::from_str(&body).map_err(|e| format!("GET {path}: {e}"))?;
    Ok(match &p.sign {
        Sign::XOutput { tx_id, .. } => v["utxos"]
            .as_array()
            .is_some_and(|us| us.iter().any(|u| u["creationTxHash"] == tx_id.as_str())),
        Sign::PHeight(h) => v["blockHeight"]
            .as_str()
            .and_then(|b| b.parse::<u64>().ok())
            .is_some_and(|b| b >= *h),
    })
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| PathBuf::from("target"), PathBuf::from)
}

/// Runs the measurement (see the module doc).
pub fn run(args: &[String]) -> Result<(), String> {
    let a = parse(args)?;
    let mut build = Command::new("cargo");
    build.args(["build", "-p", "node-rpc", "-p", "data-api"]);
    if a.release {
        build.arg("--release");
    }
    status(&mut build)?;
    let bin = target_dir().join(if a.release { "release" } else { "debug" });
    let dir = std::env::temp_dir().join(format!("snowline-freshness-{}", std::process::id()));
    let result = if a.evm {
        crate::freshness_evm::measure(a.samples, a.poll_ms, a.release, &bin, &dir)
    } else {
        measure(&a, &bin, &dir)
    };
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn measure(a: &Args, bin: &Path, dir: &Path) -> Result<(), String> {
    let path = |p: &str| dir.join(p).to_string_lossy().into_owned();
    let rate = a.rate.to_string();
    let node = start(
        &bin.join("node-rpc"),
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--live-rate",
            &rate,
            "--data-dir",
            &path("node-rpc"),
        ],
    )?;
    let upstream = format!("http://{}", node.addr);
    let poll = a.poll_ms.map(|p| p.to_string());
    let mut api_args = vec![
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--upstream",
        &upstream,
        "--genesis",
        "devnet",
        "--no-rate-limits",
        "--no-metering",
        "--data-dir",
    ];
    let api_dir = path("data-api");
    api_args.push(&api_dir);
    if let Some(p) = &poll {
        api_args.extend(["--poll-ms", p]);
    }
    let api = start(&bin.join("data-api"), &api_args)?;
    let ready_by = Instant::now() + Duration::from_secs(120);
    while request(&api.addr, "GET", "/readyz", None)?.0 != 200 {
        if Instant::now() > ready_by {
            return Err("data-api did not catch up with node-rpc in 2 minutes".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "xtask: node-rpc live at {} containers/s on {}, data-api following on {} (poll {}); \
         measuring {} {} blocks",
        a.rate,
        node.addr,
        api.addr,
        poll.as_deref()
            .map_or("default".to_owned(), |p| format!("{p} ms")),
        a.samples,
        a.chain.name()
    );
    let head = |node: &str| -> Result<u64, String> {
        let r = rpc(
            node,
            a.chain.index_path(),
            "index.getLastAccepted",
            json!({"encoding": "hex"}),
        )?;
        r["index"]
            .as_str()
            .and_then(|i| i.parse::<u64>().ok())
            .map(|i| i + 1)
            .ok_or_else(|| "getLastAccepted: no index".to_owned())
    };
    let mut next = head(&node.addr)?;
    let mut pending: Vec<Pending> = Vec::new();
    let (mut lags, mut node_lags) = (Vec::new(), Vec::new());
    let give_up = Instant::now() + Duration::from_secs_f64(60.0 + 4.0 * a.samples as f64 / a.rate);
    while lags.len() < a.samples {
        if Instant::now() > give_up {
            return Err(format!("only {} samples before the time limit", lags.len()));
        }
        let accepted = head(&node.addr)?;
        let seen = now_ns();
        while next < accepted {
            if let Some(p) = new_block(&node.addr, a.chain, next)? {
                node_lags.push((seen - p.accepted_ns) as f64 / 1e6);
                pending.push(p);
            }
            next += 1;
        }
        let mut still = Vec::with_capacity(pending.len());
        for p in pending {
            if visible(&api.addr, &p)? {
                lags.push((now_ns() - p.accepted_ns) as f64 / 1e6);
            } else {
                still.push(p);
            }
        }
        pending = still;
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(api);
    drop(node);
    let report = |what: &str, v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "{what}: {} samples, p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms, mean {:.0} ms",
            v.len(),
            quantile(v, 0.5),
            quantile(v, 0.99),
            v.last().copied().unwrap_or(f64::NAN),
            mean
        );
    };
    println!(
        "freshness of {} blocks at {} containers/s, data-api poll {}{}:",
        a.chain.name(),
        a.rate,
        poll.as_deref()
            .map_or("default".to_owned(), |p| format!("{p} ms")),
        if a.release {
            ", release"
        } else {
            ", debug build"
        }
    );
    report("  accepted by node-rpc -> visible in data-api", &mut lags);
    report(
        "  accepted by node-rpc -> seen by this tool in node-rpc's index",
        &mut node_lags,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_times_parse_to_unix_nanoseconds() {
        assert_eq!(parse_rfc3339_ns("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_ns("2024-07-15T04:00:00.6Z"),
            Some(1_721_016_000_600_000_000)
        );
        assert_eq!(
            parse_rfc3339_ns("2026-11-25T01:18:03.820807152Z"),
            Some(1_795_569_483_820_807_152)
        );
        assert_eq!(parse_rfc3339_ns("2026-11-25 01:18:03"), None);
    }
}
