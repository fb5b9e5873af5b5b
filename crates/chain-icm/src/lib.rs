//! The ICM room: TeleporterMessenger v1 messages from every indexed EVM chain. [`IcmDeriver`], a
//! [`BlockHook`](snowline_chain_evm::BlockHook) in each chain's EVM batches, writes the side of
//! each message that happened on that chain ([`tables`](mod@tables), [`rows`]); [`IcmPages`]
//! joins the sides by message id and lists them newest first. See `docs/icm.md`.

mod derive;
mod error;
pub mod metrics;
pub mod pages;
pub mod rows;
pub mod tables;
mod turn;

pub use derive::IcmDeriver;
pub use error::IcmError;
pub use metrics::IcmMetrics;
pub use metrics::{IcmCount, IcmCountQuery, IcmFilter, IcmGroup, IcmLabel};
pub use pages::{IcmPage, IcmPageError, IcmPages, IcmQuery, IcmView};
pub use tables::tables;
