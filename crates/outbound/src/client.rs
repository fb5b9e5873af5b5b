//! [`Client`]: a request to an address the private-network rule allows ([`crate::net`]), in plain
//! HTTP/1.1 or over TLS ([`crate::tls`]), over a kept-alive connection to the same checked
//! destination when the client holds one ([`crate::pool`]) or a new one, the whole exchange
//! (redirects included) within one timeout, the answer's body capped. Redirects are refused (the
//! 3xx is the answer) or followed, each hop's host resolved and checked again.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Incoming};
use hyper::header::{CONNECTION, CONTENT_LENGTH, HOST, HeaderMap, LOCATION, USER_AGENT};
use hyper::{Method, StatusCode, Version};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::error::OutboundError;
use crate::net::{AllowList, resolve};
use crate::pool::{Conn, Destination, Pool, PoolConfig};
use crate::tls::{connector, server_name};
use crate::url::Target;

/// How long a finished connection may take to be ready for the next request before it is
/// closed instead of kept.
const READY: Duration = Duration::from_secs(1);

/// The most of an unread answer's body drained, after the answer, to keep its connection.
const MAX_DRAIN: usize = 64 << 10;

/// What a client does with a redirect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redirects {
    /// The 3xx is the answer.
    Refuse,
    /// A `GET` follows at most this many, each checked like the first request.
    Follow(u8),
}

/// How a [`Client`] reaches out.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// The private networks it may reach.
    pub allow: AllowList,
    /// The operator's option that allows networks, named in a refusal.
    pub allow_flag: String,
    /// The whole exchange (resolution, connection, TLS, every redirect, the body) within this.
    pub timeout: Duration,
    /// The largest body read, in bytes; a larger answer is [`OutboundError::TooLarge`].
    pub max_body: usize,
    /// What a redirect does.
    pub redirects: Redirects,
    /// The `User-Agent` header.
    pub user_agent: String,
    /// Roots trusted besides Mozilla's (DER): a private CA, a test's own root.
    pub extra_roots: Vec<Vec<u8>>,
    /// The idle keep-alive connections kept.
    pub pool: PoolConfig,
}

impl Default for ClientConfig {
    fn default() -> Self {
        Self {
            allow: AllowList::default(),
            allow_flag: "the operator's allow-private option".to_owned(),
            timeout: Duration::from_secs(10),
            max_body: 1 << 20,
            redirects: Redirects::Refuse,
            user_agent: "snowline/1".to_owned(),
            extra_roots: Vec::new(),
            pool: PoolConfig::default(),
        }
    }
}

/// One request.
#[derive(Debug, Clone)]
pub struct Request {
    method: Method,
    url: String,
    headers: Vec<(&'static str, String)>,
    body: Bytes,
    read_body: bool,
}

impl Request {
    /// `GET url`.
    pub fn get(url: &str) -> Self {
        Self {
            method: Method::GET,
            url: url.to_owned(),
            headers: Vec::new(),
            body: Bytes::new(),
            read_body: true,
        }
    }

    /// `POST url` with `body`.
    pub fn post(url: &str, body: Bytes) -> Self {
        Self {
            method: Method::POST,
            body,
            ..Self::get(url)
        }
    }

    /// Adds header `name: value`.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    /// Does not read the answer's body: only its status and headers count.
    pub fn status_only(mut self) -> Self {
        self.read_body = false;
        self
    }
}

/// An answer.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The body (empty for a [`Request::status_only`] request).
    pub body: Bytes,
    /// The URL that answered (after redirects).
    pub url: String,
    headers: HeaderMap,
}

