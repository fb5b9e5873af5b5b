//! A small JSON-RPC client over hyper's HTTP/1 client with keep-alive pooling,
//! used by the follower that mirrors a node's index API and by tests.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Uri};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Largest response body the client reads (a full `getContainerRange` fits easily).
const MAX_RESPONSE_BYTES: usize = 256 << 20;

/// What can go wrong with a call.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The URL could not be parsed.
    #[error("invalid url {0:?}")]
    InvalidUrl(String),
    /// The server answered with a JSON-RPC error object.
    #[error("rpc error {code}: {message}")]
    Rpc {
        /// Error code (-32000 for service errors).
        code: i64,
        /// Error message.
        message: String,
        /// Raw JSON of `data`, if not null.
        data: Option<String>,
    },
    /// The server answered with a non-200 HTTP status.
    #[error("http status {status}: {body}")]
    Status {
        /// HTTP status code.
        status: u16,
        /// Body text (truncated to 1 KiB).
        body: String,
    },
    /// Connecting, sending or receiving failed.
    #[error("transport error: {0}")]
    Transport(String),
    /// The call did not complete within the client's timeout.
    #[error("request timed out after {0:?}")]
    Timeout(Duration),
    /// The response was not a JSON-RPC response or the result did not fit the type.
    #[error("decode error: {0}")]
    Decode(String),
}

#[derive(Serialize)]
struct Call<'a, P> {
    jsonrpc: &'static str,
    id: u64,
    method: &'a str,
    params: P,
}

#[derive(Deserialize)]
struct ErrorObject {
    code: i64,
    message: String,
    #[serde(default)]
    data: Option<Box<RawValue>>,
}

/// The envelope, its `result` borrowed from the body (a large result is not copied).
#[derive(Deserialize)]
struct ResponseEnvelope<'a> {
    /// Only a batch reads it (as our own numeric ids); a single call ignores its form.
    #[serde(default, borrow)]
    id: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default)]
    error: Option<ErrorObject>,
}

impl ErrorObject {
    fn into_error(self) -> ClientError {
        let data = self
            .data
            .map(|d| d.get().to_owned())
            .filter(|d| d != "null");
        ClientError::Rpc {
            code: self.code,
            message: self.message,
            data,
        }
    }
}

/// A call's `result` as JSON text, still inside the response body it came in: a caller with a
/// large result parses it where it likes (another thread) without a copy first.
#[derive(Debug, Clone)]
pub struct RawResult {
    /// The response body, checked as UTF-8 once when it arrived (shared by a batch's results).
    body: Arc<str>,
    /// Where the result's JSON is in `body`; `None` when the response had none (`null`).
    range: Option<std::ops::Range<usize>>,
}

impl RawResult {
    /// The result's JSON text (`null` when the response had none).
    pub fn json(&self) -> &str {
        self.range
            .clone()
            .and_then(|r| self.body.get(r))
            .unwrap_or("null")
    }
}

/// A JSON-RPC client for one URL (e.g. `http://127.0.0.1:9650/ext/index/X/tx`).
/// Cheap to share; connections are kept alive and reused.
#[derive(Debug)]
pub struct RpcClient {
    url: Uri,
    http: Client<HttpConnector, Full<Bytes>>,
    timeout: Duration,
    next_id: AtomicU64,
}

