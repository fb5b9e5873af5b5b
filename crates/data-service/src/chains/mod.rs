//! `GET /v1/chains` and `GET /v1/chains/{chainId}`: the chain registry and its endpoints.

pub mod registry;

pub use registry::{ChainLookupError, ChainRegistry, RegistryError};
