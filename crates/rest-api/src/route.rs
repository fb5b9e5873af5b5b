//! What a route carries: its handler and its metadata (template, weight, request type,
//! chain parameter).

use crate::error::ApiError;
use crate::reply::Reply;
use crate::request::Request;
use std::future::Future;
use std::num::NonZeroU32;
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

/// The compute units a request costs against rate limits and in metering
/// (the OpenAPI's `x-execution-weight`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weight(NonZeroU32);

impl Weight {
    /// `free`: 1 unit.
    pub const FREE: Weight = Weight(NonZeroU32::MIN);
    /// `small`: 10 units.
    pub const SMALL: Weight = Weight::units_const(10);
    /// `medium`: 20 units.
    pub const MEDIUM: Weight = Weight::units_const(20);
    /// `large`: 50 units.
    pub const LARGE: Weight = Weight::units_const(50);
    /// `xl`: 100 units.
    pub const XL: Weight = Weight::units_const(100);
    /// `xxl`: 200 units.
    pub const XXL: Weight = Weight::units_const(200);

    const fn units_const(n: u32) -> Weight {
        match NonZeroU32::new(n) {
            Some(n) => Weight(n),
            None => Weight(NonZeroU32::MIN),
        }
    }

    /// A custom weight; `None` for zero (every request costs at least one unit).
    pub fn new(units: u32) -> Option<Weight> {
        NonZeroU32::new(units).map(Weight)
    }

    /// The weight of an OpenAPI `x-execution-weight` name (`free`, `small`, `medium`,
    /// `large`, `xl`, `xxl`).
    pub fn from_name(name: &str) -> Option<Weight> {
        Some(match name {
            "free" => Self::FREE,
            "small" => Self::SMALL,
            "medium" => Self::MEDIUM,
            "large" => Self::LARGE,
            "xl" => Self::XL,
            "xxl" => Self::XXL,
            _ => return None,
        })
    }

    /// The cost in compute units.
    pub fn units(self) -> u32 {
        self.0.get()
    }

    /// The cost as the non-zero count governor's `check_key_n` takes.
    pub fn cells(self) -> NonZeroU32 {
        self.0
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openapi_weight_names_map_to_units() {
        let units: Vec<u32> = ["free", "small", "medium", "large", "xl", "xxl"]
            .iter()
            .map(|n| Weight::from_name(n).unwrap().units())
            .collect();
        assert_eq!(units, [1, 10, 20, 50, 100, 200]);
        assert_eq!(Weight::from_name("huge"), None);
        assert_eq!(Weight::new(0), None);
        assert_eq!(Weight::new(7).unwrap().units(), 7);
    }
}
