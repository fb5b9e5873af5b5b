//! The HTTP/1.1 connection loop under Snowline's servers (`snowline-jsonrpc`, `snowline-rest-api`):
//! accept with a cap on concurrent connections (past it, the connection idle the longest is closed
//! to make room; a 503 from the edge only when all are busy), a header read timeout (which also
//! closes idle keep-alive connections), limits on the request head answered in the edge's error
//! shape, keep-alive, and graceful shutdown that lets in-flight requests finish for a grace
//! period. What a request gets is the caller's handler; this crate knows nothing of JSON-RPC or
//! REST.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{Either, Full};
use hyper::body::{Body, Incoming};
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderValue};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tokio::task::JoinSet;

mod idle;
mod refusal;

pub use refusal::Refuse;
use refusal::Shaped;

/// The limits of a server, the connection loop's and its edge's (`snowline-jsonrpc`,
/// `snowline-rest-api`) in one place.
#[derive(Debug, Clone, Copy)]
pub struct ServerConfig {
    /// Largest accepted request body; larger ones get HTTP 413 in the edge's error shape.
    pub max_body_bytes: usize,
    /// Time allowed to receive a request's headers; hyper closes the connection after it. It
    /// also bounds how long an idle keep-alive connection waits for its next request.
    pub header_read_timeout: Duration,
    /// Time allowed to receive a JSON-RPC request's body; after it the answer is HTTP 408. (The
    /// REST edge reads the body within `request_timeout`.)
    pub body_read_timeout: Duration,
    /// Time allowed for a request's handler (with the body, on the REST edge); after it the
    /// answer is the edge's timeout error `request timed out after Nms`.
    pub request_timeout: Duration,
    /// Connections served at once. A connection beyond them makes room by closing the
    /// connection idle the longest (no request in flight); when every connection is busy, it
    /// gets a 503 in the edge's error shape at once and is closed ([`Admission::OverCapacity`]).
    pub max_connections: usize,
    /// Largest request head (request line and headers together) read; a larger one is
    /// answered 431 in the edge's error shape (hyper's read buffer, at least 8,192).
    pub max_header_bytes: usize,
    /// On shutdown, how long in-flight requests may take before connections are dropped.
    pub shutdown_grace: Duration,
}

impl Default for ServerConfig {
    /// 1 MiB bodies, 256 KiB heads, 10 s headers, 30 s bodies and requests, 1024 connections,
    /// 10 s grace.
    fn default() -> Self {
        Self {
            max_body_bytes: 1 << 20,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(30),
            max_connections: 1024,
            max_header_bytes: 256 << 10,
            shutdown_grace: Duration::from_secs(10),
        }
    }
}

/// Marks a request whose `content-length` declares a body larger than the server's
/// `max_body_bytes`: set by [`serve`] while it checks the head, so the edge refuses the request
/// before a byte of its body is read (a body without a declared length is bounded while read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeclaredTooLarge;

/// Whether the request's `content-length` declares a body larger than `limit`.
fn declares_more_than(headers: &hyper::HeaderMap, limit: usize) -> bool {
    headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > limit as u64)
}

/// Whether an accepted connection is within the server's cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Within `max_connections`: served with keep-alive.
    Served,
    /// Beyond it, with every served connection busy (none idle to close for room): the edge
    /// answers its request at once with a 503 in its own error shape, and the connection
    /// closes; a client gets a fast answer, never a wait in the backlog.
    OverCapacity,
}

/// Connections beyond the cap at once that wait for room or a 503; beyond these too, a new
/// connection is closed as soon as it is accepted (still an answer, not a wait).
pub const OVERFLOW_CONNECTIONS: usize = 256;

/// How long a connection beyond the cap may take to send its request: a client sends it at
/// once, and idle sockets must not keep the overflow full for the clients after them.
pub const OVERFLOW_HEADER_TIMEOUT: Duration = Duration::from_secs(1);

/// How long a connection chosen for eviction may take to close. An idle keep-alive connection
/// closes at once; one part-way through sending a request head is dropped after this (unless its
/// request reached a handler meanwhile: then it closes after its answer). A connection past the
/// cap waits this long for the room it made, then is answered 503.
pub const EVICTION_GRACE: Duration = Duration::from_secs(1);

