//! A fault-injecting upstream for tests and `cargo xtask harden faults`: a real HTTP server on
//! 127.0.0.1, port 0, that forwards each request to an upstream serving the index API (an
//! in-process devnet server, a `node-rpc serve`, a node) and, while a [`Fault`] is switched on,
//! answers as a failing node would. The proxy closes each connection after one answer, so a
//! follower's pooled connection never outlives a stop. See `docs/node-index.md`,
//! "Upstream faults".

mod fault;
mod http;
mod proxy;
pub mod script;

pub use fault::Fault;
pub use proxy::FaultProxy;
