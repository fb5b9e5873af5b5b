//! Health and readiness: the [`Readiness`] hook and the bodies of `/healthz`, `/readyz`,
//! `/v1/health-check` and `/v1/live-check`.

use crate::error::ApiError;
use crate::reply::Reply;
use hyper::StatusCode;
use serde_json::{Map, Value, json};

/// The state of one component (database, ingest, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// The component's name, e.g. `database`.
    pub component: String,
    /// `None` when healthy, else why not.
    pub problem: Option<String>,
}

impl Check {
    /// A healthy component.
    pub fn up(component: &str) -> Self {
        Self {
            component: component.to_owned(),
            problem: None,
        }
    }

    /// An unhealthy component and why.
    pub fn down(component: &str, problem: impl Into<String>) -> Self {
        Self {
            component: component.to_owned(),
            problem: Some(problem.into()),
        }
    }
}

/// Tells whether the service can answer; implemented by the application.
pub trait Readiness: Send + Sync {
    /// Every component's state (`/readyz`, `/v1/health-check`). Must be fast.
    fn check(&self) -> Vec<Check>;

    /// The state of what reads need (`/v1/live-check`); defaults to [`Readiness::check`].
    fn check_reads(&self) -> Vec<Check> {
        self.check()
    }
}

/// A service with nothing to check: always ready.
#[derive(Debug, Default, Clone, Copy)]
pub struct AlwaysReady;

impl Readiness for AlwaysReady {
    fn check(&self) -> Vec<Check> {
        Vec::new()
    }
}

fn problems(checks: &[Check]) -> Vec<String> {
    checks
        .iter()
        .filter_map(|c| c.problem.as_ref().map(|p| format!("{}: {p}", c.component)))
        .collect()
}

/// `/healthz`: the process answers.
pub(crate) fn healthz() -> Reply {
    Reply::bytes(StatusCode::OK, r#"{"status":"ok"}"#)
}

/// `/readyz`: 200 `{"status":"ok"}`, or 503 `{"status":"error","reasons":[...]}`.
pub(crate) fn readyz(readiness: &dyn Readiness) -> Reply {
    let reasons = problems(&readiness.check());
    if reasons.is_empty() {
        return healthz();
    }
    let body = json!({ "status": "error", "reasons": reasons }).to_string();
    Reply::bytes(StatusCode::SERVICE_UNAVAILABLE, body)
}

/// `/v1/health-check` and `/v1/live-check` (and the metrics API's `/v2/` ones): the OpenAPI's
/// `HealthCheckResultDto` when every component is up, else a 503 error body naming the failing
/// components.
pub fn health_check(checks: &[Check]) -> Result<Reply, ApiError> {
    let reasons = problems(checks);
    if !reasons.is_empty() {
        return Err(ApiError::service_unavailable(format!(
            "Unhealthy: {}",
            reasons.join("; ")
        )));
    }
    let details: Map<String, Value> = checks
        .iter()
        .map(|c| (c.component.clone(), json!({ "status": "up" })))
        .collect();
    Reply::json(&json!({
        "status": "ok",
        "info": details,
        "error": {},
        "details": details,
    }))
}
