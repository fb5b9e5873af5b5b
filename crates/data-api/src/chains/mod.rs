//! `GET /v1/chains` and `GET /v1/chains/{chainId}`: the chain registry and its endpoints.

pub mod registry;
mod routes;

pub use registry::{ChainLookupError, ChainRegistry, RegistryError};
pub use routes::routes;
