//! The answer as hyper sends it: the reply, or the error in the app's profile, with the
//! pipeline's headers first.

use super::conn::{HttpResponse, Shared};
use crate::error::ApiError;
use crate::reply::{JSON_CONTENT_TYPE, Reply};
use http_body_util::Full;
use hyper::Response;
use hyper::header::{CONNECTION, CONTENT_TYPE, HeaderMap, HeaderValue};

/// The response: `headers` (the pipeline's: rate-limit headers and `allow`), `content-type`
/// (JSON, unless the body is empty), then the reply's own headers.
pub(super) fn respond(
    shared: &Shared,
    result: Result<Reply, ApiError>,
    headers: HeaderMap,
    close: bool,
) -> HttpResponse {
    let reply = match result {
        Ok(r) => r,
        Err(e) => Reply::bytes(e.status, shared.app.error_body(&e)),
    };
    let empty = reply.body.is_empty();
    let mut resp = Response::new(Full::new(reply.body));
    *resp.status_mut() = reply.status;
    *resp.headers_mut() = headers;
    let h = resp.headers_mut();
    // An empty body (a 201 of `reindexNft`) is no JSON document: labelled as one, clients that
    // parse what a JSON content-type announces fail on it.
    if !empty {
        h.insert(CONTENT_TYPE, HeaderValue::from_static(JSON_CONTENT_TYPE));
    }
    for (n, v) in reply.headers {
        if n == CONTENT_TYPE {
            h.insert(n, v);
        } else {
            h.append(n, v);
        }
    }
    if close {
        h.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    resp
}
