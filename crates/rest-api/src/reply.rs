//! A handler's successful answer: status, JSON body bytes and extra headers.
//!
//! Response types must never serialize `null` for an absent optional field (the
//! official client rejects it): mark every `Option` field
//! `#[serde(skip_serializing_if = "Option::is_none")]`.

use crate::error::ApiError;
use bytes::Bytes;
use hyper::StatusCode;
use hyper::header::{HeaderName, HeaderValue};
use serde::Serialize;

/// The bytes a JSON reply's buffer starts with: most answers fit, and a page of records grows
/// from there in a few copies rather than from serde_json's 128 bytes.
const JSON_START: usize = 4096;

/// The `content-type` of every JSON answer.
pub const JSON_CONTENT_TYPE: &str = "application/json";

/// A handler's answer; the body is sent as `application/json` unless a
/// `content-type` header is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The HTTP status (200 unless changed).
    pub status: StatusCode,
    /// The body bytes.
    pub body: Bytes,
    /// Headers added to the response (after the server's own).
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

impl Reply {
    /// 200 with `value` serialized as JSON; a serialization failure is a 500.
    pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<Reply, ApiError> {
        let mut body = Vec::with_capacity(JSON_START);
        serde_json::to_writer(&mut body, value)
            .map(|()| Reply::bytes(StatusCode::OK, body))
            .map_err(|e| ApiError::internal(format!("serializing the response failed: {e}")))
    }

    /// A reply with `status` and `body` taken as is.
    pub fn bytes(status: StatusCode, body: impl Into<Bytes>) -> Reply {
        Reply {
            status,
            body: body.into(),
            headers: Vec::new(),
        }
    }

    /// The same reply with another status (e.g. 201 for the glacier profile's POSTs).
    pub fn with_status(mut self, status: StatusCode) -> Reply {
        self.status = status;
        self
    }

    /// The same reply with one more header; a `content-type` here replaces the JSON one.
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Reply {
        self.headers.push((name, value));
        self
    }
}
