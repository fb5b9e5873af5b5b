//! The second stage: the route the method and path name, the query string checked, and what
//! the route says about the request (its template, weight and type, and its chain when
//! metering needs it).

use super::facts::Facts;
use crate::app::Built;
use crate::path::decode_target;
use crate::router::Match;
use hyper::Method;
use std::sync::Arc;

/// The route found, or why none was (a path that does not decode is a message), and whether
/// the query string is well formed (checked here, answered only for a route that exists).
pub(super) struct Routed<'a> {
    pub(super) route: Result<Match<'a>, String>,
    pub(super) query: Result<(), String>,
}

/// Looks `method path` up, checks the query, and records what the route tells about the
/// request.
pub(super) fn route<'a>(
    app: &'a Built,
    method: &Method,
    uri: &hyper::Uri,
    facts: &mut Facts,
) -> Routed<'a> {
    let (segments, query) = decode_target(uri.path(), uri.query());
    let routed = segments.map(|segs| app.router.lookup(method, &segs));
    match &routed {
        Ok(Match::Found(route, params)) => {
            facts.template = Arc::clone(&route.meta.template);
            facts.weight = route.meta.weight;
            facts.request_type = Some(Arc::clone(&route.meta.request_type));
            if app.sink.is_some() {
                facts.chain_id = route.meta.chain_param.as_ref().and_then(|name| {
                    params
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, v)| v.clone())
                });
            }
        }
        Ok(Match::MethodNotAllowed(route, _)) => {
            facts.template = Arc::clone(&route.meta.template);
            facts.request_type = Some(Arc::clone(&route.meta.request_type));
        }
        Ok(Match::NotFound) | Err(_) => {}
    }
    Routed {
        route: routed,
        query,
    }
}
