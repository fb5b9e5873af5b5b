//! The series endpoints: `GET /v2/chains/{chainId}/metrics/{metric}` and the spec's
//! `GET /v1/avg_tps/{chainId}` (daily average TPS), with its legacy `from`/`to`/`startKey` form.
//! Pages go newest first; a page token is a UUID the room keeps with the query it pages and the
//! next page's position, so a token sent with another query is refused.

use snowline_chain_metrics::{
    Interval, Metric, RollingValues, SeriesPage, SeriesQuery, summable, windows_of,
};
use snowline_query::ParamError;
use snowline_rest_api::{ApiError, Reply, Request};

use crate::context::{MetricsApi, Target, read_failed, token_failed};
use crate::params::{self, DEFAULT_PAGE_SIZE};
use crate::render::{PointJson, RollingJson, RollingResponse, V1Series, V2Series};

/// Which answer a series request gets; part of what its page tokens remember.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// `/v1/avg_tps` with `pageToken`.
    V1,
    /// `/v1/avg_tps` with `from`, `to`, `startKey`.
    V1Legacy,
    /// `/v2/.../metrics/{metric}`.
    V2,
}

/// Everything a series request asks but the position: its page tokens' query.
#[derive(Debug, Clone)]
pub(crate) struct Scenario {
    pub(crate) form: Form,
    /// The chain (also `query.chain`) or the chains summed.
    pub(crate) target: Target,
    pub(crate) query: SeriesQuery,
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
    pub(crate) fn page(
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

pub(crate) fn results(page: &SeriesPage) -> Vec<PointJson> {
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
    let rolling = || {
        Metric::ALL
            .into_iter()
            .filter(|m| !windows_of(*m).is_empty())
    };
    let metric = Metric::from_name(raw)
        .filter(|m| !windows_of(*m).is_empty())
        .ok_or_else(|| {
            let names: Vec<&str> = rolling().map(|m| m.name()).collect();
            ApiError::bad_request(
                ParamError::invalid("metric", format_args!("one of {}", names.join(", ")), raw)
                    .to_string(),
            )
        })?;
    let values = rolling_values(api, req.required_param("chainId")?, metric, rolling())?;
    Reply::json(&RollingResponse {
        result: RollingJson::from(&values),
    })
}

/// `metric` over its rolling windows for the chain or aggregate `chain_ref` names (the room's
/// one computation of windows, which both API versions render); an aggregate only for a metric
/// summed over chains, else a 400 naming those of `offered` that are.
pub(crate) fn rolling_values(
    api: &MetricsApi,
    chain_ref: &str,
    metric: Metric,
    offered: impl Iterator<Item = Metric>,
) -> Result<RollingValues, ApiError> {
    match api.target(chain_ref)? {
        Target::Chain(chain) => api.pages.rolling(chain, metric),
        Target::Aggregate(_, chains) => {
            only_summable(metric, chain_ref, offered)?;
            api.pages.aggregate_rolling(&chains, metric)
        }
    }
    .map_err(read_failed)
}

/// A 400 unless `metric` is summed over chains, naming those of `offered` that are.
pub(crate) fn only_summable(
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
    let form = if legacy { Form::V1Legacy } else { Form::V1 };
    v1_series(api, req, Metric::AvgTps, Interval::Day, form, "chainId")
}

/// A v1 series of `metric` at `interval` in `form` (`from`/`to` read in the legacy form only),
/// for the chain or aggregate the path's `chain_param` names (the legacy OpenAPI's `chain` is
/// "numeric chainID, 'testnet', 'mainnet', or 'total'"): the same pages as v2's, rendered as the
/// spec's Series response, or the legacy form's (`nextPageStartKey` for `nextPageToken`).
pub(crate) fn v1_series(
    api: &MetricsApi,
    req: &Request,
    metric: Metric,
    interval: Interval,
    form: Form,
    chain_param: &str,
) -> Result<Reply, ApiError> {
    let legacy = form == Form::V1Legacy;
    let token_param = if legacy { "startKey" } else { "pageToken" };
    let (start, end) = if legacy {
        (
            params::timestamp(req, "from")?,
            params::timestamp(req, "to")?,
        )
    } else {
        (None, None)
    };
    let (from, to) = params::range(interval, start, end, ("from", "to"))?;
    let chain_ref = req.required_param(chain_param)?;
    let target = api.target(chain_ref)?;
    if matches!(target, Target::Aggregate(..)) {
        let v1 = crate::legacy_ops::SERIES.iter().map(|op| op.metric);
        only_summable(metric, chain_ref, std::iter::once(Metric::AvgTps).chain(v1))?;
    }
    let scenario = Scenario {
        form,
        query: SeriesQuery {
            chain: match target {
                Target::Chain(id) => id,
                Target::Aggregate(..) => 0,
            },
            metric,
            interval,
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
