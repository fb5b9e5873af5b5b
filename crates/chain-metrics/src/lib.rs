//! The metrics' room: EVM chain activity in buckets of an hour, a day, a week and a month
//! ([`tables`](mod@tables), [`rows`]), derived from each block in the EVM deriver's own batches
//! ([`ChainMetrics`], a [`BlockHook`](snowline_chain_evm::BlockHook)), read back as series
//! ([`MetricsPages`]), rolling windows ([`rolling`]) and sums over chains; and the metrics API's server-side page
//! tokens ([`StoredPageTokens`]). See `docs/metrics-api.md`.

mod activity;
mod aggregate;
mod derive;
pub mod interval;
pub mod metric;
pub mod rolling;
pub mod rows;
pub mod series;
pub mod tables;
pub mod tokens;

pub use activity::Activity;
pub use aggregate::summable;
pub use derive::ChainMetrics;
pub use interval::Interval;
pub use metric::{Metric, Value};
pub use rolling::{RollingValues, Window, windows_of};
pub use series::{MetricsPages, Point, SeriesError, SeriesPage, SeriesQuery};
pub use tables::tables;
pub use tokens::{Clock, ManualClock, StoredPageTokens, SystemClock, TOKEN_LIFETIME, TokenError};
