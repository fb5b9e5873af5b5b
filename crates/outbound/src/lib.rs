//! The one outbound HTTP(S) client of the services (webhook deliveries, NFT metadata):
//! a URL checked for its form ([`Target`]), its host resolved and every address checked against
//! the private-network rule ([`AllowList`], [`resolve`]), a connection to a checked address
//! itself (a second resolution cannot swap it), `https` over rustls with Mozilla's roots and
//! any the operator adds, keep-alive connections reused only for the destination they were
//! checked and made for ([`PoolConfig`]), the whole exchange within a timeout, the body capped,
//! and redirects refused or followed with each hop checked again ([`Client`]).
//! `docs/outbound.md`.

mod client;
mod error;
pub mod net;
mod pool;
mod tls;
mod url;

pub use client::{Client, ClientConfig, Redirects, Request, Response};
pub use error::OutboundError;
pub use hyper::Uri;
pub use net::{AllowList, Cidr, is_private, resolve};
pub use pool::PoolConfig;
pub use url::{MAX_URL_LEN, Target};