/// Hyper refuses a request line longer than this (a compile-time limit of hyper's): 414.
pub const MAX_URI_BYTES: usize = 65_534;

/// Hyper refuses a request head with more header fields than this: 431.
pub const MAX_HEADER_FIELDS: usize = 100;

/// Hyper's smallest read buffer, the floor of [`ServerConfig::max_header_bytes`].
const MIN_HEADER_BYTES: usize = 8192;

/// The limit [`ServerConfig::max_header_bytes`] takes effect as.
pub fn effective_max_header_bytes(config: &ServerConfig) -> usize {
    config.max_header_bytes.max(MIN_HEADER_BYTES)
}

/// What a refusal of a request head over one of the server's limits says, naming the limit (the
/// URI's, the head's); `None` for other refusals (the bytes are not HTTP/1.1), which each edge
/// words its own way.
pub fn limit_refused(config: &ServerConfig, status: StatusCode) -> Option<String> {
    match status {
        StatusCode::URI_TOO_LONG => Some(format!(
            "the request URI is longer than the limit of {MAX_URI_BYTES} bytes"
        )),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => Some(format!(
            "the request's headers are over the limit of {} bytes or {MAX_HEADER_FIELDS} fields",
            effective_max_header_bytes(config)
        )),
        _ => None,
    }
}

