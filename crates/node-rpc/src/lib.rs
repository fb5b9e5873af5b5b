//! The node JSON-RPC services over Snowline's store: `index.*` on `/ext/index/{X/tx, X/block,
//! X/vtx, P/block, C/block}` (see [`index`]), `avm.*` ([`avm`]) and, over the devnet's
//! validators, `platform.getCurrentValidators` ([`platform`]), answering as avalanchego does under the
//! [`Compat`] profile chosen; [`gate`] checks the API keys and meters every call.

use std::str::FromStr;

use snowline_jsonrpc::{Endpoint, Router};
use snowline_node_index::ContainerIndex;
use snowline_types::container::IndexPath;

pub mod avm;
mod follow;
pub mod gate;
pub mod index;
pub mod platform;

pub use follow::follow_routes;

/// Which behaviour to follow where the spec and avalanchego differ
/// (`reference/spec-vs-real-services.md`, Node RPC table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compat {
    /// The spec (default): `getContainerRange` returns an array, `numToFetch` 0 gives `null`.
    #[default]
    Spec,
    /// avalanchego: `getContainerRange` returns `{"containers":[...]}`, `numToFetch` 0 is an
    /// error.
    Avalanchego,
}

/// An unknown `--compat` value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown compat profile {0:?} (expected \"spec\" or \"avalanchego\")")]
pub struct UnknownCompat(pub String);

impl FromStr for Compat {
    type Err = UnknownCompat;
    fn from_str(s: &str) -> Result<Self, UnknownCompat> {
        match s {
            "spec" => Ok(Compat::Spec),
            "avalanchego" => Ok(Compat::Avalanchego),
            other => Err(UnknownCompat(other.to_owned())),
        }
    }
}

impl std::fmt::Display for Compat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compat::Spec => "spec",
            Compat::Avalanchego => "avalanchego",
        })
    }
}

/// The URL path of an index: `/ext/index/X/tx` etc.
pub fn index_url_path(path: IndexPath) -> String {
    format!("/ext/index/{path}")
}

/// Mounts the `index` service of each of the five paths of `index` at `/ext/index/<path>` on
/// `router`.
pub fn index_routes(router: Router, index: &ContainerIndex, compat: Compat) -> Router {
    IndexPath::ALL.into_iter().fold(router, |r, path| {
        let svc = index::service(index, path, compat);
        r.rpc(index_url_path(path), Endpoint::new().service(svc))
    })
}
