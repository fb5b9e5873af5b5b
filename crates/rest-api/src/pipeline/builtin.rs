//! The first stage: what the edge answers itself (`/healthz`, `/readyz`, `/metrics`, the API
//! description and its page), before keys, limits and metering.

use crate::app::{BUILTIN_ROUTES, Built};
use crate::docs_site;
use crate::error::ApiError;
use crate::health;
use crate::metrics::{self, METRICS_CONTENT_TYPE};
use crate::reply::Reply;
use hyper::header::{ALLOW, CONTENT_TYPE, HeaderMap, HeaderValue};
use hyper::{Method, StatusCode};

/// `/healthz`, `/readyz`, `/metrics`, and `/openapi.json`, `/docs` with its files when the app
/// is described: no key, no limit, no metering.
pub(super) fn answer(
    app: &Built,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
) -> Option<(&'static str, Reply)> {
    if let Some(site) = &app.docs {
        if method == Method::GET {
            if let Some(found) = site.answer(path, headers) {
                return Some(found);
            }
        } else if let Some((route, _)) = site.answer(path, headers) {
            let e = docs_site::method_not_allowed(method, path);
            let reply = Reply::bytes(e.status, app.error_body(&e))
                .with_header(ALLOW, HeaderValue::from_static("GET"));
            return Some((route, reply));
        }
    }
    let route = *BUILTIN_ROUTES.iter().find(|r| **r == path)?;
    if method != Method::GET {
        let e = ApiError::method_not_allowed(format!("Cannot {method} {path}; allowed: GET"));
        let reply = Reply::bytes(e.status, app.error_body(&e))
            .with_header(ALLOW, HeaderValue::from_static("GET"));
        return Some((route, reply));
    }
    let reply = match route {
        "/healthz" => health::healthz(),
        "/readyz" => health::readyz(app.readiness.as_ref()),
        _ => match metrics::render(&app.registry) {
            Ok(text) => Reply::bytes(StatusCode::OK, text)
                .with_header(CONTENT_TYPE, HeaderValue::from_static(METRICS_CONTENT_TYPE)),
            Err(_) => {
                let e = ApiError::internal("encoding the metrics failed");
                Reply::bytes(e.status, app.error_body(&e))
            }
        },
    };
    Some((route, reply))
}
