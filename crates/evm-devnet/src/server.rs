//! The devnet's JSON-RPC server: anything that [`Answers`] calls (a [`Recording`], the synthetic
//! chain of [`crate::synth`]) served as a JSON-RPC 2.0 node over HTTP/1 (POST on any path, single
//! and batched requests), so tests and benchmarks read blocks without anvil.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;

use crate::error::DevnetError;
use crate::replay::{Recording, RpcError};

/// Largest request body read (a batch of thousands of calls fits).
const MAX_REQUEST_BYTES: usize = 16 << 20;

/// What a JSON-RPC node built on [`serve`] answers: one call's result as JSON text, or its error.
pub trait Answers: Send + Sync + 'static {
    /// The answer to `method` with `params` (`Null` when the call had none).
    fn answer(&self, method: &str, params: &Value) -> Result<String, RpcError>;
}

impl Answers for Recording {
    fn answer(&self, method: &str, params: &Value) -> Result<String, RpcError> {
        Recording::answer(self, method, params)
    }
}

/// Serves `recording` (or any other [`Answers`]) on `listener` until the task is dropped or
/// accepting fails.
pub async fn serve<A: Answers>(listener: TcpListener, recording: Arc<A>) -> std::io::Result<()> {
    loop {
        let (stream, _) = listener.accept().await?;
        let recording = Arc::clone(&recording);
        tokio::spawn(async move {
            let svc = service_fn(move |req| {
                let recording = Arc::clone(&recording);
                async move { Ok::<_, Infallible>(handle(req, &*recording).await) }
            });
            // A client that hangs up mid-request ends only its own connection.
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), svc)
                .await;
        });
    }
}

/// A recording served by [`serve`] on a free loopback port (see [`spawn_replay`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalReplay {
    /// The node's JSON-RPC URL, `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The recorded head block: where an indexer of the recording stops.
    pub head: u64,
}

/// Parses `text` (a recording, see [`crate::record()`]) and serves it on a free loopback port
/// from a spawned task, so tests index recorded blocks through JSON-RPC as from a node, without
/// anvil. Needs a tokio runtime; the server lives as long as the runtime.
pub async fn spawn_replay(text: &str) -> Result<LocalReplay, DevnetError> {
    let recording = Recording::parse(text)?;
    let head = recording
        .head()
        .ok_or_else(|| DevnetError::Fixture("no eth_blockNumber recorded".into()))?;
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(DevnetError::Listen)?;
    let addr = listener.local_addr().map_err(DevnetError::Listen)?;
    tokio::spawn(serve(listener, Arc::new(recording)));
    Ok(LocalReplay {
        url: format!("http://{addr}/"),
        head,
    })
}

async fn handle<A: Answers>(req: Request<Incoming>, recording: &A) -> Response<Full<Bytes>> {
    if req.method() != Method::POST {
        return reply(
            StatusCode::METHOD_NOT_ALLOWED,
            "POST a JSON-RPC request".into(),
        );
    }
    let body = match Limited::new(req.into_body(), MAX_REQUEST_BYTES)
        .collect()
        .await
    {
        Ok(b) => b.to_bytes(),
        Err(_) => return reply(StatusCode::PAYLOAD_TOO_LARGE, "request too large".into()),
    };
    match answer_body(&body, recording) {
        Some(json) => reply(StatusCode::OK, json),
        // Only notifications: nothing to say.
        None => Response::builder()
            .status(StatusCode::NO_CONTENT)
            .body(Full::new(Bytes::new()))
            .unwrap_or_default(),
    }
}

fn reply(status: StatusCode, body: String) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() = status;
    resp.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    resp
}

/// The response body to a request body: one response, an array for a batch, `None` when
/// every call was a notification.
pub(crate) fn answer_body<A: Answers>(body: &[u8], recording: &A) -> Option<String> {
    let Ok(request) = serde_json::from_slice::<Value>(body) else {
        return Some(envelope(&Value::Null, Err(error(-32700, "parse error"))));
    };
    match request {
        Value::Array(calls) if calls.is_empty() => Some(envelope(
            &Value::Null,
            Err(error(-32600, "invalid request: empty batch")),
        )),
        Value::Array(calls) => {
            let answers: Vec<String> = calls
                .iter()
                .filter_map(|c| answer_call(c, recording))
                .collect();
            (!answers.is_empty()).then(|| format!("[{}]", answers.join(",")))
        }
        call => answer_call(&call, recording),
    }
}

/// One call's response text; `None` for a notification (no `id`).
fn answer_call<A: Answers>(call: &Value, recording: &A) -> Option<String> {
    let Some(obj) = call.as_object() else {
        return Some(envelope(
            &Value::Null,
            Err(error(-32600, "invalid request")),
        ));
    };
    let id = obj.get("id")?;
    let Some(method) = obj.get("method").and_then(Value::as_str) else {
        return Some(envelope(
            id,
            Err(error(-32600, "invalid request: no method")),
        ));
    };
    let params = obj.get("params").unwrap_or(&Value::Null);
    Some(envelope(id, recording.answer(method, params)))
}

pub(crate) fn error(code: i64, message: &str) -> RpcError {
    RpcError {
        code,
        message: message.to_owned(),
        data: None,
    }
}

fn envelope(id: &Value, answer: Result<String, RpcError>) -> String {
    match answer {
        Ok(result) => format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{result}}}"),
        Err(e) => format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{}}}",
            e.to_json()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec() -> Recording {
        Recording::parse(
            "{\"method\":\"eth_chainId\",\"params\":[],\"result\":\"0xa868\"}\n\
             {\"method\":\"eth_blockNumber\",\"params\":[],\"result\":\"0x0\"}\n",
        )
        .unwrap()
    }

    #[test]
    fn single_batch_notification_and_garbage() {
        let r = rec();
        let one = answer_body(br#"{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}"#, &r);
        assert_eq!(
            one.as_deref(),
            Some(r#"{"jsonrpc":"2.0","id":7,"result":"0xa868"}"#)
        );
        let batch = answer_body(
            br#"[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]},
                {"jsonrpc":"2.0","method":"eth_chainId"},
                {"jsonrpc":"2.0","id":"b","method":"nope","params":[]}]"#,
            &r,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&batch).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
        assert_eq!(v[0]["result"], "0x0");
        assert_eq!(v[1]["id"], "b");
        assert_eq!(v[1]["error"]["code"], -32601);
        assert_eq!(
            answer_body(br#"{"jsonrpc":"2.0","method":"eth_chainId"}"#, &r),
            None
        );
        let bad: Value = serde_json::from_str(&answer_body(b"{", &r).unwrap()).unwrap();
        assert_eq!(bad["error"]["code"], -32700);
        let empty: Value = serde_json::from_str(&answer_body(b"[]", &r).unwrap()).unwrap();
        assert_eq!(empty["error"]["code"], -32600);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_body(body in proptest::collection::vec(proptest::num::u8::ANY, 0..256)) {
            let _ = answer_body(&body, &rec());
        }
    }
}
