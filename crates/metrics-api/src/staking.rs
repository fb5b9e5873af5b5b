//! `GET /v2/networks/{network}/metrics/{metric}`: a subnet's validator and delegator counts and
//! weights per UTC day, newest first, read through `chain-p`'s
//! [`PChainPages::staking_metrics`]. Page tokens are the series' own (a UUID remembering the
//! query and the next page's position).

use snowline_chain_metrics::{Point, Value};
use snowline_chain_p::metrics::{StakingFigures, StakingPage, StakingPoint, StakingQuery};
use snowline_query::ParamError;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;

use crate::context::{MetricsApi, subnet_read_failed, token_failed};
use crate::params::{self, DEFAULT_PAGE_SIZE};
use crate::render::{PointJson, StakingInformationJson, StakingInformationResponse, V2Series};

/// One UTC day: the staking points' bucket (the OpenAPI gives this route no `timeInterval`).
const DAY: u64 = 86_400;

/// The OpenAPI's `NetworkMetric`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NetworkMetric {
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
    let subnet = match req.query("subnetId") {
        None => Id::default(),
        Some(raw) => cb58_id("subnetId", raw).map_err(|e| ApiError::bad_request(e.to_string()))?,
    };
    let ask = Ask {
        metric,
        network: req.required_param("network")?,
        subnet,
        start: params::timestamp(req, "startTimestamp")?,
        end: params::timestamp(req, "endTimestamp")?,
        page_size: params::page_size(req)?,
        names: ("startTimestamp", "endTimestamp", "pageToken"),
    };
    let (page, next_page_token) = ask.page(api, req)?;
    let results = page
        .points
        .iter()
        .map(|p| PointJson::from(&ask.point(p)))
        .collect();
    Reply::json(&V2Series {
        results,
        next_page_token,
    })
}

/// The legacy `/v1/{validators,delegators}/network/{network}/subnetId/{subnetID}/{count,weight}`
/// routes and their metrics.
pub(crate) const LEGACY: [(&str, NetworkMetric); 4] = [
    (
        "/v1/validators/network/{network}/subnetId/{subnetID}/count",
        NetworkMetric::ValidatorCount,
    ),
    (
        "/v1/validators/network/{network}/subnetId/{subnetID}/weight",
        NetworkMetric::ValidatorWeight,
    ),
    (
        "/v1/delegators/network/{network}/subnetId/{subnetID}/count",
        NetworkMetric::DelegatorCount,
    ),
    (
        "/v1/delegators/network/{network}/subnetId/{subnetID}/weight",
        NetworkMetric::DelegatorWeight,
    ),
];

/// A legacy staking route: v2's series of `metric` with `from`, `to`, `startKey`, a hundred
/// points a page, as the legacy `StakingInformationResponse`.
pub(crate) fn legacy(
    api: &MetricsApi,
    req: &Request,
    metric: NetworkMetric,
) -> Result<Reply, ApiError> {
    let raw = req.required_param("subnetID")?;
    let subnet = cb58_id("subnetID", raw).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let ask = Ask {
        metric,
        network: req.required_param("network")?,
        subnet,
        start: params::timestamp(req, "from")?,
        end: params::timestamp(req, "to")?,
        page_size: DEFAULT_PAGE_SIZE,
        names: ("from", "to", "startKey"),
    };
    let (page, next_page_start_key) = ask.page(api, req)?;
    let subnet_id = subnet.to_string();
    let results = page
        .points
        .iter()
        .map(|p| StakingInformationJson {
            point: PointJson::from(&ask.point(p)),
            subnet_id: subnet_id.clone(),
        })
        .collect();
    Reply::json(&StakingInformationResponse {
        results,
        status: 200,
        last_run: page.chain_time,
        next_page_start_key,
    })
}

/// A staking series request, whichever version asked it.
struct Ask<'a> {
    metric: NetworkMetric,
    network: &'a str,
    subnet: Id,
    start: Option<u64>,
    end: Option<u64>,
    page_size: usize,
    /// The names of its start and end timestamps and of its page token.
    names: (&'static str, &'static str, &'static str),
}

impl Ask<'_> {
    /// The page asked (the first, or the one the request's token points at) and the next
    /// page's token.
    fn page(
        &self,
        api: &MetricsApi,
        req: &Request,
    ) -> Result<(StakingPage, Option<String>), ApiError> {
        let (start_name, end_name, token_name) = self.names;
        let to = self.end.unwrap_or(u64::MAX);
        let start = self.start.unwrap_or(0);
        if start > to {
            return Err(ApiError::bad_request(
                ParamError::new(
                    start_name,
                    format!("{start_name} must not be after {end_name} ({to})"),
                )
                .to_string(),
            ));
        }
        let pages = api.staking(self.network)?;
        let from = start - start % DAY;
        let key = format!(
            "Staking|{token_name}|{}|{}|{}|{from}|{to}|{}",
            self.network,
            self.subnet,
            self.metric.name(),
            self.page_size
        );
        let mut query = StakingQuery {
            subnet: self.subnet,
            from,
            to,
            page_size: self.page_size,
        };
        if let Some(token) = req.query(token_name) {
            let (issued_for, position) = api.tokens.redeem(token).map_err(token_failed)?;
            if issued_for != key {
                return Err(ApiError::bad_request(format!(
                    "Invalid {token_name}: it was issued for another query; send the parameters \
                     of the first page with it"
                )));
            }
            query.to = position;
        }
        let page = pages.staking_metrics(&query).map_err(subnet_read_failed)?;
        let next = page
            .next
            .map(|position| api.tokens.issue(&key, position))
            .transpose()
            .map_err(token_failed)?;
        Ok((page, next))
    }

    fn point(&self, p: &StakingPoint) -> Point {
        Point {
            timestamp: p.timestamp,
            value: Value::Count(self.metric.value(&p.figures)),
            in_progress: p.in_progress,
        }
    }
}
