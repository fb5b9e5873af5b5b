//! One JSON-RPC call, from the request head and body to the response, in the
//! order gorilla/rpc v2 `Server.ServeHTTP` checks things.

use crate::envelope::{self, Envelope};
use crate::error::{INVALID_REQUEST, PARSE_ERROR, RpcError};
use crate::gate::CallOutcome;
use crate::params::Params;
use crate::response::{self, HttpResponse, JSON_CONTENT_TYPE, Refusals};
use crate::service::{Endpoint, RequestContext};
use bytes::Bytes;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Method, StatusCode};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// Checks done before the body is read: POST only, then the content type.
pub(crate) fn precheck(
    parts: &hyper::http::request::Parts,
    style: Refusals,
) -> Result<(), Box<HttpResponse>> {
    if parts.method != Method::POST {
        let msg = format!("rpc: POST method required, received {}", parts.method);
        return Err(Box::new(response::refusal(
            style,
            StatusCode::METHOD_NOT_ALLOWED,
            msg.clone(),
            &msg,
        )));
    }
    // Go's Header.Get: first value; everything from the first ';' dropped; no trimming.
    let raw = parts
        .headers
        .get(CONTENT_TYPE)
        .map(|v| v.as_bytes())
        .unwrap_or_default();
    let ct = raw.split(|&c| c == b';').next().unwrap_or_default();
    if !ct.eq_ignore_ascii_case(b"application/json") {
        let shown = String::from_utf8_lossy(ct);
        let msg = format!("rpc: unrecognized Content-Type: {shown}");
        let cut: String = shown.chars().take(64).collect();
        let json = format!(
            "rpc: unrecognized Content-Type: {cut:?}; the only one accepted is application/json"
        );
        return Err(Box::new(response::refusal(
            style,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            msg,
            &json,
        )));
    }
    Ok(())
}

fn json_response(body: Vec<u8>, nosniff: bool) -> HttpResponse {
    let mut r = response::with_body(StatusCode::OK, JSON_CONTENT_TYPE, body);
    if nosniff {
        r.headers_mut().insert(
            "x-content-type-options",
            HeaderValue::from_static("nosniff"),
        );
    }
    r
}

fn error_response(body: &[u8], env: &Envelope, err: &RpcError, nosniff: bool) -> HttpResponse {
    // Notifications get no answer, except parse errors (gorilla writeServerResponse).
    if env.id.is_none() && err.code != PARSE_ERROR {
        let mut r = response::empty();
        if nosniff {
            r.headers_mut().insert(
                "x-content-type-options",
                HeaderValue::from_static("nosniff"),
            );
        }
        return r;
    }
    json_response(response::error_body(body, env, err), nosniff)
}

/// What a call was and how it ended, for metering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Called {
    /// The method, when the envelope was read.
    pub(crate) method: Option<String>,
    /// The code of the error object answered, if one was.
    pub(crate) rpc_error: Option<i32>,
    /// How it ended.
    pub(crate) outcome: CallOutcome,
}

impl Called {
    fn invalid(method: Option<&str>, err: &RpcError) -> Self {
        Self {
            method: method.map(str::to_owned),
            rpc_error: Some(err.code),
            outcome: CallOutcome::Invalid,
        }
    }
}

/// Runs one call. `timeout` bounds the handler (inline handlers cannot be interrupted).
pub(crate) async fn call(
    endpoint: &Endpoint,
    parts: hyper::http::request::Parts,
    body: Bytes,
    remote_addr: Option<SocketAddr>,
    timeout: Duration,
) -> (HttpResponse, Called) {
    let env = match envelope::decode(&body) {
        Ok(env) => env,
        Err(e) => {
            let data = response::request_data(&body, &e.envelope);
            let err = RpcError::with_code(PARSE_ERROR, e.message, Some(data));
            let called = Called::invalid(None, &err);
            return (error_response(&body, &e.envelope, &err, false), called);
        }
    };
    if env.version != "2.0" {
        let data = response::request_data(&body, &env);
        let err = RpcError::with_code(INVALID_REQUEST, "jsonrpc must be 2.0", Some(data));
        let called = Called::invalid(Some(&env.method), &err);
        return (error_response(&body, &env, &err, false), called);
    }
    let handler = match endpoint.lookup(&env.method) {
        Ok(h) => h.clone(),
        Err(e) => {
            let err = RpcError::server(e);
            let called = Called::invalid(Some(&env.method), &err);
            return (error_response(&body, &env, &err, false), called);
        }
    };
    let ctx = Arc::new(RequestContext {
        parts,
        remote_addr,
        method: env.method.clone(),
    });
    let params = Params::new(body.clone(), env.params.clone());
    let (outcome, timed_out) = match tokio::time::timeout(timeout, handler.call(ctx, params)).await
    {
        Ok(r) => (r, false),
        Err(_) => (
            Err(RpcError::server(format!(
                "request timed out after {}ms",
                timeout.as_millis()
            ))),
            true,
        ),
    };
    match outcome {
        Ok(reply) => {
            let called = Called {
                method: Some(env.method.clone()),
                rpc_error: None,
                outcome: CallOutcome::Success,
            };
            if env.id.is_none() {
                let mut r = response::empty();
                r.headers_mut().insert(
                    "x-content-type-options",
                    HeaderValue::from_static("nosniff"),
                );
                return (r, called);
            }
            let r = json_response(response::result_body(&body, &env, reply), true);
            (r, called)
        }
        Err(e) => {
            let nosniff = !e.before_call;
            let mut called = Called::invalid(Some(&env.method), &e);
            if timed_out {
                called.outcome = CallOutcome::Failed;
            }
            (error_response(&body, &env, &e, nosniff), called)
        }
    }
}
