//! What a following `node-rpc` adds to its router: `/readyz` (whether the index mirrors the
//! upstream, with the lag) and `/metrics` (the follower's metrics, `snowline_node_index`).

use std::sync::Arc;

use snowline_jsonrpc::hyper::StatusCode;
use snowline_jsonrpc::{Router, text_response};
use snowline_node_index::{FollowStatus, follow_metrics_text};

/// Mounts `/readyz` (200 `ok`, or 503 and the reason, e.g. `upstream unavailable (40
/// containers behind): ...`, when more than `tolerance` containers behind or the upstream fails
/// or diverged) and `/metrics` on `router`.
pub fn follow_routes(router: Router, status: Arc<FollowStatus>, tolerance: u64) -> Router {
    let ready = Arc::clone(&status);
    router
        .http("/readyz", move |_req| {
            let problem = ready.snapshot().problem(tolerance);
            async move {
                match problem {
                    None => text_response(StatusCode::OK, "ok\n"),
                    Some(p) => text_response(StatusCode::SERVICE_UNAVAILABLE, format!("{p}\n")),
                }
            }
        })
        .http("/metrics", move |_req| {
            let text = follow_metrics_text(&status);
            async move { text_response(StatusCode::OK, text) }
        })
}