impl Response {
    /// Whether the status is 2xx.
    pub fn is_success(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// Header `name`'s value, when present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

/// The outbound HTTP(S) client; its clones share its idle connections.
#[derive(Clone)]
pub struct Client {
    config: ClientConfig,
    tls: TlsConnector,
    pool: Arc<Pool>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// A client with `config`; an error when an extra root is not a certificate.
    pub fn new(config: ClientConfig) -> Result<Self, String> {
        let tls = connector(&config.extra_roots)?;
        let pool = Pool::new(config.pool);
        Ok(Self { config, tls, pool })
    }

    /// How this client reaches out.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Sends `req`, following redirects as configured, all within the timeout.
    pub async fn send(&self, req: Request) -> Result<Response, OutboundError> {
        let limit = self.config.timeout;
        match tokio::time::timeout(limit, self.follow(&req)).await {
            Ok(answer) => answer,
            Err(_) => Err(OutboundError::Timeout(format!(
                "{}: no complete answer within {limit:?}",
                req.url
            ))),
        }
    }

    async fn follow(&self, req: &Request) -> Result<Response, OutboundError> {
        let mut target = Target::parse(&req.url)?;
        let mut hops = 0u8;
        loop {
            let answer = self.exchange(&target, req).await?;
            let max = match self.config.redirects {
                Redirects::Follow(max)
                    if req.method == Method::GET && is_redirect(answer.status) =>
                {
                    max
                }
                _ => return Ok(answer),
            };
            if hops >= max {
                return Err(OutboundError::Redirect(format!(
                    "{}: more than {max} redirects",
                    req.url
                )));
            }
            let location = answer.header(LOCATION.as_str()).ok_or_else(|| {
                OutboundError::Redirect(format!(
                    "{} answered {} without a Location",
                    answer.url, answer.status
                ))
            })?;
            target = target.join(location)?;
            hops += 1;
        }
    }

    /// One exchange with `target`: its host resolved and the addresses checked (every time, a
    /// kept connection's included), over a kept connection to one of them or a new one.
    async fn exchange(&self, target: &Target, req: &Request) -> Result<Response, OutboundError> {
        let c = &self.config;
        let addrs = resolve(&target.host, target.port, &c.allow, &c.allow_flag).await?;
        let dests: Vec<Destination> = addrs
            .into_iter()
            .map(|addr| Destination {
                https: target.https,
                host: target.host.clone(),
                port: target.port,
                addr,
            })
            .collect();
        let kept = dests
            .iter()
            .find_map(|d| self.pool.take(d).map(|conn| (d, conn)));
        if let Some((dest, conn)) = kept {
            match self.http(conn, dest, target, req, true).await {
                // The server closed the kept connection before answering: a new one below.
                Err(Failed::Stale(_)) => {}
                done => return done.map_err(Failed::into_error),
            }
        }
        let mut last = OutboundError::Unreachable(format!("{} has no address", target.host));
        for dest in &dests {
            let stream = match TcpStream::connect(dest.addr).await {
                Ok(s) => s,
                Err(e) => {
                    last = OutboundError::Unreachable(format!("connecting to {}: {e}", dest.addr));
                    continue;
                }
            };
            // A request is written in pieces; Nagle's algorithm would hold the last one back.
            drop(stream.set_nodelay(true));
            let conn = if target.https {
                let name = server_name(&target.host)?;
                let tls = self.tls.connect(name, stream).await.map_err(|e| {
                    OutboundError::Unreachable(format!(
                        "TLS with {} at {}: {e}",
                        target.host, dest.addr
                    ))
                })?;
                handshake(TokioIo::new(tls), dest.addr).await?
            } else {
                handshake(TokioIo::new(stream), dest.addr).await?
            };
            return self
                .http(conn, dest, target, req, false)
                .await
                .map_err(Failed::into_error);
        }
        Err(last)
    }

    /// `req` over `conn` (`kept`: taken from the pool), which goes back to the pool when the
    /// server keeps it open.
    async fn http(
        &self,
        mut conn: Conn,
        dest: &Destination,
        target: &Target,
        req: &Request,
        kept: bool,
    ) -> Result<Response, Failed> {
        let addr = dest.addr;
        let failed = |e: &hyper::Error| OutboundError::Unreachable(format!("{addr}: {e}"));
        let mut builder = hyper::Request::builder()
            .method(req.method.clone())
            .uri(target.path())
            .header(HOST, target.authority())
            .header(USER_AGENT, self.config.user_agent.as_str());
        for (name, value) in &req.headers {
            builder = builder.header(*name, value.as_str());
        }
        let request = builder
            .body(Full::new(req.body.clone()))
            .map_err(|e| Failed::Final(OutboundError::Url(format!("{}: {e}", req.url))))?;
        let resp = match conn.sender.try_send_request(request).await {
            Ok(resp) => resp,
            Err(e) => {
                let unsent = e.message().is_some();
                let e = e.into_error();
                // A kept connection the server closed while it was idle: the request was not
                // read (or not answered, and at least once allows sending it again).
                let closed = e.is_canceled() || e.is_closed() || e.is_incomplete_message();
                return Err(if kept && (unsent || closed) {
                    Failed::Stale(failed(&e))
                } else {
                    Failed::Final(failed(&e))
                });
            }
        };
        let (parts, mut body) = resp.into_parts();
        let reusable = keeps_alive(parts.version, &parts.headers);
        let mut buf = BytesMut::new();
        if req.read_body {
            let max = self.config.max_body;
            let declared = parts
                .headers
                .get(CONTENT_LENGTH)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok());
            if declared.is_some_and(|n| n > max as u64) {
                return Err(Failed::Final(OutboundError::TooLarge { limit: max }));
            }
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|e| Failed::Final(failed(&e)))?;
                if let Ok(data) = frame.into_data() {
                    if buf.len().saturating_add(data.len()) > max {
                        return Err(Failed::Final(OutboundError::TooLarge { limit: max }));
                    }
                    buf.extend_from_slice(&data);
                }
            }
            if reusable {
                keep(&self.pool, dest.clone(), conn).await;
            }
        } else if reusable && body.is_end_stream() {
            keep(&self.pool, dest.clone(), conn).await;
        } else if reusable {
            // The answer does not wait for a body nobody reads; the connection is kept once
            // the body is drained, if it is small and comes within the timeout.
            let (pool, dest, limit) = (Arc::clone(&self.pool), dest.clone(), self.config.timeout);
            tokio::spawn(async move {
                if let Ok(true) = tokio::time::timeout(limit, drain(&mut body)).await {
                    keep(&pool, dest, conn).await;
                }
            });
        }
        Ok(Response {
            status: parts.status.as_u16(),
            body: buf.freeze(),
            url: target.uri.to_string(),
            headers: parts.headers,
        })
    }
}

