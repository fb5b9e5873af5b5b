//! The L1 validator fee metrics (ACP-77's continuous fee) per UTC day, read through `chain-p`'s
//! [`PChainPages::l1_metrics`](snowline_chain_p::pages::PChainPages::l1_metrics):
//! `GET /v2/validators/metrics/{metric}` (the network), `/v2/validation/{l1ValidationId}/...`,
//! `/v2/validator/{nodeId}/...` and `/v2/subnet/{subnetId}/...`. The OpenAPI gives them no
//! paging: one answer holds every day of the range, newest first.

use snowline_chain_metrics::{Interval, Point, Value};
use snowline_chain_p::metrics::{L1Figure, L1MetricsError, L1MetricsQuery, L1Scope};
use snowline_query::ParamError;
use snowline_query::params::{cb58_id, node_id};
use snowline_rest_api::{ApiError, Reply, Request};

use crate::context::MetricsApi;
use crate::params;
use crate::render::{PointJson, V2Series};

/// A route's metric names (the OpenAPI's enum) and what each reads.
type Metrics = [(&'static str, L1Figure)];

const TOTAL: &Metrics = &[
    ("totalCumulativeFeesDaily", L1Figure::CumulativeFees),
    ("totalValidatorFeesDaily", L1Figure::Fees),
    ("totalPayingValidatorsDaily", L1Figure::PayingValidators),
];
const VALIDATION: &Metrics = &[
    ("validationCumulativeFeesDaily", L1Figure::CumulativeFees),
    ("validationFeesDaily", L1Figure::Fees),
];
const NODE: &Metrics = &[
    ("perNodeCumulativeFeesPaid", L1Figure::CumulativeFees),
    ("perNodeDailyFeesPaid", L1Figure::Fees),
];
const SUBNET: &Metrics = &[
    ("perSubnetDailyFeesPaid", L1Figure::Fees),
    ("perSubnetCumulativeFeesPaid", L1Figure::CumulativeFees),
    ("perSubnetPayingValidators", L1Figure::PayingValidators),
];

fn bad(e: ParamError) -> ApiError {
    ApiError::bad_request(e.to_string())
}

/// `GET /v2/validators/metrics/{metric}`.
pub fn total(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    series(api, req, TOTAL, |_| Ok(L1Scope::Total))
}

/// `GET /v2/validation/{l1ValidationId}/metrics/{metric}`.
pub fn validation(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    series(api, req, VALIDATION, |req| {
        let raw = req.required_param("l1ValidationId")?;
        Ok(L1Scope::Validation(
            cb58_id("l1ValidationId", raw).map_err(bad)?,
        ))
    })
}

/// `GET /v2/validator/{nodeId}/metrics/{metric}`.
pub fn node(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    series(api, req, NODE, |req| {
        let raw = req.required_param("nodeId")?;
        let node = node_id("nodeId", raw).map_err(bad)?;
        Ok(L1Scope::Node(node.as_bytes().to_vec()))
    })
}

/// `GET /v2/subnet/{subnetId}/metrics/{metric}`.
pub fn subnet(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    series(api, req, SUBNET, |req| {
        let raw = req.required_param("subnetId")?;
        Ok(L1Scope::Subnet(cb58_id("subnetId", raw).map_err(bad)?))
    })
}

/// Parses the metric, the scope and the range, reads the days and renders them.
fn series(
    api: &MetricsApi,
    req: &Request,
    metrics: &Metrics,
    scope: impl FnOnce(&Request) -> Result<L1Scope, ApiError>,
) -> Result<Reply, ApiError> {
    let raw = req.required_param("metric")?;
    let figure = metrics
        .iter()
        .find(|(name, _)| *name == raw)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let names: Vec<&str> = metrics.iter().map(|(n, _)| *n).collect();
            bad(ParamError::invalid(
                "metric",
                format_args!("one of {}", names.join(", ")),
                raw,
            ))
        })?;
    let scope = scope(req)?;
    let start = params::timestamp(req, "startTimestamp")?;
    let end = params::timestamp(req, "endTimestamp")?;
    let (from, to) = params::range(
        Interval::Day,
        start,
        end,
        ("startTimestamp", "endTimestamp"),
    )?;
    let pages = api.p_chain()?;
    let query = L1MetricsQuery {
        scope,
        figure,
        from,
        to,
    };
    let points = pages.l1_metrics(&query).map_err(|e| match e {
        L1MetricsError::NotIndexed | L1MetricsError::Unknown(_) => {
            ApiError::not_found(e.to_string())
        }
        L1MetricsError::Unsupported(_) => ApiError::bad_request(e.to_string()),
        L1MetricsError::Read(_) => {
            ApiError::internal(format!("reading the P-Chain index failed: {e}"))
        }
    })?;
    let results = points
        .iter()
        .map(|p| {
            PointJson::from(&Point {
                timestamp: p.timestamp,
                value: Value::Count(u128::from(p.value)),
                in_progress: p.in_progress,
            })
        })
        .collect();
    Reply::json(&V2Series {
        results,
        next_page_token: None,
    })
}
