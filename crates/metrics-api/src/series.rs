//! The series endpoints: `GET /v2/chains/{chainId}/metrics/{metric}` and the spec's
//! `GET /v1/avg_tps/{chainId}` (daily average TPS), with its legacy `from`/`to`/`startKey` form.
//! Pages go newest first; a page token is a UUID the room keeps with the query it pages and the
//! next page's position, so a token sent with another query is refused.

use snowline_chain_metrics::{Interval, Metric, SeriesPage, SeriesQuery, summable, windows_of};
use snowline_query::ParamError;
use snowline_rest_api::{ApiError, Reply, Request};

use crate::context::{MetricsApi, Target, read_failed, token_failed};
use crate::params::{self, DEFAULT_PAGE_SIZE};
use crate::render::{PointJson, RollingJson, RollingResponse, V1Series, V2Series};

/// Which answer a series request gets; part of what its page tokens remember.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `/v1/avg_tps` with `pageToken`.
    V1,
    /// `/v1/avg_tps` with `from`, `to`, `startKey`.
    V1Legacy,
    /// `/v2/.../metrics/{metric}`.
    V2,
}

/// Everything a series request asks but the position: its page tokens' query.
#[derive(Debug, Clone)]
struct Scenario {
    form: Form,
    /// The chain (also `query.chain`) or the chains summed.
    target: Target,
    query: SeriesQuery,
}

impl Scenario {
    /// The query as its tokens keep it.
    fn key(&self) -> String {
        let q = &self.query;
        format!(
            "{:?}|{}|{}|{}|{}|{}|{}",
            self.form,
            self.target.key(),
            q.metric.name(),
            q.interval.name(),
            q.from,
            q.to,
            q.page_size
        )
    }

    /// The page the request asks: the first, or the one `token` (sent as `param`) points at.
    fn page(
        &self,
        api: &MetricsApi,
        token: Option<&str>,
        param: &str,
    ) -> Result<(SeriesPage, Option<String>), ApiError> {
        let key = self.key();
        let mut query = self.query;
        if let Some(token) = token {
            let (issued_for, position) = api.tokens.redeem(token).map_err(token_failed)?;
            if issued_for != key {
                return Err(ApiError::bad_request(format!(
                    "Invalid {param}: it was issued for another query; send the parameters of \
                     the first page with it"
                )));
            }
            query.to = position;
        }
        let page = match &self.target {
            Target::Chain(_) => api.pages.series(&query),
            Target::Aggregate(_, chains) => api.pages.aggregate_series(chains, &query),
        }
        .map_err(read_failed)?;
        let next = page
            .next
            .map(|position| api.tokens.issue(&key, position))
            .transpose()
            .map_err(token_failed)?;
        Ok((page, next))
    }
}

fn results(page: &SeriesPage) -> Vec<PointJson> {
    page.points.iter().map(PointJson::from).collect()
}

/// `GET /v2/chains/{chainId}/metrics/{metric}`.
pub fn chain_metric(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let interval = params::interval(req)?;
    let metric = params::metric(req.required_param("metric")?, interval)?;
    let start = params::timestamp(req, "startTimestamp")?;
    let end = params::timestamp(req, "endTimestamp")?;
    let page_size = params::page_size(req)?;
    let (from, to) = params::range(interval, start, end, ("startTimestamp", "endTimestamp"))?;
    let chain_ref = req.required_param("chainId")?;
    let target = api.target(chain_ref)?;
    if matches!(target, Target::Aggregate(..)) {
        only_summable(metric, chain_ref, Metric::ALL.iter().copied())?;
    }
    let scenario = Scenario {
        form: Form::V2,
        query: SeriesQuery {
            chain: match target {
                Target::Chain(id) => id,
                Target::Aggregate(..) => 0,
            },
            metric,
            interval,
            from,
            to,
            page_size,
        },
        target,
    };
    let (page, next_page_token) = scenario.page(api, req.query("pageToken"), "pageToken")?;
    Reply::json(&V2Series {
        results: results(&page),
        next_page_token,
    })
}

