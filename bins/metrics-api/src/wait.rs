//! Waiting for data-api's index at start. metrics-api may start before data-api has created its
//! index (or written its schema version): it then listens at once, answers `/readyz` and every
//! request with 503 and the reason, tries to open the index with backoff, and hands the
//! listening socket to the real server as soon as the index opens.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use snowline_cli::{Backoff, Waiting};
use snowline_rest_api::{ApiError, App, Check, Readiness, Router, Server, ServerConfig, Weight};
use tokio::net::TcpListener;

/// The deepest path the waiting server answers 503 on (deeper paths get 404).
const DEPTH: usize = 12;

/// Binds `addr` (port 0 for a free one).
pub fn bind(addr: SocketAddr) -> Result<std::net::TcpListener, String> {
    let listener =
        std::net::TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    Ok(listener)
}

/// `/readyz` while waiting: down, with why.
struct NotYet(Arc<Mutex<String>>);

impl NotYet {
    fn reason(&self) -> String {
        self.0.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Readiness for NotYet {
    fn check(&self) -> Vec<Check> {
        vec![Check::down("database", self.reason())]
    }
}

/// Every GET and POST path up to [`DEPTH`] segments, answered 503 with `reason`.
fn unavailable(reason: &Arc<Mutex<String>>) -> Router {
    let mut router = Router::new();
    for depth in 1..=DEPTH {
        let template: String = (1..=depth).map(|i| format!("/{{p{i}}}")).collect();
        for post in [false, true] {
            let reason = Arc::clone(reason);
            let answer = move |_req| {
                let why = NotYet(Arc::clone(&reason)).reason();
                async move { Err(ApiError::service_unavailable(why)) }
            };
            router = if post {
                router.post(&template, Weight::FREE, answer)
            } else {
                router.get(&template, Weight::FREE, answer)
            };
        }
    }
    router
}

/// `open()`'s value and the listener to serve it on, once `open` succeeds; until then the
/// listener answers 503 with the reason `open` gives (`what` names what is waited for). `None`
/// when SIGINT/SIGTERM came first.
pub async fn until_open<T: Send + 'static>(
    listener: std::net::TcpListener,
    config: ServerConfig,
    what: String,
    open: impl Fn() -> Result<T, String> + Send + 'static,
) -> Result<Option<(T, TcpListener)>, String> {
    // The first attempt, on the blocking pool; `open` comes back for the retries.
    let first = tokio::task::spawn_blocking(move || (open(), open))
        .await
        .map_err(|e| e.to_string())?;
    let (first, open) = first;
    let mut waiting = Waiting::new("metrics-api", what);
    let why = match first {
        Ok(value) => return Ok(Some((value, tokio_listener(listener)?))),
        Err(why) => why,
    };
    waiting.failed(&why);
    let reason = Arc::new(Mutex::new(waiting.reason(&why)));
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opener = tokio::task::spawn_blocking({
        let (reason, stop) = (Arc::clone(&reason), Arc::clone(&stop));
        move || {
            let mut backoff = Backoff::default();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(backoff.pause());
                match open() {
                    Ok(value) => {
                        waiting.done();
                        return Some(value);
                    }
                    Err(why) => {
                        waiting.failed(&why);
                        if let Ok(mut r) = reason.lock() {
                            *r = waiting.reason(&why);
                        }
                    }
                }
            }
            None
        }
    });
    let serving = listener
        .try_clone()
        .map_err(|e| format!("cannot share the listening socket: {e}"))?;
    let app = App::new(unavailable(&reason))
        .message_arrays(true)
        .readiness(Arc::new(NotYet(reason)));
    let server =
        Server::from_listener(tokio_listener(serving)?, app, config).map_err(|e| e.to_string())?;
    let mut opened = None;
    {
        let opened = &mut opened;
        let mut opener = opener;
        server
            .run_until(async move {
                tokio::select! {
                    done = &mut opener => *opened = Some(done),
                    () = snowline_rest_api::shutdown_signal() => {}
                }
            })
            .await
            .map_err(|e| e.to_string())?;
    }
    match opened {
        Some(Ok(Some(value))) => Ok(Some((value, tokio_listener(listener)?))),
        Some(Ok(None)) | None => {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            Ok(None)
        }
        Some(Err(e)) => Err(format!("opening the index: {e}")),
    }
}

fn tokio_listener(listener: std::net::TcpListener) -> Result<TcpListener, String> {
    TcpListener::from_std(listener).map_err(|e| format!("cannot serve on the socket: {e}"))
}
