//! `GET /v2/networks/{network}/metrics/{metric}`: a subnet's validator and delegator counts and
//! weights per UTC day, newest first, read through `chain-p`'s
//! [`PChainPages::staking_metrics`]. Page tokens are the series' own (a UUID remembering the
//! query and the next page's position).

use snowline_chain_metrics::{Point, Value};
use snowline_chain_p::pages::{StakingFigures, StakingQuery};
use snowline_query::ParamError;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;

use crate::context::{MetricsApi, subnet_read_failed, token_failed};
use crate::params;
use crate::render::{PointJson, V2Series};

/// One UTC day: the staking points' bucket (the OpenAPI gives this route no `timeInterval`).
const DAY: u64 = 86_400;

/// The OpenAPI's `NetworkMetric`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NetworkMetric {
    ValidatorCount,
    ValidatorWeight,
    DelegatorCount,
    DelegatorWeight,
}

impl NetworkMetric {
    const ALL: [NetworkMetric; 4] = [
        NetworkMetric::DelegatorCount,
        NetworkMetric::DelegatorWeight,
        NetworkMetric::ValidatorCount,
        NetworkMetric::ValidatorWeight,
    ];

    fn name(self) -> &'static str {
        match self {
            NetworkMetric::ValidatorCount => "validatorCount",
            NetworkMetric::ValidatorWeight => "validatorWeight",
            NetworkMetric::DelegatorCount => "delegatorCount",
            NetworkMetric::DelegatorWeight => "delegatorWeight",
        }
    }

    fn parse(raw: &str) -> Result<Self, ApiError> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == raw)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|m| m.name()).collect();
                ApiError::bad_request(
                    ParamError::invalid("metric", format_args!("one of {}", names.join(", ")), raw)
                        .to_string(),
                )
            })
    }

    fn value(self, f: &StakingFigures) -> u128 {
        match self {
            NetworkMetric::ValidatorCount => u128::from(f.validator_count),
            NetworkMetric::ValidatorWeight => f.validator_weight,
            NetworkMetric::DelegatorCount => u128::from(f.delegator_count),
            NetworkMetric::DelegatorWeight => f.delegator_weight,
        }
    }
}

/// `GET /v2/networks/{network}/metrics/{metric}`.
pub fn network_metric(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let metric = NetworkMetric::parse(req.required_param("metric")?)?;
    let network = req.required_param("network")?;
    let subnet = match req.query("subnetId") {
        None => Id::default(),
        Some(raw) => cb58_id("subnetId", raw).map_err(|e| ApiError::bad_request(e.to_string()))?,
    };
    let start = params::timestamp(req, "startTimestamp")?;
    let end = params::timestamp(req, "endTimestamp")?;
    let page_size = params::page_size(req)?;
    let to = end.unwrap_or(u64::MAX);
    let start = start.unwrap_or(0);
    if start > to {
        return Err(ApiError::bad_request(
            ParamError::new(
                "startTimestamp",
                format!("startTimestamp must not be after endTimestamp ({to})"),
            )
            .to_string(),
        ));
    }
    let pages = api.staking(network)?;
    let from = start - start % DAY;
    let key = format!(
        "Staking|{network}|{subnet}|{}|{from}|{to}|{page_size}",
        metric.name()
    );
    let mut query = StakingQuery {
        subnet,
        from,
        to,
        page_size,
    };
    if let Some(token) = req.query("pageToken") {
        let (issued_for, position) = api.tokens.redeem(token).map_err(token_failed)?;
        if issued_for != key {
            return Err(ApiError::bad_request(
                "Invalid pageToken: it was issued for another query; send the parameters of the \
                 first page with it",
            ));
        }
        query.to = position;
    }
    let page = pages.staking_metrics(&query).map_err(subnet_read_failed)?;
    let next_page_token = page
        .next
        .map(|position| api.tokens.issue(&key, position))
        .transpose()
        .map_err(token_failed)?;
    let results = page
        .points
        .iter()
        .map(|p| {
            PointJson::from(&Point {
                timestamp: p.timestamp,
                value: Value::Count(metric.value(&p.figures)),
                in_progress: p.in_progress,
            })
        })
        .collect();
    Reply::json(&V2Series {
        results,
        next_page_token,
    })
}
