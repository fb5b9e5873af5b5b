//! The legacy OpenAPI's v1 chain metrics (`metrics-api-legacy-v1.json`): `/v1/{metric}/{chain}`
//! series with `from`, `to`, `startKey` (and `interval` where it names one), and
//! `/v1/{metric}/{chainId}/rollingWindow`. Each is a rendering of the v2 series and rolling
//! windows of the same [`Metric`]; `avg_tps` (which the spec also serves with `pageToken`) is in
//! [`series`](crate::series), the validator and delegator series in [`staking`].

use std::sync::Arc;

use snowline_chain_metrics::{Interval, Metric, RollingValues, Window};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};

use crate::context::MetricsApi;
use crate::legacy_ops::{ROLLING, SERIES};
use crate::networks;
use crate::params;
use crate::render::{LegacyRollingJson, LegacyRollingResponse};
use crate::series::{self, Form};
use crate::staking;

/// Adds the legacy series, rolling windows, staking series and listings over `api`.
pub(crate) fn routes(router: Router, api: &Arc<MetricsApi>) -> Router {
    let router = SERIES.iter().fold(router, |router, op| {
        let api = Arc::clone(api);
        let (metric, with_interval) = (op.metric, op.interval);
        router.get_blocking(op.path, Weight::SMALL, move |req| {
            legacy_series(&api, req, metric, with_interval)
        })
    });
    let router = ROLLING.iter().fold(router, |router, (path, metric)| {
        let api = Arc::clone(api);
        let metric = *metric;
        router.get_blocking(path, Weight::SMALL, move |req| {
            legacy_rolling(&api, req, metric)
        })
    });
    let router = staking::LEGACY
        .iter()
        .fold(router, |router, (path, metric)| {
            let api = Arc::clone(api);
            let metric = *metric;
            router.get_blocking(path, Weight::SMALL, move |req| {
                staking::legacy(&api, req, metric)
            })
        });
    networks::routes(router, api)
}

/// `GET /v1/{metric}/{chain}`: newest first, a hundred points a page, `interval` (`day` when
/// absent) where the OpenAPI names it.
fn legacy_series(
    api: &MetricsApi,
    req: &Request,
    metric: Metric,
    with_interval: bool,
) -> Result<Reply, ApiError> {
    let interval = if with_interval {
        params::interval_named(req, "interval")?
    } else {
        Interval::Day
    };
    series::v1_series(api, req, metric, interval, Form::V1Legacy, "chain")
}

/// `GET /v1/{metric}/{chainId}/rollingWindow`: the v2 windows the legacy answer names.
fn legacy_rolling(api: &MetricsApi, req: &Request, metric: Metric) -> Result<Reply, ApiError> {
    let offered = ROLLING.iter().map(|(_, m)| *m);
    let values = series::rolling_values(api, req.required_param("chainId")?, metric, offered)?;
    Reply::json(&LegacyRollingResponse {
        status: 200,
        last_run: values.last_run,
        result: legacy_windows(&values),
    })
}

fn legacy_windows(values: &RollingValues) -> LegacyRollingJson {
    let mut out = LegacyRollingJson::default();
    for (window, value) in &values.values {
        let slot = match window {
            Window::LastHour => &mut out.last_hour,
            Window::LastDay => &mut out.last_day,
            Window::LastMonth => &mut out.last_month,
            Window::LastYear => &mut out.last_year,
            Window::AllTime => &mut out.all_time,
            Window::LastWeek | Window::Last90Days => continue,
        };
        *slot = Some(*value);
    }
    out
}