impl RpcClient {
    /// A client for `url` with a 30 s per-call timeout.
    pub fn new(url: &str) -> Result<Self, ClientError> {
        let url: Uri = url
            .parse()
            .map_err(|_| ClientError::InvalidUrl(url.to_owned()))?;
        if url.scheme_str() != Some("http") || url.host().is_none() {
            return Err(ClientError::InvalidUrl(url.to_string()));
        }
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        let http = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(60))
            .build(connector);
        Ok(Self {
            url,
            http,
            timeout: Duration::from_secs(30),
            next_id: AtomicU64::new(1),
        })
    }

    /// Sets the per-call timeout (connect, send and receive together).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Calls `method` with `params` (serialized as the `params` member) and decodes `result`.
    pub async fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        method: &str,
        params: P,
    ) -> Result<R, ClientError> {
        let raw = self.call_raw(method, params).await?;
        serde_json::from_str(raw.json()).map_err(|e| ClientError::Decode(e.to_string()))
    }

    /// [`RpcClient::call`] without decoding `result`: its JSON text, left in the response body.
    pub async fn call_raw<P: Serialize>(
        &self,
        method: &str,
        params: P,
    ) -> Result<RawResult, ClientError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = serde_json::to_vec(&Call {
            jsonrpc: "2.0",
            id,
            method,
            params,
        })
        .map_err(|e| ClientError::Decode(format!("encoding params: {e}")))?;
        let raw = self.send(body).await?;
        let env: ResponseEnvelope<'_> =
            serde_json::from_str(&raw).map_err(|e| ClientError::Decode(e.to_string()))?;
        let result = settle(&raw, env)?;
        Ok(RawResult {
            body: Arc::clone(&raw),
            range: result,
        })
    }

    /// Sends `calls` as one JSON-RPC batch and returns each call's outcome in the order given
    /// (the server may answer in any order; ids pair them). The outer error is the batch's:
    /// transport, HTTP status, timeout, or one error object answering the whole batch.
    pub async fn call_batch<P: Serialize>(
        &self,
        calls: &[(&str, P)],
    ) -> Result<Vec<Result<RawResult, ClientError>>, ClientError> {
        if calls.is_empty() {
            return Ok(Vec::new());
        }
        let n = u64::try_from(calls.len()).unwrap_or(u64::MAX);
        let first = self.next_id.fetch_add(n, Ordering::Relaxed);
        let batch: Vec<Call<'_, &P>> = calls
            .iter()
            .zip(first..)
            .map(|((method, params), id)| Call {
                jsonrpc: "2.0",
                id,
                method,
                params,
            })
            .collect();
        let body = serde_json::to_vec(&batch)
            .map_err(|e| ClientError::Decode(format!("encoding params: {e}")))?;
        let raw = self.send(body).await?;
        // An array of envelopes, or one envelope (an error) answering the whole batch. (Not an
        // untagged enum: serde buffers those, and a borrowed `RawValue` cannot come from a buffer.)
        let decode = |e: serde_json::Error| ClientError::Decode(e.to_string());
        let answers: Vec<ResponseEnvelope<'_>> = if raw.trim_start().starts_with('[') {
            serde_json::from_str(&raw).map_err(decode)?
        } else {
            let env: ResponseEnvelope<'_> = serde_json::from_str(&raw).map_err(decode)?;
            return Err(match env.error {
                Some(err) => err.into_error(),
                None => ClientError::Decode("a batch answered by one result".into()),
            });
        };
        let mut out: Vec<Option<Result<RawResult, ClientError>>> =
            (0..calls.len()).map(|_| None).collect();
        for env in answers {
            let id = env.id.and_then(|id| id.get().parse::<u64>().ok());
            let slot = id
                .and_then(|id| id.checked_sub(first))
                .and_then(|i| usize::try_from(i).ok())
                .and_then(|i| out.get_mut(i));
            let Some(slot) = slot else {
                return Err(ClientError::Decode(format!(
                    "batch answer with an id not asked: {}",
                    env.id.map_or("none", |id| id.get())
                )));
            };
            *slot = Some(settle(&raw, env).map(|range| RawResult {
                body: Arc::clone(&raw),
                range,
            }));
        }
        Ok(out
            .into_iter()
            .map(|r| r.unwrap_or_else(|| Err(ClientError::Decode("no answer in the batch".into()))))
            .collect())
    }

    /// Posts `body` within the timeout and returns the answer as text, checked as UTF-8 once
    /// (envelopes are then parsed from text and results need no check of their own).
    async fn send(&self, body: Vec<u8>) -> Result<Arc<str>, ClientError> {
        let raw = tokio::time::timeout(self.timeout, self.post(body))
            .await
            .map_err(|_| ClientError::Timeout(self.timeout))??;
        let raw = String::from_utf8(Vec::from(raw))
            .map_err(|e| ClientError::Decode(format!("response is not UTF-8: {e}")))?;
        Ok(Arc::from(raw))
    }

    async fn post(&self, body: Vec<u8>) -> Result<Bytes, ClientError> {
        let mut req = Request::new(Full::new(Bytes::from(body)));
        *req.method_mut() = Method::POST;
        *req.uri_mut() = self.url.clone();
        req.headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let resp = self
            .http
            .request(req)
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        let status = resp.status();
        let bytes = http_body_util::Limited::new(resp.into_body(), MAX_RESPONSE_BYTES)
            .collect()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?
            .to_bytes();
        if !status.is_success() {
            let text = String::from_utf8_lossy(bytes.get(..1024).unwrap_or(&bytes)).into_owned();
            return Err(ClientError::Status {
                status: status.as_u16(),
                body: text,
            });
        }
        Ok(bytes)
    }
}

/// An envelope's outcome: where its result lies in `body` (`None` for `null`), or its error.
fn settle(
    body: &str,
    env: ResponseEnvelope<'_>,
) -> Result<Option<std::ops::Range<usize>>, ClientError> {
    if let Some(err) = env.error {
        return Err(err.into_error());
    }
    // The borrowed result lies inside `body`: its offset is the distance between the two.
    Ok(env.result.map(|r| {
        let start = (r.get().as_ptr() as usize).saturating_sub(body.as_ptr() as usize);
        start..start + r.get().len()
    }))
}
