//! The REST edge on raw hyper: routing by the spec's path templates, the spec's error
//! body, API-key authentication, weighted rate limits, usage metering, request limits,
//! health and Prometheus metrics. No chain knowledge: the Data API's and the metrics
//! API's handlers are registered on a [`Router`] by the code above this crate.
//!
//! ```no_run
//! use snowline_rest_api::{App, ApiError, Reply, Router, Server, ServerConfig, Weight};
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let router = Router::new().get("/v1/chains/{chainId}", Weight::MEDIUM, |req| async move {
//!     let chain = req.required_param("chainId")?.to_owned();
//!     Reply::json(&serde_json::json!({ "chainId": chain }))
//! });
//! let server = Server::bind("127.0.0.1:8080".parse()?, App::new(router), ServerConfig::default()).await?;
//! server.run_until(snowline_rest_api::shutdown_signal()).await?;
//! # Ok(()) }
//! ```
//!
//! See `docs/rest-api.md` for the behaviour: errors, profiles, limits, headers, metering.

mod app;
mod auth;
mod blocking;
mod docs_site;
mod error;
mod health;
mod metering;
mod metrics;
pub mod openapi;
mod path;
mod pipeline;
mod ratelimit;
mod reply;
mod request;
mod route;
mod router;
mod server;
mod swagger;
mod weight;

pub use app::App;
pub use auth::{
    ANONYMOUS_TIER, Caller, DATA_API_KEY_HEADER, GLACIER_API_KEY_HEADER, InMemoryKeys, KeyLookup,
    KeyResolver, NoKeys, authenticate,
};
pub use error::{ApiError, Profile, RestError, reason_phrase};
pub use health::{AlwaysReady, Check, Readiness, health_check};
pub use metering::{MemorySink, UNKNOWN_PATH, UsageEvent, UsageEventRef, UsageSink, credits};
pub use metrics::METRICS_CONTENT_TYPE;
pub use openapi::ApiDescription;
pub use ratelimit::{
    BudgetCache, LimitKey, LimitKeyRef, Limiter, RATELIMIT_LIMIT, RATELIMIT_POLICY,
    RATELIMIT_REMAINING, RATELIMIT_RESET, RateLimits, TierLimit, Verdict,
};
pub use reply::{JSON_CONTENT_TYPE, Reply};
pub use request::Request;
pub use route::{BoxFuture, Handler, RouteMeta, handler};
pub use router::Router;
pub use server::{Server, ServerConfig, shutdown_signal};
pub use weight::Weight;

/// Re-exported so applications name the same hyper types (`StatusCode`, headers).
pub use hyper;
/// Re-exported so applications register their metrics without a version mismatch.
pub use prometheus_client;
