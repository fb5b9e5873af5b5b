//! The Data API as a REST library: one module per family of the spec's endpoints, registered on
//! `snowline-rest-api`'s router. A handler parses the request (with `query`'s parameter types),
//! calls one page function of a chain crate (or `access` for usage), and renders the spec's
//! records; this crate does HTTP only and never sees the store.

mod address_params;
pub mod apilogs;
pub mod cchain;
pub mod chains;
pub mod evm;
pub mod icm;
pub mod openapi;
pub mod operations;
mod params;
pub mod pchain;
pub mod pexport;
pub mod primary;
pub mod rpc_usage;
mod target;
pub mod usage;
mod usage_params;
pub mod warp;
pub mod webhooks;
pub mod xchain;