/// Why [`Client::http`] got no answer.
enum Failed {
    /// A kept connection turned out closed: worth one try on a new connection.
    Stale(OutboundError),
    /// The exchange failed.
    Final(OutboundError),
}

impl Failed {
    fn into_error(self) -> OutboundError {
        match self {
            Failed::Stale(e) | Failed::Final(e) => e,
        }
    }
}

/// An HTTP/1.1 connection over `io` to `addr`, driven by a task of its own.
async fn handshake<T>(io: T, addr: SocketAddr) -> Result<Conn, OutboundError>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| OutboundError::Unreachable(format!("{addr}: {e}")))?;
    let task = tokio::spawn(connection);
    Ok(Conn::new(sender, task.abort_handle()))
}

/// Whether the server keeps the connection open after this answer: HTTP/1.1 without
/// `Connection: close` (RFC 9112 section 9.3).
fn keeps_alive(version: Version, headers: &HeaderMap) -> bool {
    version == Version::HTTP_11
        && !headers.get_all(CONNECTION).iter().any(|v| {
            v.to_str()
                .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("close")))
        })
}

/// Puts `conn` in `pool` once it is ready for another request.
async fn keep(pool: &Arc<Pool>, dest: Destination, mut conn: Conn) {
    if let Ok(Ok(())) = tokio::time::timeout(READY, conn.sender.ready()).await {
        pool.put(dest, conn);
    }
}

/// Reads `body` to its end; false when it fails or passes [`MAX_DRAIN`] bytes.
async fn drain(body: &mut Incoming) -> bool {
    let mut read = 0usize;
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(frame) => {
                read = read.saturating_add(frame.data_ref().map_or(0, Bytes::len));
                if read > MAX_DRAIN {
                    return false;
                }
            }
            Err(_) => return false,
        }
    }
    true
}

fn is_redirect(status: u16) -> bool {
    StatusCode::from_u16(status).is_ok_and(|s| s.is_redirection() && status != 304)
}
