//! The legacy (v1) metrics operations as data: each series path with its metric and whether it
//! takes `interval`, and the rolling-window paths. Routing (`legacy`) and the v1 series' checks
//! (`series`) both read these tables.

use snowline_chain_metrics::Metric;

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
