//! What a route carries: its handler and its metadata (template, weight, request type,
//! chain parameter).

use crate::error::ApiError;
use crate::reply::Reply;
use crate::request::Request;
use crate::weight::Weight;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed, sendable future, as handlers return.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A route handler: takes the request, answers a reply or an error.
pub type Handler =
    Arc<dyn Fn(Request) -> BoxFuture<'static, Result<Reply, ApiError>> + Send + Sync>;

/// Boxes an async closure into a [`Handler`].
pub fn handler<F, Fut>(f: F) -> Handler
where
    F: Fn(Request) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Reply, ApiError>> + Send + 'static,
{
    Arc::new(move |req| Box::pin(f(req)))
}

/// The metadata of a route, used by rate limiting, metering and metrics.
#[derive(Debug, Clone)]
pub struct RouteMeta {
    /// The template exactly as registered, e.g. `/v1/chains/{chainId}`.
    pub template: Arc<str>,
    /// The cost of one request.
    pub weight: Weight,
    /// The usage-metrics request type (`data` for the Data API).
    pub request_type: Arc<str>,
    /// The name of the path parameter holding the chain id, if any.
    pub chain_param: Option<Arc<str>>,
}
