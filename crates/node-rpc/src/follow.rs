//! What a following `node-rpc` adds to its router: `/readyz` (whether the index mirrors the
//! upstream, with the lag) and `/metrics` (the follower's metrics and the store's memory,
//! `snowline_node_index`).

use std::sync::Arc;

use snowline_jsonrpc::hyper::StatusCode;
use snowline_jsonrpc::{Router, text_response};
use snowline_node_index::FollowStatus;

/// Mounts `/readyz` (200 `ok`, or 503 and the reason, e.g. `upstream unavailable (40
/// containers behind): ...`, when more than `tolerance` containers behind or the upstream fails
/// or diverged) and `/metrics` (the text `metrics` renders at each scrape) on `router`.
pub fn follow_routes(
    router: Router,
    status: Arc<FollowStatus>,
    tolerance: u64,
    metrics: impl Fn() -> String + Send + Sync + 'static,
) -> Router {
    router
        .http("/readyz", move |_req| {
            let problem = status.snapshot().problem(tolerance);
            async move {
                match problem {
                    None => text_response(StatusCode::OK, "ok\n"),
                    Some(p) => text_response(StatusCode::SERVICE_UNAVAILABLE, format!("{p}\n")),
                }
            }
        })
        .http("/metrics", move |_req| {
            let text = metrics();
            async move { text_response(StatusCode::OK, text) }
        })
}
