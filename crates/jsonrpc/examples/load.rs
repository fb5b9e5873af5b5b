//! A bounded loopback load generator: `C` keep-alive connections each send
//! requests back to back until `N` requests in total are done or `T` seconds pass.
//!
//! `cargo run --release -p snowline-jsonrpc --example load -- 127.0.0.1:9650 /ext/bc/X 16 200000 20`

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn arg<T: std::str::FromStr>(i: usize, default: T) -> T {
    std::env::args()
        .nth(i)
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Reads one HTTP response with a Content-Length body from `buf`/`s`; returns false on EOF.
async fn read_response(s: &mut TcpStream, buf: &mut Vec<u8>) -> std::io::Result<bool> {
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
                buf.drain(..total);
                return Ok(true);
            }
        }
        let mut chunk = [0u8; 8192];
        let n = s.read(&mut chunk).await?;
        if n == 0 {
            return Ok(false);
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr: String = arg(1, "127.0.0.1:9650".to_owned());
    let path: String = arg(2, "/ext/bc/X".to_owned());
    let conns: usize = arg(3, 16);
    let total: u64 = arg(4, 100_000);
    let secs: u64 = arg(5, 10);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"hello.world"}"#;
    let req = Arc::new(format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    ));
    let done = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..conns {
        let (req, done, addr) = (Arc::clone(&req), Arc::clone(&done), addr.clone());
        tasks.push(tokio::spawn(async move {
            let mut s = TcpStream::connect(&addr).await?;
            s.set_nodelay(true)?;
            let mut buf = Vec::with_capacity(16 * 1024);
            while Instant::now() < deadline && done.fetch_add(1, Ordering::Relaxed) < total {
                s.write_all(req.as_bytes()).await?;
                if !read_response(&mut s, &mut buf).await? {
                    break;
                }
            }
            Ok::<_, std::io::Error>(())
        }));
    }
    for t in tasks {
        t.await??;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let n = done.load(Ordering::Relaxed).min(total);
    println!(
        "{n} requests in {elapsed:.2}s over {conns} connections: {:.0} req/s",
        n as f64 / elapsed
    );
    Ok(())
}
