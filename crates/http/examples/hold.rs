//! Holds connections against a server, for the hardening suite's load part (`bench/harden-load.sh`):
//! IDLE connections that never send a byte and SLOW ones that send a request head one byte a
//! second (slowloris), for SECS seconds; then prints how many it opened, how many the server
//! closed, and after how long. Loopback only; the file limit must allow IDLE + SLOW sockets.
//!
//!   cargo run --release -p snowline-http --example hold -- ADDR IDLE SLOW SECS

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// When each closed connection was closed, seconds after the start.
#[derive(Default)]
struct Closed(std::sync::Mutex<Vec<f64>>);

impl Closed {
    fn note(&self, at: Instant) {
        if let Ok(mut v) = self.0.lock() {
            v.push(at.elapsed().as_secs_f64());
        }
    }
}

async fn idle(addr: SocketAddr, start: Instant, closed: Arc<Closed>, secs: u64) {
    let Ok(mut s) = TcpStream::connect(addr).await else {
        return;
    };
    let mut buf = [0u8; 256];
    if tokio::time::timeout(Duration::from_secs(secs), s.read(&mut buf))
        .await
        .is_ok()
    {
        closed.note(start);
    }
}

async fn slow(addr: SocketAddr, start: Instant, closed: Arc<Closed>, secs: u64) {
    let Ok(mut s) = TcpStream::connect(addr).await else {
        return;
    };
    let head = b"GET /v1/chains HTTP/1.1\r\nHost: x\r\nX-Slow: ";
    let end = start + Duration::from_secs(secs);
    let mut i = 0usize;
    while Instant::now() < end {
        let byte = head.get(i).copied().unwrap_or(b'a');
        if s.write_all(&[byte]).await.is_err() {
            closed.note(start);
            return;
        }
        i += 1;
        let mut buf = [0u8; 256];
        if let Ok(Ok(_)) = tokio::time::timeout(Duration::from_secs(1), s.read(&mut buf)).await {
            // An answer (a timeout's 408) or the close.
            closed.note(start);
            return;
        }
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 1)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: hold ADDR IDLE SLOW SECS";
    let addr: SocketAddr = args.first().ok_or(usage)?.parse()?;
    let n_idle: usize = args.get(1).ok_or(usage)?.parse()?;
    let n_slow: usize = args.get(2).ok_or(usage)?.parse()?;
    let secs: u64 = args.get(3).ok_or(usage)?.parse()?;
    let start = Instant::now();
    let (closed_idle, closed_slow) = (Arc::new(Closed::default()), Arc::new(Closed::default()));
    let opened = Arc::new(AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..n_idle + n_slow {
        let (ci, cs, opened) = (
            Arc::clone(&closed_idle),
            Arc::clone(&closed_slow),
            Arc::clone(&opened),
        );
        tasks.spawn(async move {
            opened.fetch_add(1, Ordering::Relaxed);
            if i < n_idle {
                idle(addr, start, ci, secs).await;
            } else {
                slow(addr, start, cs, secs).await;
            }
        });
        if i % 500 == 499 {
            // Open them over a second or two rather than in one burst of SYNs.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    while tasks.join_next().await.is_some() {}
    let summary = |name: &str, n: usize, c: &Closed| {
        let mut v = c.0.lock().map(|v| v.clone()).unwrap_or_default();
        v.sort_by(f64::total_cmp);
        let median = v.get(v.len() / 2).copied().unwrap_or(f64::NAN);
        let last = v.last().copied().unwrap_or(f64::NAN);
        println!(
            "{name}: {n} opened, {} closed by the server within {secs} s (median at {median:.1} s, \
             last at {last:.1} s), {} held to the end",
            v.len(),
            n - v.len()
        );
    };
    summary("idle", n_idle, &closed_idle);
    summary("slowloris", n_slow, &closed_slow);
    Ok(())
}
