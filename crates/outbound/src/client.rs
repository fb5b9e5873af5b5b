//! [`Client`]: one request at a time over a fresh connection to an address the private-network
//! rule allows ([`crate::net`]), in plain HTTP/1.1 or over TLS ([`crate::tls`]), the whole
//! exchange (redirects included) within one timeout, the answer's body capped. Redirects are
//! refused (the 3xx is the answer) or followed, each hop's host resolved and checked again.

use std::net::SocketAddr;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_LENGTH, HOST, HeaderMap, LOCATION, USER_AGENT};
use hyper::{Method, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::error::OutboundError;
use crate::net::{AllowList, resolve};
use crate::tls::{connector, server_name};
use crate::url::Target;

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

/// The outbound HTTP(S) client.
#[derive(Clone)]
pub struct Client {
    config: ClientConfig,
    tls: TlsConnector,
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
        Ok(Self { config, tls })
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

    /// One exchange with `target`: resolved and checked, connected to a permitted address.
    async fn exchange(&self, target: &Target, req: &Request) -> Result<Response, OutboundError> {
        let c = &self.config;
        let addrs = resolve(&target.host, target.port, &c.allow, &c.allow_flag).await?;
        let mut last = OutboundError::Unreachable(format!("{} has no address", target.host));
        for addr in addrs {
            let stream = match TcpStream::connect(addr).await {
                Ok(s) => s,
                Err(e) => {
                    last = OutboundError::Unreachable(format!("connecting to {addr}: {e}"));
                    continue;
                }
            };
            if !target.https {
                return self.http(TokioIo::new(stream), addr, target, req).await;
            }
            let name = server_name(&target.host)?;
            let tls = self.tls.connect(name, stream).await.map_err(|e| {
                OutboundError::Unreachable(format!("TLS with {} at {addr}: {e}", target.host))
            })?;
            return self.http(TokioIo::new(tls), addr, target, req).await;
        }
        Err(last)
    }

    async fn http<T>(
        &self,
        io: T,
        addr: SocketAddr,
        target: &Target,
        req: &Request,
    ) -> Result<Response, OutboundError>
    where
        T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
    {
        let failed = |e: hyper::Error| OutboundError::Unreachable(format!("{addr}: {e}"));
        let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
            .await
            .map_err(failed)?;
        let conn = tokio::spawn(conn);
        let answer = async {
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
                .map_err(|e| OutboundError::Url(format!("{}: {e}", req.url)))?;
            let resp = sender.send_request(request).await.map_err(failed)?;
            let (parts, mut body) = resp.into_parts();
            let mut buf = BytesMut::new();
            if req.read_body {
                let max = self.config.max_body;
                let declared = parts
                    .headers
                    .get(CONTENT_LENGTH)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse::<u64>().ok());
                if declared.is_some_and(|n| n > max as u64) {
                    return Err(OutboundError::TooLarge { limit: max });
                }
                while let Some(frame) = body.frame().await {
                    if let Ok(data) = frame.map_err(failed)?.into_data() {
                        if buf.len().saturating_add(data.len()) > max {
                            return Err(OutboundError::TooLarge { limit: max });
                        }
                        buf.extend_from_slice(&data);
                    }
                }
            }
            Ok(Response {
                status: parts.status.as_u16(),
                body: buf.freeze(),
                url: target.uri.to_string(),
                headers: parts.headers,
            })
        }
        .await;
        conn.abort();
        answer
    }
}

fn is_redirect(status: u16) -> bool {
    StatusCode::from_u16(status).is_ok_and(|s| s.is_redirection() && status != 304)
}
