//! The legacy OpenAPI's v1 chain metrics (`metrics-api-legacy-v1.json`): `/v1/{metric}/{chain}`
//! series with `from`, `to`, `startKey` (and `interval` where it names one), and
//! `/v1/{metric}/{chainId}/rollingWindow`. Each is a rendering of the v2 series and rolling
//! windows of the same [`Metric`]; `avg_tps` (which the spec also serves with `pageToken`) is in
//! [`series`](crate::series), the validator and delegator series in [`staking`].

use std::sync::Arc;

use snowline_chain_metrics::{Interval, Metric, RollingValues, Window};
use snowline_rest_api::{ApiError, Reply, Request, Router, Weight};

use crate::context::MetricsApi;
use crate::networks;
use crate::params;
use crate::render::{LegacyRollingJson, LegacyRollingResponse};
use crate::series::{self, Form};
use crate::staking;

/// A legacy series operation: its path, metric, and whether the OpenAPI gives it `interval`
/// (the others are daily).
pub(crate) struct SeriesOp {
    pub(crate) path: &'static str,
    pub(crate) metric: Metric,
    pub(crate) interval: bool,
}

const fn op(path: &'static str, metric: Metric, interval: bool) -> SeriesOp {
    SeriesOp {
        path,
        metric,
        interval,
    }
}

/// The legacy series but `avg_tps`, in the OpenAPI's order.
pub(crate) const SERIES: [SeriesOp; 13] = [
    op("/v1/active_senders/{chain}", Metric::ActiveSenders, true),
    op(
        "/v1/active_addresses/{chain}",
        Metric::ActiveAddresses,
        true,
    ),
    op("/v1/gas_used/{chain}", Metric::GasUsed, true),
    op("/v1/tx_count/{chain}", Metric::TxCount, true),
    op("/v1/avg_gps/{chain}", Metric::AvgGps, false),
    op("/v1/max_gps/{chain}", Metric::MaxGps, false),
    op("/v1/max_tps/{chain}", Metric::MaxTps, false),
    op("/v1/avg_gas_price/{chain}", Metric::AvgGasPrice, false),
    op("/v1/max_gas_price/{chain}", Metric::MaxGasPrice, false),
    op(
        "/v1/cumulative/addresses/{chain}",
        Metric::CumulativeAddresses,
        false,
    ),
    op(
        "/v1/cumulative/contracts/{chain}",
        Metric::CumulativeContracts,
        false,
    ),
    op(
        "/v1/cumulative/tx_count/{chain}",
        Metric::CumulativeTxCount,
        false,
    ),
    op(
        "/v1/cumulative/deployers/{chain}",
        Metric::CumulativeDeployers,
        false,
    ),
];

/// The legacy rolling windows: path and metric.
pub(crate) const ROLLING: [(&str, Metric); 8] = [
    ("/v1/gas_used/{chainId}/rollingWindow", Metric::GasUsed),
    ("/v1/tx_count/{chainId}/rollingWindow", Metric::TxCount),
    ("/v1/avg_gps/{chainId}/rollingWindow", Metric::AvgGps),
    ("/v1/max_gps/{chainId}/rollingWindow", Metric::MaxGps),
    ("/v1/avg_tps/{chainId}/rollingWindow", Metric::AvgTps),
    ("/v1/max_tps/{chainId}/rollingWindow", Metric::MaxTps),
    (
        "/v1/avg_gas_price/{chainId}/rollingWindow",
        Metric::AvgGasPrice,
    ),
    (
        "/v1/max_gas_price/{chainId}/rollingWindow",
        Metric::MaxGasPrice,
    ),
];

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
