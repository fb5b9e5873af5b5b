//! The proxy: a listener that can be stopped and started again on the same port, and one thread
//! per connection applying the current fault.

use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

use crate::fault::Fault;
use crate::http::{Answer, Request, forward, read_request, write_answer};

/// What the connection threads read: the fault and the upstream, switchable at run time.
#[derive(Debug)]
struct Shared {
    fault: Mutex<Fault>,
    upstream: Mutex<String>,
    /// Answers a fault changed (slowed, 500, rewritten page).
    faulted: AtomicU64,
    /// Requests received.
    requests: AtomicU64,
}

impl Shared {
    fn fault(&self) -> Fault {
        *self.fault.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn upstream(&self) -> String {
        self.upstream
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// The accept loop of one listening period.
#[derive(Debug)]
struct Listening {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
}

/// A running fault-injecting proxy on `127.0.0.1:PORT`; stops listening when dropped.
#[derive(Debug)]
pub struct FaultProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    listening: Option<Listening>,
}

/// `host:port` of an `http://host:port[/]` URL (or of `host:port` itself).
fn authority(url: &str) -> String {
    url.trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned()
}

impl FaultProxy {
    /// Starts a proxy for the upstream at `upstream_url` (e.g. `http://127.0.0.1:9650`),
    /// forwarding unchanged until a fault is set.
    pub fn start(upstream_url: &str) -> io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            fault: Mutex::new(Fault::None),
            upstream: Mutex::new(authority(upstream_url)),
            faulted: AtomicU64::new(0),
            requests: AtomicU64::new(0),
        });
        let listening = Some(listen(listener, Arc::clone(&shared)));
        Ok(Self {
            addr,
            shared,
            listening,
        })
    }

    /// `http://127.0.0.1:PORT`, the same across stops and restarts.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Switches `fault` on (`Fault::None`: off) for the requests received from now on.
    pub fn set(&self, fault: Fault) {
        *self
            .shared
            .fault
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = fault;
    }

    /// Forwards to another upstream from now on (a node replaced by one with fewer or other
    /// containers: the index "moves backward").
    pub fn retarget(&self, upstream_url: &str) {
        *self
            .shared
            .upstream
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = authority(upstream_url);
    }

    /// Stops listening: new connections are refused, as by a stopped node.
    pub fn stop(&mut self) {
        if let Some(l) = self.listening.take() {
            l.stop.store(true, Ordering::SeqCst);
            // Wake the accept loop so it sees the flag and drops the listener.
            let _ = TcpStream::connect(self.addr);
            let _ = l.thread.join();
        }
    }

    /// Listens again on the same port, as a restarted node.
    pub fn restart(&mut self) -> io::Result<()> {
        if self.listening.is_none() {
            let listener = TcpListener::bind(self.addr)?;
            self.listening = Some(listen(listener, Arc::clone(&self.shared)));
        }
        Ok(())
    }

    /// Answers a fault has changed so far (slowed, 500, rewritten page).
    pub fn faulted(&self) -> u64 {
        self.shared.faulted.load(Ordering::SeqCst)
    }

    /// Requests received so far.
    pub fn requests(&self) -> u64 {
        self.shared.requests.load(Ordering::SeqCst)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.stop();
    }
}

fn listen(listener: TcpListener, shared: Arc<Shared>) -> Listening {
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    let thread = std::thread::spawn(move || {
        for conn in listener.incoming() {
            if stopped.load(Ordering::SeqCst) {
                break;
            }
            let Ok(conn) = conn else { continue };
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || serve(conn, &shared));
        }
    });
    Listening { stop, thread }
}

/// Answers one request on `conn` under the current fault.
fn serve(mut conn: TcpStream, shared: &Shared) {
    let Ok(req) = read_request(&mut conn) else {
        return;
    };
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let fault = shared.fault();
    let answer = match fault {
        Fault::Status500 => {
            shared.faulted.fetch_add(1, Ordering::SeqCst);
            Answer {
                status: 500,
                body: b"internal server error\n".to_vec(),
            }
        }
        Fault::Slow(d) => {
            shared.faulted.fetch_add(1, Ordering::SeqCst);
            std::thread::sleep(d);
            relay(shared, &req)
        }
        _ => {
            let mut answer = relay(shared, &req);
            if fault.rewrites_pages() && answer.status == 200 && is_range_call(&req) {
                if let Some(body) = fault.rewrite_page(&answer.body) {
                    shared.faulted.fetch_add(1, Ordering::SeqCst);
                    answer.body = body;
                }
            }
            answer
        }
    };
    let _ = write_answer(&mut conn, &answer);
}

/// The upstream's answer, or 502 when it cannot be reached.
fn relay(shared: &Shared, req: &Request) -> Answer {
    forward(&shared.upstream(), req).unwrap_or_else(|e| Answer {
        status: 502,
        body: format!("upstream unreachable: {e}\n").into_bytes(),
    })
}

fn is_range_call(req: &Request) -> bool {
    serde_json::from_slice::<serde_json::Value>(&req.body)
        .ok()
        .and_then(|v| {
            v.get("method")?
                .as_str()
                .map(|m| m == "index.getContainerRange")
        })
        .unwrap_or(false)
}
