//! [`Metric`]: the chain metrics of the metrics API (`ChainMetric` of its OpenAPI), which
//! `timeInterval` each allows, and its value in a bucket.

use crate::interval::Interval;
use crate::rows::Bucket;

/// A chain metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Distinct `from`/`to` addresses of txs and token transfers in the bucket.
    ActiveAddresses,
    /// Distinct `from` addresses.
    ActiveSenders,
    /// Txs since the first block, as of the bucket's end.
    CumulativeTxCount,
    /// Distinct addresses since the first block, as of the bucket's end.
    CumulativeAddresses,
    /// Contracts created since the first block, as of the bucket's end.
    CumulativeContracts,
    /// Distinct deployers since the first block, as of the bucket's end.
    CumulativeDeployers,
    /// Contracts created in the bucket.
    Contracts,
    /// Distinct deployers in the bucket.
    Deployers,
    /// Σ gas used.
    GasUsed,
    /// Txs.
    TxCount,
    /// Gas over the seconds from the last block before the bucket to its last block.
    AvgGps,
    /// The highest gas per second of one block.
    MaxGps,
    /// Txs over the seconds from the last block before the bucket to its last block.
    AvgTps,
    /// The highest txs per second of one block.
    MaxTps,
    /// Mean effective gas price of the txs, wei.
    AvgGasPrice,
    /// Highest effective gas price, wei.
    MaxGasPrice,
    /// Σ gasUsed × effectiveGasPrice, wei.
    FeesPaid,
}

/// A metric's value: a count (exact) or a ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// An exact integer.
    Count(u128),
    /// A quotient.
    Ratio(f64),
}

impl Metric {
    /// Every metric, in the OpenAPI's order.
    pub const ALL: [Metric; 17] = [
        Self::ActiveAddresses,
        Self::ActiveSenders,
        Self::CumulativeTxCount,
        Self::CumulativeAddresses,
        Self::CumulativeContracts,
        Self::CumulativeDeployers,
        Self::Contracts,
        Self::Deployers,
        Self::GasUsed,
        Self::TxCount,
        Self::AvgGps,
        Self::MaxGps,
        Self::AvgTps,
        Self::MaxTps,
        Self::AvgGasPrice,
        Self::MaxGasPrice,
        Self::FeesPaid,
    ];

    /// The name in paths (`txCount`).
    pub fn name(self) -> &'static str {
        match self {
            Self::ActiveAddresses => "activeAddresses",
            Self::ActiveSenders => "activeSenders",
            Self::CumulativeTxCount => "cumulativeTxCount",
            Self::CumulativeAddresses => "cumulativeAddresses",
            Self::CumulativeContracts => "cumulativeContracts",
            Self::CumulativeDeployers => "cumulativeDeployers",
            Self::Contracts => "contracts",
            Self::Deployers => "deployers",
            Self::GasUsed => "gasUsed",
            Self::TxCount => "txCount",
            Self::AvgGps => "avgGps",
            Self::MaxGps => "maxGps",
            Self::AvgTps => "avgTps",
            Self::MaxTps => "maxTps",
            Self::AvgGasPrice => "avgGasPrice",
            Self::MaxGasPrice => "maxGasPrice",
            Self::FeesPaid => "feesPaid",
        }
    }

    /// The metric a path names.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// Whether the metric is served at `interval`: the OpenAPI allows every interval for
    /// `activeAddresses`, `activeSenders`, `gasUsed` and `txCount`, only `day` for the others.
    pub fn allows(self, interval: Interval) -> bool {
        match self {
            Self::ActiveAddresses | Self::ActiveSenders | Self::GasUsed | Self::TxCount => true,
            _ => interval == Interval::Day,
        }
    }

    /// The intervals the metric is served at.
    pub fn intervals(self) -> impl Iterator<Item = Interval> {
        Interval::ALL.into_iter().filter(move |i| self.allows(*i))
    }

    /// The metric's value in bucket `b`.
    pub fn value(self, b: &Bucket) -> Value {
        let count = |n: u64| Value::Count(u128::from(n));
        let per_span = |n: u64| Value::Ratio(n as f64 / b.span() as f64);
        match self {
            Self::ActiveAddresses => count(b.active_addresses),
            Self::ActiveSenders => count(b.active_senders),
            Self::CumulativeTxCount => count(b.totals.txs),
            Self::CumulativeAddresses => count(b.totals.addresses),
            Self::CumulativeContracts => count(b.totals.contracts),
            Self::CumulativeDeployers => count(b.totals.deployers),
            Self::Contracts => count(b.contracts),
            Self::Deployers => count(b.deployers),
            Self::GasUsed => count(b.gas_used),
            Self::TxCount => count(b.txs),
            Self::AvgGps => per_span(b.gas_used),
            Self::MaxGps => Value::Ratio(b.max_gps.per_second()),
            Self::AvgTps => per_span(b.txs),
            Self::MaxTps => Value::Ratio(b.max_tps.per_second()),
            Self::AvgGasPrice if b.txs == 0 => Value::Ratio(0.0),
            Self::AvgGasPrice => Value::Ratio(b.gas_price_sum as f64 / b.txs as f64),
            Self::MaxGasPrice => Value::Count(b.gas_price_max),
            Self::FeesPaid => Value::Count(b.fees),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_intervals_follow_the_openapi() {
        for m in Metric::ALL {
            assert_eq!(Metric::from_name(m.name()), Some(m));
            assert!(m.allows(Interval::Day));
            let all = m.intervals().count() == 4;
            assert_eq!(
                all,
                ["activeAddresses", "activeSenders", "gasUsed", "txCount"].contains(&m.name())
            );
        }
        assert_eq!(Metric::from_name("avg_tps"), None);
    }
}
