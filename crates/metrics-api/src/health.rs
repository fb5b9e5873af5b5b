//! `/v2/health-check` and `/v2/live-check`: the OpenAPI's `HealthCheckResultDto` from the
//! service's readiness, as the edge's own `/v1/` checks answer.

use std::sync::Arc;

use snowline_rest_api::{Readiness, Router, Weight, health_check};

/// Adds both checks.
pub fn routes(router: Router, readiness: Arc<dyn Readiness>) -> Router {
    let live = Arc::clone(&readiness);
    router
        .get("/v2/health-check", Weight::FREE, move |_| {
            let checks = readiness.check();
            async move { health_check(&checks) }
        })
        .get("/v2/live-check", Weight::FREE, move |_| {
            let checks = live.check_reads();
            async move { health_check(&checks) }
        })
}
