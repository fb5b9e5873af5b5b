//! The error answer of every endpoint (`ApiError`), the compatibility profiles that
//! shape it, and the crate's own error enum (`RestError`).

use bytes::Bytes;
use hyper::StatusCode;

/// Which service's behaviour to mimic where the spec and the real service differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// The spec: error `message` is always a string.
    #[default]
    Spec,
    /// The real (Glacier) service: 400 messages are an array of strings, as its examples.
    Glacier,
}

/// An error answer: an HTTP status and a message, rendered as the spec's error body
/// `{"message": "...", "statusCode": 400, "error": "Bad Request"}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{status}: {message}")]
pub struct ApiError {
    /// The HTTP status (also the body's `statusCode`).
    pub status: StatusCode,
    /// What went wrong, naming the bad input.
    pub message: String,
}

/// A refused `{network}`: 400 when it is no network name, 404 when it is one not indexed here.
impl From<snowline_types::network::NetworkRefusal> for ApiError {
    fn from(e: snowline_types::network::NetworkRefusal) -> Self {
        match e {
            snowline_types::network::NetworkRefusal::Invalid(message) => Self::bad_request(message),
            e @ snowline_types::network::NetworkRefusal::NotIndexed { .. } => {
                Self::not_found(e.to_string())
            }
        }
    }
}

impl ApiError {
    /// An error with any status; prefer the named constructors.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    /// 400 Bad Request: the client's input is invalid.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 401 Unauthorized: the presented API key is unknown.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403 Forbidden: the API key is known but may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, message)
    }

    /// 404 Not Found: no such route or resource.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }

    /// 405 Method Not Allowed: the path exists under other methods.
    pub fn method_not_allowed(message: impl Into<String>) -> Self {
        Self::new(StatusCode::METHOD_NOT_ALLOWED, message)
    }

    /// 413 Payload Too Large: the request body exceeds the server's limit.
    pub fn payload_too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// 429 Too Many Requests: the caller's rate limit is exhausted.
    pub fn too_many_requests(message: impl Into<String>) -> Self {
        Self::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// 500 Internal Server Error: a bug or an unexpected failure on our side.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// 502 Bad Gateway: an upstream (node, aggregator) answered badly.
    pub fn bad_gateway(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_GATEWAY, message)
    }

    /// 503 Service Unavailable: overloaded, timed out or not ready.
    pub fn service_unavailable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The body's `error` member: the reason phrase of the spec's table.
    pub fn reason(&self) -> &'static str {
        reason_phrase(self.status)
    }

    /// The JSON error body under `profile`, members in the spec's order
    /// (`message`, `statusCode`, `error`).
    pub fn body(&self, profile: Profile) -> Bytes {
        self.body_shaped(profile, false)
    }

    /// [`ApiError::body`], with `message` an array of one string whatever the status when
    /// `arrays` is set (the metrics service's spec: [`App::message_arrays`](crate::App::message_arrays)).
    pub fn body_shaped(&self, profile: Profile, arrays: bool) -> Bytes {
        #[derive(serde::Serialize)]
        #[serde(untagged)]
        enum Message<'a> {
            One(&'a str),
            Many([&'a str; 1]),
        }
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Body<'a> {
            message: Message<'a>,
            status_code: u16,
            error: &'static str,
        }
        let message = match profile {
            _ if arrays => Message::Many([self.message.as_str()]),
            Profile::Glacier if self.status == StatusCode::BAD_REQUEST => {
                Message::Many([self.message.as_str()])
            }
            _ => Message::One(&self.message),
        };
        let body = Body {
            message,
            status_code: self.status.as_u16(),
            error: self.reason(),
        };
        // Serializing strings and integers cannot fail; keep a valid body if it ever did.
        Bytes::from(serde_json::to_vec(&body).unwrap_or_else(|_| {
            br#"{"message":"internal error","statusCode":500,"error":"Internal Server Error"}"#
                .to_vec()
        }))
    }
}

/// The reason phrase the spec's error table gives a status (hyper's canonical one otherwise).
pub fn reason_phrase(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => status.canonical_reason().unwrap_or("Error"),
    }
}

/// Failures of this crate outside a request: building routes, binding, key lookups.
#[derive(Debug, thiserror::Error)]
pub enum RestError {
    /// Binding or inspecting the listening socket failed.
    #[error("listener error: {0}")]
    Io(#[from] std::io::Error),
    /// A route template is malformed.
    #[error("invalid route template {template:?}: {reason}")]
    Template {
        /// The template as given.
        template: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Two routes share a method and a template.
    #[error("duplicate route {method} {template}")]
    DuplicateRoute {
        /// The HTTP method.
        method: String,
        /// The template registered twice.
        template: String,
    },
    /// A rate-limit tier is configured with zero units.
    #[error("invalid rate limit for tier {tier:?}: {reason}")]
    RateLimit {
        /// The tier name.
        tier: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The key store could not answer a key lookup (answered as HTTP 500).
    #[error("API key lookup failed: {0}")]
    KeyLookup(String),
    /// The OpenAPI description could not be built (an embedded document does not parse, an
    /// alias names no reference operation).
    #[error("OpenAPI description: {0}")]
    OpenApi(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const STATUSES: [u16; 10] = [400, 401, 403, 404, 405, 413, 429, 500, 502, 503];

    proptest! {
        /// Every body is exactly `{message, statusCode, error}` with the status echoed and
        /// the message intact (a string, or under glacier a one-string array for 400).
        #[test]
        fn bodies_have_the_spec_shape(i in 0usize..STATUSES.len(), message in ".{0,40}", glacier: bool) {
            let status = StatusCode::from_u16(STATUSES[i]).unwrap();
            let profile = if glacier { Profile::Glacier } else { Profile::Spec };
            let e = ApiError::new(status, message.clone());
            let v: serde_json::Value = serde_json::from_slice(&e.body(profile)).unwrap();
            prop_assert_eq!(v.as_object().unwrap().len(), 3);
            prop_assert_eq!(&v["statusCode"], &serde_json::json!(STATUSES[i]));
            prop_assert_eq!(&v["error"], &serde_json::json!(reason_phrase(status)));
            let expected = if glacier && STATUSES[i] == 400 {
                serde_json::json!([message])
            } else {
                serde_json::json!(message)
            };
            prop_assert_eq!(&v["message"], &expected);
        }
    }

    #[test]
    fn members_come_in_the_specs_order() {
        let body = ApiError::not_found("no such chain").body(Profile::Spec);
        assert_eq!(
            std::str::from_utf8(&body).unwrap(),
            r#"{"message":"no such chain","statusCode":404,"error":"Not Found"}"#
        );
        let body = ApiError::bad_request("Invalid x").body(Profile::Glacier);
        assert_eq!(
            std::str::from_utf8(&body).unwrap(),
            r#"{"message":["Invalid x"],"statusCode":400,"error":"Bad Request"}"#
        );
    }

    #[test]
    fn message_arrays_make_every_message_an_array() {
        for e in [
            ApiError::not_found("no such chain"),
            ApiError::too_many_requests("slow down"),
        ] {
            let body = e.body_shaped(Profile::Spec, true);
            let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(v["message"], serde_json::json!([e.message]));
            assert_eq!(v["statusCode"], serde_json::json!(e.status.as_u16()));
        }
    }
}
