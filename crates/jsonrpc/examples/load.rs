//! A bounded loopback load generator: `C` keep-alive connections each send
//! requests back to back until `N` requests in total are done or `T` seconds pass,
//! then print requests/s and the p50/p99/max latency of one request.
//!
//! `cargo run --release -p snowline-jsonrpc --example load -- 127.0.0.1:9650 /ext/bc/X 16 200000 20 [BODIES]`
//!
//! `BODIES` is an optional file of request bodies, one JSON body per line, cycled
//! (each connection starts at a different line); without it every request is
//! `hello.world`. Only loopback addresses are accepted, so this cannot load anyone
//! else's server. Responses that are not HTTP 200 or whose JSON begins with an
//! `error` member are counted and reported: a benchmark of errors measures nothing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const USAGE: &str = "usage: load [ADDR=127.0.0.1:9650] [PATH=/ext/bc/X] [CONNS=16] [MAX_REQUESTS=100000] \
[MAX_SECS=10] [BODIES_FILE]\n  BODIES_FILE: one JSON-RPC body per line, cycled; default hello.world";

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
    ok: bool,
    bytes: usize,
}

/// Reads one HTTP response with a Content-Length body from `buf`/`s`; `None` on EOF.
async fn read_response(s: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<Option<Response>> {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            let total = end + 4 + len;
            if buf.len() >= total {
                let status_ok = head.starts_with("http/1.1 200");
                let body = &buf[end + 4..total];
                let lead = &body[..body.len().min(64)];
                let is_error = lead.windows(7).any(|w| w == b"\"error\"");
                buf.drain(..total);
                return Ok(Some(Response {
                    ok: status_ok && !is_error,
                    bytes: len,
                }));
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

/// Per-connection results: latencies in µs, failed responses, body bytes read.
type ConnResult = (Vec<u32>, u64, u64);

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let addr: String = arg(1, "127.0.0.1:9650".to_owned());
    let sock: SocketAddr = addr.parse()?;
    if !sock.ip().is_loopback() {
        return Err(format!("{addr} is not a loopback address\n{USAGE}").into());
    }
    let path: String = arg(2, "/ext/bc/X".to_owned());
    let conns: usize = arg(3, 16usize).clamp(1, MAX_CONNS);
    let total: u64 = arg(4, 100_000u64).min(MAX_TOTAL);
    let secs: u64 = arg(5, 10u64).min(MAX_SECS);
    let bodies: Vec<String> = match std::env::args().nth(6) {
        Some(file) => std::fs::read_to_string(&file)?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect(),
        None => vec![r#"{"jsonrpc":"2.0","id":1,"method":"hello.world"}"#.to_owned()],
    };
    if bodies.is_empty() {
        return Err("the bodies file has no bodies".into());
    }
    let reqs: Arc<Vec<String>> = Arc::new(
        bodies
            .iter()
            .map(|body| {
                format!(
                    "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                    body.len()
                )
            })
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
            let (mut failed, mut bytes) = (0u64, 0u64);
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
                failed += u64::from(!resp.ok);
                bytes += resp.bytes as u64;
            }
            Ok::<ConnResult, std::io::Error>((lat, failed, bytes))
        }));
    }
    let (mut lat, mut failed, mut bytes) = (Vec::new(), 0u64, 0u64);
    for t in tasks {
        let (l, f, b) = t.await??;
        lat.extend(l);
        failed += f;
        bytes += b;
    }
    let elapsed = start.elapsed().as_secs_f64();
    lat.sort_unstable();
    let n = lat.len();
    println!(
        "{n} requests in {elapsed:.2}s over {conns} connections: {:.0} req/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {failed} failed, {:.0} KiB/response",
        n as f64 / elapsed,
        f64::from(quantile(&lat, 0.50)) / 1000.0,
        f64::from(quantile(&lat, 0.99)) / 1000.0,
        f64::from(lat.last().copied().unwrap_or(0)) / 1000.0,
        bytes as f64 / n.max(1) as f64 / 1024.0,
    );
    Ok(())
}
