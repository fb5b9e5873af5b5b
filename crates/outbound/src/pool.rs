//! [`PoolConfig`] and a client's idle keep-alive connections ([`Pool`]). A connection is kept
//! under the destination it was made for ([`Destination`]): the scheme, the host as written (TLS
//! checked the certificate against that name), the port, and the address the private-network
//! rule permitted and the client connected to. A request takes one only for the same
//! destination, after its host was resolved and the addresses checked again; a connection idle
//! past the timeout, or beyond the cap of its destination or of the pool, is closed.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1::SendRequest;
use tokio::task::AbortHandle;

/// How many idle connections a client keeps, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolConfig {
    /// An idle connection is closed once unused this long.
    pub idle_timeout: Duration,
    /// Most idle connections kept for one destination (0: none kept).
    pub max_idle_per_destination: usize,
    /// Most idle connections kept in all (0: none kept).
    pub max_idle: usize,
}

impl Default for PoolConfig {
    /// 30 s (shorter than most servers' own keep-alive limits, so a kept connection is rarely
    /// one the server has just closed), 8 per destination, 64 in all.
    fn default() -> Self {
        Self {
            idle_timeout: Duration::from_secs(30),
            max_idle_per_destination: 8,
            max_idle: 64,
        }
    }
}

/// Where a connection goes: what it was checked and made for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Destination {
    /// Whether it speaks TLS.
    pub(crate) https: bool,
    /// The host as written in the URL (the name TLS verified).
    pub(crate) host: String,
    /// The port.
    pub(crate) port: u16,
    /// The address connected to, one the private-network rule permitted.
    pub(crate) addr: SocketAddr,
}

/// An open HTTP/1.1 connection: the handle requests go through, and the task driving the
/// connection, stopped (closing the socket) when this is dropped.
pub(crate) struct Conn {
    pub(crate) sender: SendRequest<Full<Bytes>>,
    task: AbortHandle,
}

impl Conn {
    pub(crate) fn new(sender: SendRequest<Full<Bytes>>, task: AbortHandle) -> Self {
        Self { sender, task }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.task.abort();
    }
}

struct Idle {
    conn: Conn,
    since: Instant,
}

impl Idle {
    fn usable(&self, timeout: Duration) -> bool {
        self.since.elapsed() < timeout && !self.conn.sender.is_closed()
    }
}

#[derive(Default)]
struct Kept {
    by_destination: HashMap<Destination, Vec<Idle>>,
    count: usize,
    sweeping: bool,
}

impl Kept {
    /// Closes the connections idle too long or closed by their server.
    fn prune(&mut self, timeout: Duration) {
        self.by_destination.retain(|_, list| {
            list.retain(|i| i.usable(timeout));
            !list.is_empty()
        });
        self.count = self.by_destination.values().map(Vec::len).sum();
    }
}

/// A client's idle connections.
pub(crate) struct Pool {
    config: PoolConfig,
    kept: Mutex<Kept>,
}

impl Pool {
    pub(crate) fn new(config: PoolConfig) -> Arc<Self> {
        Arc::new(Self {
            config,
            kept: Mutex::new(Kept::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The idle connection to `dest` used last, if one is still open and within the timeout.
    pub(crate) fn take(&self, dest: &Destination) -> Option<Conn> {
        let timeout = self.config.idle_timeout;
        let mut kept = self.lock();
        let list = kept.by_destination.get_mut(dest)?;
        let before = list.len();
        let mut found = None;
        while let Some(idle) = list.pop() {
            if idle.usable(timeout) {
                found = Some(idle.conn);
                break;
            }
        }
        let taken = before - list.len();
        if list.is_empty() {
            kept.by_destination.remove(dest);
        }
        kept.count -= taken;
        found
    }

    /// Keeps `conn`, ready for a next request, for `dest`; closes it instead when a cap is
    /// reached by connections still usable.
    pub(crate) fn put(self: &Arc<Self>, dest: Destination, conn: Conn) {
        let c = self.config;
        let mut kept = self.lock();
        if kept.count >= c.max_idle {
            kept.prune(c.idle_timeout);
        }
        let full = kept.count >= c.max_idle
            || kept.by_destination.get(&dest).is_some_and(|l| {
                l.iter().filter(|i| i.usable(c.idle_timeout)).count() >= c.max_idle_per_destination
            })
            || c.max_idle_per_destination == 0;
        if full || conn.sender.is_closed() {
            return;
        }
        let list = kept.by_destination.entry(dest).or_default();
        let before = list.len();
        list.retain(|i| i.usable(c.idle_timeout));
        let closed = before - list.len();
        list.push(Idle {
            conn,
            since: Instant::now(),
        });
        kept.count = kept.count - closed + 1;
        if kept.sweeping {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            kept.sweeping = true;
            runtime.spawn(sweep(Arc::downgrade(self), c.idle_timeout));
        }
    }
}

/// Closes `pool`'s connections as they pass the idle timeout, so an idle client holds no
/// socket longer than that; ends when the pool is empty (the next connection kept starts
/// another) or dropped.
async fn sweep(pool: Weak<Pool>, timeout: Duration) {
    let every = (timeout / 4).max(Duration::from_millis(10));
    loop {
        tokio::time::sleep(every).await;
        let Some(pool) = pool.upgrade() else {
            return;
        };
        let mut kept = pool.lock();
        kept.prune(timeout);
        if kept.count == 0 {
            kept.sweeping = false;
            return;
        }
    }
}