/// Serves `listener` until `shutdown` completes; then stops accepting, asks every connection to
/// finish its in-flight request and close, and waits up to `shutdown_grace` before dropping what
/// remains. `connect` is called once per accepted connection with the peer's address and its
/// [`Admission`], and returns that connection's handler, which answers its requests one after
/// another: state a connection keeps between its requests lives in the handler, without any
/// lookup per request.
///
/// Past `max_connections`, a new connection makes room: of the connections accepted before it,
/// the one idle the longest (no request in flight: a keep-alive connection between requests,
/// one that has not sent a request yet, or one itself waiting for room) is closed, and the new
/// one is served in its place once a place is free (within [`EVICTION_GRACE`]). When every
/// earlier connection has a request in flight, the new one is
/// handed to `connect` as [`Admission::OverCapacity`] for one request (at most
/// [`OVERFLOW_CONNECTIONS`] at once, sent within [`OVERFLOW_HEADER_TIMEOUT`]); past those, it is
/// closed at once. A request hyper refuses itself before any handler runs (not HTTP/1.1, a URI
/// over [`MAX_URI_BYTES`], a head over `max_header_bytes` or [`MAX_HEADER_FIELDS`]) is answered
/// with `refuse`'s body in the edge's error shape, not hyper's empty one.
pub async fn serve<M, H, Fut, B, F>(
    listener: TcpListener,
    config: ServerConfig,
    connect: M,
    refuse: Refuse,
    shutdown: F,
) where
    M: Fn(SocketAddr, Admission) -> H + Send + Sync + 'static,
    H: Fn(Request<Incoming>) -> Fut + Send + 'static,
    Fut: Future<Output = Response<B>> + Send + 'static,
    B: Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    F: Future<Output = ()>,
{
    let connect = Arc::new(connect);
    let limit = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let overflow = Arc::new(Semaphore::new(OVERFLOW_CONNECTIONS));
    let registry = idle::Registry::new();
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut conns = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        while conns.try_join_next().is_some() {}
        let (stream, remote) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let first = match Arc::clone(&limit).try_acquire_owned() {
            Ok(p) => Ok(p),
            Err(_) => match Arc::clone(&overflow).try_acquire_owned() {
                Ok(p) => Err(p),
                Err(_) => {
                    tracing::warn!(%remote, "over the connection cap and its overflow: closed");
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        // Registered before its task runs, so a connection accepted right after it (even one
        // waiting for room) can make room by closing it.
        let entry = registry.register();
        let (connect, limit, registry) = (
            Arc::clone(&connect),
            Arc::clone(&limit),
            Arc::clone(&registry),
        );
        let refuse = Arc::clone(&refuse);
        let mut stop = stop_rx.clone();
        conns.spawn(async move {
            let (admission, permit) = match first {
                Ok(p) => (Admission::Served, p),
                Err(over) => match make_room(&registry, &entry, &limit, over, remote).await {
                    Some(room) => room,
                    // Closed, idle, by a newer connection making room in its turn.
                    None => return,
                },
            };
            if admission == Admission::Served {
                entry.slot().set_served();
            }
            // A connection answered 503 and closed is never closed to make room.
            let entry = (admission == Admission::Served).then_some(entry);
            let slot = entry.as_ref().map(|e| Arc::clone(e.slot()));
            let handler = connect(remote, admission);
            let io = TokioIo::new(Shaped::new(stream, Arc::clone(&refuse)));
            let svc = {
                let slot = slot.clone();
                let refuse = Arc::clone(&refuse);
                let max_head = effective_max_header_bytes(&config);
                let max_body = config.max_body_bytes;
                hyper::service::service_fn(move |mut req: Request<Incoming>| {
                    if declares_more_than(req.headers(), max_body) {
                        req.extensions_mut().insert(DeclaredTooLarge);
                    }
                    // Hyper's read buffer refuses a head only somewhere between the limit and
                    // twice it (it checks between reads); the limit itself is enforced here.
                    let work = if head_bytes(&req) > max_head {
                        Err(refused(
                            &refuse,
                            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                        ))
                    } else {
                        let in_flight = slot.as_ref().map(|s| idle::InFlight::start(&registry, s));
                        Ok((handler(req), in_flight))
                    };
                    async move {
                        Ok::<_, Infallible>(match work {
                            Ok((response, in_flight)) => {
                                let response = response.await.map(Either::Left);
                                drop(in_flight);
                                response
                            }
                            Err(refusal) => refusal,
                        })
                    }
                })
            };
            let header_timeout = match admission {
                Admission::Served => config.header_read_timeout,
                Admission::OverCapacity => config.header_read_timeout.min(OVERFLOW_HEADER_TIMEOUT),
            };
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(effective_max_header_bytes(&config))
                .max_headers(MAX_HEADER_FIELDS)
                .keep_alive(admission == Admission::Served)
                .serve_connection(io, svc);
            tokio::pin!(conn);
            let evicted = async {
                match &slot {
                    Some(s) => s.evicted().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!(error = %e, %remote, "connection ended with error");
                    }
                }
                _ = async { stop.wait_for(|s| *s).await.is_ok() } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
                () = evicted => {
                    tracing::debug!(%remote, "idle the longest past the connection cap: closed");
                    conn.as_mut().graceful_shutdown();
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        () = tokio::time::sleep(EVICTION_GRACE) => {
                            if slot.as_ref().is_some_and(|s| s.busy()) {
                                let _ = conn.await;
                            }
                        }
                    }
                }
            }
            // Its place goes to the connection that evicted it, if one did.
            match &slot {
                Some(s) => s.release(permit),
                None => drop(permit),
            }
            drop(entry);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    let drained = tokio::time::timeout(config.shutdown_grace, async {
        while conns.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            remaining = conns.len(),
            "shutdown grace elapsed; dropping connections"
        );
        conns.abort_all();
    }
}

/// The size of a request's head as sent: request line, header lines, the blank line.
fn head_bytes<T>(req: &Request<T>) -> usize {
    let uri = req.uri();
    let target = uri.scheme_str().map_or(0, |s| s.len() + 3)
        + uri.authority().map_or(0, |a| a.as_str().len())
        + uri.path_and_query().map_or(1, |pq| pq.as_str().len());
    let line = req.method().as_str().len() + 1 + target + " HTTP/1.1\r\n".len();
    req.headers()
        .iter()
        .map(|(n, v)| n.as_str().len() + v.len() + 4)
        .sum::<usize>()
        + line
        + 2
}

/// A connection's answer to one request: the handler's, or the edge's refusal.
type Answered<B> = Response<Either<B, Full<Bytes>>>;

/// The edge's refusal as a closing response.
fn refused<B>(refuse: &Refuse, status: StatusCode) -> Answered<B> {
    let (content_type, body) = refuse(status);
    let mut r = Response::new(Either::Right(Full::new(body)));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r.headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    r
}

/// A connection past the cap: closes the connection accepted before it that has been idle the
/// longest (served, or itself waiting for room) and takes a place once one is free; when none is idle (or it takes longer
/// than [`EVICTION_GRACE`]), over capacity, holding its overflow permit. `None` when this
/// connection, idle while it waits, is closed to make room for a newer one.
async fn make_room(
    registry: &idle::Registry,
    entry: &idle::Entry,
    limit: &Arc<Semaphore>,
    over: OwnedSemaphorePermit,
    remote: SocketAddr,
) -> Option<(Admission, OwnedSemaphorePermit)> {
    if let Some(eviction) = registry.evict_oldest_idle(entry) {
        // The evicted connection's own place, handed over when it has gone; evicting one that
        // was itself waiting frees no place, so then the cap's queue.
        let room = async {
            match eviction.handoff {
                Some(handoff) => handoff.await.ok(),
                None => Arc::clone(limit).acquire_owned().await.ok(),
            }
        };
        tokio::select! {
            r = tokio::time::timeout(EVICTION_GRACE, room) => if let Ok(Some(p)) = r {
                return Some((Admission::Served, p));
            },
            () = entry.slot().evicted() => return None,
        }
    }
    tracing::warn!(%remote, "every connection busy at the connection cap: answered 503");
    Some((Admission::OverCapacity, over))
}

/// Completes on Ctrl-C or (on Unix) SIGTERM: the usual `shutdown` of [`serve`].
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use bytes::Bytes;
    use http_body_util::Full;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// An edge's refusal: its status in a small JSON body.
    fn test_refuse() -> Refuse {
        Arc::new(|status: hyper::StatusCode| {
            (
                "application/json",
                Bytes::from(format!("{{\"refused\":{}}}", status.as_u16())),
            )
        })
    }

    /// Sends `raw` on a new connection and reads to the end.
    async fn exchange(addr: SocketAddr, raw: &[u8]) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        // The server may answer and close before the whole request is written.
        let _ = s.write_all(raw).await;
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        String::from_utf8_lossy(&out).into_owned()
    }

    /// What hyper refuses before any handler runs is answered with the edge's body, closing;
    /// what it serves is untouched.
    #[tokio::test]
    async fn requests_hyper_refuses_are_answered_in_the_edges_shape() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(serve(
            listener,
            ServerConfig::default(),
            |_remote: SocketAddr, _admission: Admission| {
                |_req: Request<Incoming>| async {
                    let mut r = Response::new(Full::new(Bytes::from_static(b"fine")));
                    *r.status_mut() = hyper::StatusCode::NOT_FOUND;
                    r
                }
            },
            test_refuse(),
            std::future::pending(),
        ));
        let long_uri = format!("GET /{} HTTP/1.1\r\nhost: x\r\n\r\n", "a".repeat(70_000));
        let huge_header = format!(
            "GET / HTTP/1.1\r\nhost: x\r\nx-big: {}\r\n\r\n",
            "b".repeat(2_000_000)
        );
        for (raw, status) in [
            (long_uri.into_bytes(), 414),
            (huge_header.into_bytes(), 431),
            (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400),
        ] {
            let answer = exchange(addr, &raw).await;
            let want = format!("HTTP/1.1 {status} ");
            assert!(answer.starts_with(&want), "{answer:.200}");
            assert!(
                answer.contains("content-type: application/json\r\n"),
                "{answer:.200}"
            );
            assert!(answer.contains("connection: close\r\n"), "{answer:.200}");
            assert!(
                answer.ends_with(&format!("{{\"refused\":{status}}}")),
                "{answer:.200}"
            );
        }
        // A handler's own 404 without a content type is left as it is.
        let served = exchange(
            addr,
            b"GET /x HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
        )
        .await;
        assert!(served.starts_with("HTTP/1.1 404"), "{served}");
        assert!(served.ends_with("fine"), "{served}");
        server.abort();
    }

    /// The head limit holds to the byte, though hyper's read buffer only refuses a head
    /// somewhere between it and twice it: a head just over it is refused, one under it served.
    #[tokio::test]
    async fn the_head_limit_holds_exactly() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let config = ServerConfig {
            max_header_bytes: 10_000,
            ..ServerConfig::default()
        };
        tokio::spawn(serve(
            listener,
            config,
            |_remote: SocketAddr, _admission: Admission| {
                |_req: Request<Incoming>| async { Response::new(Full::new(Bytes::from("fine"))) }
            },
            test_refuse(),
            std::future::pending(),
        ));
        let head = |len: usize| {
            let pad = len - "GET /x HTTP/1.1\r\nconnection: close\r\nx-pad: \r\n\r\n".len();
            format!(
                "GET /x HTTP/1.1\r\nconnection: close\r\nx-pad: {}\r\n\r\n",
                "p".repeat(pad)
            )
        };
        // Exactly the limit, then one byte over.
        let at = head(10_000);
        assert_eq!(at.len(), 10_000);
        let served = exchange(addr, at.as_bytes()).await;
        assert!(served.starts_with("HTTP/1.1 200"), "{served:.200}");
        let refused = exchange(addr, head(10_001).as_bytes()).await;
        assert!(refused.starts_with("HTTP/1.1 431 "), "{refused:.200}");
        assert!(refused.contains("connection: close\r\n"), "{refused:.200}");
        assert!(refused.ends_with("{\"refused\":431}"), "{refused:.200}");
    }

    async fn get(addr: SocketAddr) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET /x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    #[test]
    fn a_declared_length_over_the_limit_is_seen_before_reading() {
        let with = |v: &str| {
            let mut h = hyper::HeaderMap::new();
            h.insert(hyper::header::CONTENT_LENGTH, v.parse().unwrap());
            h
        };
        assert!(declares_more_than(&with("11"), 10));
        assert!(!declares_more_than(&with("10"), 10));
        // Undeclared or unreadable lengths are left to the bounded read.
        assert!(!declares_more_than(&hyper::HeaderMap::new(), 10));
        assert!(!declares_more_than(&with("lots"), 10));
    }

    #[tokio::test]
    async fn serves_until_shutdown_and_finishes_in_flight_requests() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let config = ServerConfig {
            max_connections: 1,
            header_read_timeout: Duration::from_secs(5),
            shutdown_grace: Duration::from_secs(5),
            ..ServerConfig::default()
        };
        let server = tokio::spawn(serve(
            listener,
            config,
            |remote: SocketAddr, _admission: Admission| {
                move |req: Request<Incoming>| async move {
                    // A slow handler, so shutdown arrives while the request is in flight.
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    Response::new(Full::new(Bytes::from(format!(
                        "{} from {}",
                        req.uri().path(),
                        remote.ip()
                    ))))
                }
            },
            test_refuse(),
            async {
                let _ = stop_rx.await;
            },
        ));
        let first = tokio::spawn(get(addr));
        tokio::time::sleep(Duration::from_millis(50)).await;
        stop_tx.send(()).unwrap();
        let answer = first.await.unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with("/x from 127.0.0.1"), "{answer}");
        server.await.unwrap();
        // Stopped: nothing listens any more.
        assert!(tokio::net::TcpStream::connect(addr).await.is_err());
    }

    /// A server with a cap of one whose handler answers "served" or "over", and on `/wait`
    /// waits for `release` first.
    async fn capped(release: Arc<tokio::sync::Notify>) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let config = ServerConfig {
            max_connections: 1,
            header_read_timeout: Duration::from_secs(30),
            ..ServerConfig::default()
        };
        tokio::spawn(serve(
            listener,
            config,
            move |_remote: SocketAddr, admission: Admission| {
                let release = Arc::clone(&release);
                move |req: Request<Incoming>| {
                    let release = Arc::clone(&release);
                    async move {
                        if req.uri().path() == "/wait" {
                            release.notified().await;
                        }
                        let said = match admission {
                            Admission::Served => "served",
                            Admission::OverCapacity => "over",
                        };
                        Response::new(Full::new(Bytes::from(said)))
                    }
                }
            },
            test_refuse(),
            std::future::pending(),
        ));
        addr
    }

    /// Sends a keep-alive GET of `path` on a new connection and reads to the end; the timeout
    /// only turns a hang into a failure (it is far longer than any answer takes, and far
    /// shorter than the 30 s header timeout that would otherwise end a wait).
    async fn one_request(addr: SocketAddr, path: &str) -> String {
        let go = async {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            s.write_all(
                format!("GET {path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n").as_bytes(),
            )
            .await
            .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).await.unwrap();
            out
        };
        tokio::time::timeout(Duration::from_secs(10), go)
            .await
            .expect("a client past the cap waited")
    }

    /// Past the cap a new connection closes the one idle the longest and is served in its place.
    #[tokio::test]
    async fn past_the_cap_the_connection_idle_the_longest_makes_room() {
        let addr = capped(Arc::default()).await;
        // The one slot, held by an idle keep-alive connection.
        let mut held = tokio::net::TcpStream::connect(addr).await.unwrap();
        held.write_all(b"GET /x HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .unwrap();
        let mut buf = [0u8; 1024];
        let n = held.read(&mut buf).await.unwrap();
        assert!(String::from_utf8_lossy(&buf[..n]).ends_with("served"));
        let second = one_request(addr, "/x").await;
        assert!(second.starts_with("HTTP/1.1 200"), "{second}");
        assert!(second.ends_with("served"), "{second}");
        // The idle one was closed to make room.
        let closed = tokio::time::timeout(Duration::from_secs(10), held.read(&mut buf)).await;
        assert!(matches!(closed, Ok(Ok(0)) | Ok(Err(_))), "{closed:?}");
    }

    /// A burst of idle connections, each past the cap of one, then a client: each newcomer
    /// closes the earlier one idle the longest, including those still waiting for room, and
    /// never a later one, so the client is served however the connections' tasks interleave.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_burst_of_idle_connections_never_locks_out_the_next_client() {
        for _ in 0..20 {
            let addr = capped(Arc::default()).await;
            let mut idle = Vec::new();
            for _ in 0..8 {
                idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
            }
            let answer = one_request(addr, "/x").await;
            assert!(answer.ends_with("served"), "{answer}");
        }
    }

    /// A flood of idle connections far past the cap, then a client: the client takes the place
    /// of the served connection it evicts, ahead of every flooding connection queued for one,
    /// so it is served rather than answered "over" after the eviction grace.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_behind_a_flood_takes_an_evicted_connections_place() {
        let addr = capped(Arc::default()).await;
        let mut flood = Vec::new();
        for _ in 0..300 {
            flood.push(tokio::net::TcpStream::connect(addr).await.unwrap());
        }
        for _ in 0..3 {
            let answer = one_request(addr, "/x").await;
            assert!(answer.ends_with("served"), "{answer}");
        }
    }

    /// Past the cap with every connection busy, a new connection is handed to the edge as over
    /// capacity (here it answers "over") and closed after that answer, while the busy one
    /// finishes its request.
    #[tokio::test]
    async fn past_the_cap_with_none_idle_a_connection_is_answered_at_once_and_closed() {
        let release = Arc::new(tokio::sync::Notify::new());
        let addr = capped(Arc::clone(&release)).await;
        let mut busy = tokio::net::TcpStream::connect(addr).await.unwrap();
        busy.write_all(b"GET /wait HTTP/1.1\r\nhost: x\r\n\r\n")
            .await
            .unwrap();
        // Let the server take the request into its handler.
        let mut over = String::new();
        for _ in 0..100 {
            over = one_request(addr, "/x").await;
            if over.ends_with("over") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(over.starts_with("HTTP/1.1 200"), "{over}");
        assert!(over.ends_with("over"), "{over}");
        release.notify_one();
        let mut buf = [0u8; 1024];
        let n = busy.read(&mut buf).await.unwrap();
        assert!(String::from_utf8_lossy(&buf[..n]).ends_with("served"));
    }
}
