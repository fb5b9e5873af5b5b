//! A bounded loopback GET load generator for the REST edge: `C` keep-alive connections each
//! send `GET`s back to back, cycling through a list of paths, until `N` requests in total are
//! done or `T` seconds pass; then it prints requests/s, p50/p99/max latency and the responses
//! that were not HTTP 200.
//!
//! `cargo run --release -p snowline-rest-api --example rest-load -- 127.0.0.1:8080 @paths.txt 64 5000000 10`
//!
//! `PATHS` is either one path (`/v1/chains/43112`) or `@FILE`, a file of paths, one per line,
//! cycled (each connection starts at a different line), so a run can spread over many keys
//! instead of hitting one cached answer. Only loopback addresses are accepted, so this cannot load anyone
//! else's server. Every response's status is checked: a benchmark of errors measures nothing.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const USAGE: &str = "usage: rest-load ADDR PATH|@FILE [CONNS=64] [MAX_REQUESTS=1000000] [MAX_SECS=10]\n  \
ADDR: a loopback address, e.g. 127.0.0.1:8080\n  \
PATH: one path starting with '/'; @FILE: a file of paths (one per line), cycled";

/// The most requests or seconds one run may ask for, so a typo cannot run forever.
const MAX_TOTAL: u64 = 100_000_000;
const MAX_SECS: u64 = 3_600;
const MAX_CONNS: usize = 4_096;

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// What one response looked like.
struct Response {
    status: u16,
    bytes: usize,
}

/// Reads one HTTP/1.1 response with a `Content-Length` body from `buf`/`s`; `None` on EOF.
/// A response without `Content-Length` is an error: the REST edge always sends one.
async fn read_response(s: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Option<Response>> {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let status: u16 = head
                .split_whitespace()
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| {
                    std::io::Error::other(format!("response without Content-Length: {head}"))
                })?;
            let total = end + 4 + len;
            if buf.len() >= total {
                buf.drain(..total);
                return Ok(Some(Response { status, bytes: len }));
            }
        }
        let mut chunk = [0u8; 64 * 1024];
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            return Ok(None);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// The value at quantile `q` (0..=1) of sorted `v`, in microseconds.
fn quantile(v: &[u32], q: f64) -> u32 {
    if v.is_empty() {
        return 0;
    }
    let i = ((v.len() - 1) as f64 * q).round() as usize;
    v.get(i).copied().unwrap_or(0)
}

/// Per-connection results: latencies in µs, count per non-200 status, body bytes read.
type ConnResult = (Vec<u32>, BTreeMap<u16, u64>, u64);

/// The paths to cycle through: the lines of `@FILE`, or the argument itself when it is a path.
fn paths(arg: &str) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let Some(file) = arg.strip_prefix('@') else {
        if !arg.starts_with('/') {
            return Err(format!("{arg:?} is neither a path (/...) nor @FILE\n{USAGE}").into());
        }
        return Ok(vec![arg.to_owned()]);
    };
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let paths: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    if let Some(bad) = paths.iter().find(|p| !p.starts_with('/')) {
        return Err(format!("{file}: {bad:?} is not a path (must start with '/')").into());
    }
    if paths.is_empty() {
        return Err(format!("{file} has no paths").into());
    }
    Ok(paths)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 || args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let addr = args.get(1).cloned().unwrap_or_default();
    let sock: SocketAddr = addr
        .parse()
        .map_err(|e| format!("{addr:?} is not an address: {e}\n{USAGE}"))?;
    if !sock.ip().is_loopback() {
        return Err(format!("{addr} is not a loopback address\n{USAGE}").into());
    }
    let paths = paths(args.get(2).map_or("", String::as_str))?;
    let conns: usize = arg(3, 64usize).clamp(1, MAX_CONNS);
    let total: u64 = arg(4, 1_000_000u64).min(MAX_TOTAL);
    let secs: u64 = arg(5, 10u64).min(MAX_SECS);
    let reqs: Arc<Vec<String>> = Arc::new(
        paths
            .iter()
            .map(|p| format!("GET {p} HTTP/1.1\r\nHost: {addr}\r\n\r\n"))
            .collect(),
    );
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for c in 0..conns {
        let (reqs, done) = (Arc::clone(&reqs), Arc::clone(&done));
        tasks.push(tokio::spawn(async move {
            let mut s = TcpStream::connect(sock).await?;
            s.set_nodelay(true)?;
            let mut buf = Vec::with_capacity(64 * 1024);
            let mut lat = Vec::new();
            let mut failed = BTreeMap::new();
            let mut bytes = 0u64;
            let mut next = c.wrapping_mul(7919);
            while Instant::now() < deadline && done.fetch_add(1, Ordering::Relaxed) < total {
                let Some(req) = reqs.get(next % reqs.len()) else {
                    break;
                };
                next = next.wrapping_add(1);
                let sent = Instant::now();
                s.write_all(req.as_bytes()).await?;
                let Some(resp) = read_response(&mut s, &mut buf).await? else {
                    break;
                };
                lat.push(u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX));
                if resp.status != 200 {
                    *failed.entry(resp.status).or_insert(0) += 1;
                }
                bytes += resp.bytes as u64;
            }
            Ok::<ConnResult, std::io::Error>((lat, failed, bytes))
        }));
    }
    let (mut lat, mut failed, mut bytes) = (Vec::new(), BTreeMap::<u16, u64>::new(), 0u64);
    for t in tasks {
        let (l, f, b) = t.await??;
        lat.extend(l);
        for (status, n) in f {
            *failed.entry(status).or_insert(0) += n;
        }
        bytes += b;
    }
    let elapsed = start.elapsed().as_secs_f64();
    lat.sort_unstable();
    let n = lat.len();
    let n_failed: u64 = failed.values().sum();
    let statuses: Vec<String> = failed.iter().map(|(s, n)| format!("{n}x{s}")).collect();
    println!(
        "{n} requests in {elapsed:.2}s over {conns} connections, {} paths: {:.0} req/s, p50 {:.2} ms, \
         p99 {:.2} ms, max {:.2} ms, {n_failed} failed{}, {:.1} KiB/response",
        reqs.len(),
        n as f64 / elapsed,
        f64::from(quantile(&lat, 0.50)) / 1000.0,
        f64::from(quantile(&lat, 0.99)) / 1000.0,
        f64::from(lat.last().copied().unwrap_or(0)) / 1000.0,
        if statuses.is_empty() {
            String::new()
        } else {
            format!(" ({})", statuses.join(", "))
        },
        bytes as f64 / n.max(1) as f64 / 1024.0,
    );
    Ok(())
}