/// `GET /v2/chains/{chainId}/rollingWindowMetrics/{metric}`: the metric over the last hour,
/// day, week, month, 90 days, year and all time, ending with the chain's last indexed block.
pub fn rolling_window(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let raw = req.required_param("metric")?;
    let metric = Metric::from_name(raw)
        .filter(|m| !windows_of(*m).is_empty())
        .ok_or_else(|| {
            let names: Vec<&str> = Metric::ALL
                .iter()
                .filter(|m| !windows_of(**m).is_empty())
                .map(|m| m.name())
                .collect();
            ApiError::bad_request(
                ParamError::invalid("metric", format_args!("one of {}", names.join(", ")), raw)
                    .to_string(),
            )
        })?;
    let chain_ref = req.required_param("chainId")?;
    let values = match api.target(chain_ref)? {
        Target::Chain(chain) => api.pages.rolling(chain, metric),
        Target::Aggregate(_, chains) => {
            let rolling = Metric::ALL
                .into_iter()
                .filter(|m| !windows_of(*m).is_empty());
            only_summable(metric, chain_ref, rolling)?;
            api.pages.aggregate_rolling(&chains, metric)
        }
    }
    .map_err(read_failed)?;
    Reply::json(&RollingResponse {
        result: RollingJson::from(&values),
    })
}

/// A 400 unless `metric` is summed over chains, naming those of `offered` that are.
fn only_summable(
    metric: Metric,
    chain_ref: &str,
    offered: impl Iterator<Item = Metric>,
) -> Result<(), ApiError> {
    if summable(metric) {
        return Ok(());
    }
    let names: Vec<&str> = offered.filter(|m| summable(*m)).map(Metric::name).collect();
    Err(ApiError::bad_request(
        ParamError::new(
            "metric",
            format!(
                "{} is not summed over chains; chainId {chain_ref} serves {}",
                metric.name(),
                names.join(", ")
            ),
        )
        .to_string(),
    ))
}

/// `GET /v1/avg_tps/{chainId}`: the spec's form (`pageToken`), or the legacy one when `from`,
/// `to` or `startKey` is given; `chainId` may be an aggregate (`total`, `mainnet`, `testnet`).
pub fn avg_tps(api: &MetricsApi, req: &Request) -> Result<Reply, ApiError> {
    let legacy = ["from", "to", "startKey"]
        .iter()
        .any(|p| req.query(p).is_some());
    let (form, token_param) = if legacy {
        (Form::V1Legacy, "startKey")
    } else {
        (Form::V1, "pageToken")
    };
    let (start, end) = if legacy {
        (
            params::timestamp(req, "from")?,
            params::timestamp(req, "to")?,
        )
    } else {
        (None, None)
    };
    let (from, to) = params::range(Interval::Day, start, end, ("from", "to"))?;
    // The legacy OpenAPI's `chain` is "numeric chainID, 'testnet', 'mainnet', or 'total'":
    // `avgTps` is summed over chains.
    let target = api.target(req.required_param("chainId")?)?;
    let scenario = Scenario {
        form,
        query: SeriesQuery {
            chain: match target {
                Target::Chain(id) => id,
                Target::Aggregate(..) => 0,
            },
            metric: Metric::AvgTps,
            interval: Interval::Day,
            from,
            to,
            page_size: DEFAULT_PAGE_SIZE,
        },
        target,
    };
    let (page, next) = scenario.page(api, req.query(token_param), token_param)?;
    let (next_page_token, next_page_start_key) = if legacy { (None, next) } else { (next, None) };
    Reply::json(&V1Series {
        results: results(&page),
        status: 200,
        last_run: page.last_run,
        next_page_token,
        next_page_start_key,
    })
}
