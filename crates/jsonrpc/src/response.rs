//! Building HTTP responses byte-for-byte as gorilla/rpc v2 and Go's net/http write them.

use crate::envelope::Envelope;
use crate::error::RpcError;
use crate::gojson::text;
use crate::service::{RESULT_HEAD, Reply};
use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::{Response, StatusCode};

/// The response type of every handler in this crate.
pub type HttpResponse = Response<Full<Bytes>>;

/// `Content-Type` of JSON-RPC answers (gorilla json2 `writeServerResponse`).
pub const JSON_CONTENT_TYPE: &str = "application/json; charset=utf-8";
/// `Content-Type` of plain-text answers (gorilla `rpc.WriteError`, Go `http.Error`).
pub const TEXT_CONTENT_TYPE: &str = "text/plain; charset=utf-8";

/// A response with a body and a content type.
pub fn with_body(
    status: StatusCode,
    content_type: &'static str,
    body: impl Into<Bytes>,
) -> HttpResponse {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

/// A plain-text answer as gorilla's `rpc.WriteError` writes it (no trailing newline).
pub fn text(status: StatusCode, msg: impl Into<String>) -> HttpResponse {
    with_body(status, TEXT_CONTENT_TYPE, msg.into())
}

/// How HTTP-level refusals are written: requests refused before a JSON-RPC call is read (not
/// HTTP/1.1, a URI or head too large, a method other than POST, a content type other than JSON, a
/// body too large or too slow). Set with [`crate::Router::refusals`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Refusals {
    /// As avalanchego (gorilla/rpc and Go's `net/http`) writes them: plain text.
    #[default]
    GoText,
    /// As a JSON-RPC error object with the same HTTP status:
    /// `{"jsonrpc":"2.0","error":{"code":-32600,"message":"..."},"id":null}` (`id` null: no call
    /// was read), the message stating the limit that refused the request.
    JsonRpc,
}

/// The refusal of a request with `status`: `go_text` verbatim as plain text under
/// [`Refusals::GoText`], else a JSON-RPC error object (`-32600`) whose message is `message`.
pub(crate) fn refusal(
    style: Refusals,
    status: StatusCode,
    go_text: String,
    message: &str,
) -> HttpResponse {
    match style {
        Refusals::GoText => text(status, go_text),
        Refusals::JsonRpc => with_body(status, JSON_CONTENT_TYPE, refusal_json(message)),
    }
}

/// The JSON-RPC error object of a refusal (`-32600`, `id` null).
pub(crate) fn refusal_json(message: &str) -> Vec<u8> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "error": { "code": crate::INVALID_REQUEST, "message": message },
        "id": null,
    });
    body.to_string().into_bytes()
}

/// An empty 200 (notification).
pub(crate) fn empty() -> HttpResponse {
    Response::new(Full::new(Bytes::new()))
}

fn push_raw_or_null(out: &mut Vec<u8>, body: &[u8], r: &Option<std::ops::Range<usize>>) {
    match r.clone().and_then(|r| body.get(r)) {
        Some(raw) => text::write_compact(out, raw),
        None => out.extend_from_slice(b"null"),
    }
}

/// `{"jsonrpc":"2.0","result":R,"id":ID}\n`.
pub(crate) fn result_body(body: &[u8], env: &Envelope, reply: Reply) -> Vec<u8> {
    let mut out = if reply.room == RESULT_HEAD.len() && text::is_html_safe(reply.as_bytes()) {
        // The common case: the reply's own buffer, its room filled with the head.
        let mut buf = reply.buf;
        if let Some(head) = buf.get_mut(..RESULT_HEAD.len()) {
            head.copy_from_slice(RESULT_HEAD);
        }
        buf
    } else {
        let result = reply.as_bytes();
        let mut out = Vec::with_capacity(result.len() + 48);
        out.extend_from_slice(RESULT_HEAD);
        text::write_html_safe(&mut out, result);
        out
    };
    out.extend_from_slice(b",\"id\":");
    push_raw_or_null(&mut out, body, &env.id);
    out.extend_from_slice(b"}\n");
    out
}

/// gorilla's `serverRequest` rendered as Go would (the `data` of -32700/-32600).
pub(crate) fn request_data(body: &[u8], env: &Envelope) -> Vec<u8> {
    let mut out = Vec::with_capacity(64);
    out.extend_from_slice(b"{\"jsonrpc\":");
    text::write_string(&mut out, &env.version);
    out.extend_from_slice(b",\"method\":");
    text::write_string(&mut out, &env.method);
    out.extend_from_slice(b",\"params\":");
    push_raw_or_null(&mut out, body, &env.params);
    out.extend_from_slice(b",\"id\":");
    push_raw_or_null(&mut out, body, &env.id);
    out.push(b'}');
    out
}

/// `{"jsonrpc":"2.0","error":{"code":C,"message":M,"data":D},"id":ID}\n`.
pub(crate) fn error_body(body: &[u8], env: &Envelope, err: &RpcError) -> Vec<u8> {
    let mut out = Vec::with_capacity(err.message.len() + 96);
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"error\":{\"code\":");
    out.extend_from_slice(err.code.to_string().as_bytes());
    out.extend_from_slice(b",\"message\":");
    text::write_string(&mut out, &err.message);
    out.extend_from_slice(b",\"data\":");
    match &err.data {
        Some(d) => text::write_compact(&mut out, d),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b"},\"id\":");
    push_raw_or_null(&mut out, body, &env.id);
    out.extend_from_slice(b"}\n");
    out
}
