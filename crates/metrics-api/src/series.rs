//! The series endpoints: `GET /v2/chains/{chainId}/metrics/{metric}` and the spec's
//! `GET /v1/avg_tps/{chainId}` (daily average TPS), with its legacy `from`/`to`/`startKey` form.
//! Pages go newest first; a page token is a UUID the room keeps with the query it pages and the
//! next page's position, so a token sent with another query is refused.

use snowline_chain_metrics::{Interval, Metric, SeriesPage, SeriesQuery, windows_of};
use snowline_query::ParamError;
use snowline_rest::{ApiError, Reply, Request};

use crate::context::{MetricsApi, read_failed, token_failed};
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
#[derive(Debug, Clone, Copy)]
struct Scenario {
    form: Form,
    query: SeriesQuery,
}

impl Scenario {
    /// The query as its tokens keep it.
    fn key(&self) -> String {
        let q = &self.query;
        format!(
            "{:?}|{}|{}|{}|{}|{}|{}",
            self.form,
            q.chain,
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
        let page = api.pages.series(&query).map_err(read_failed)?;
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
    let (chain, _) = api.chain(req.required_param("chainId")?)?;
    let scenario = Scenario {
        form: Form::V2,
        query: SeriesQuery {
            chain,
            metric,
            interval,
            from,
            to,
            page_size,
        },
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
    let (chain, _) = api.chain(req.required_param("chainId")?)?;
    let values = api.pages.rolling(chain, metric).map_err(read_failed)?;
    Reply::json(&RollingResponse {
        result: RollingJson::from(&values),
    })
}

/// `GET /v1/avg_tps/{chainId}`: the spec's form (`pageToken`), or the legacy one when `from`,
/// `to` or `startKey` is given.
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
    let (chain, _) = api.chain(req.required_param("chainId")?)?;
    let scenario = Scenario {
        form,
        query: SeriesQuery {
            chain,
            metric: Metric::AvgTps,
            interval: Interval::Day,
            from,
            to,
            page_size: DEFAULT_PAGE_SIZE,
        },
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
