//! The Data API's endpoints. Each module owns one family of endpoints: the records it serves and
//! the handlers registered on `snowline-rest-api`'s router. Handlers read through `query`,
//! `indexer` readers and `access`; none touches the store directly.

pub mod chains;
mod params;
pub mod planned;
pub mod usage;
pub mod xchain;
