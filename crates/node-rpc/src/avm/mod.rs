//! The `avm` service (avalanchego `vms/avm/service.go`) over the X-Chain state of
//! `snowline-chain-x`, mounted at `/ext/bc/X`, `/ext/bc/avm` and `/ext/bc/<X-Chain id>`: the ten
//! read methods with avalanchego's result JSON and error messages, under the [`Compat`] profile.

mod args;
mod chain;
mod utxos;

use std::sync::Arc;

use snowline_chain_x::state::XStateIndex;
use snowline_jsonrpc::{Endpoint, Router, RpcError, Service};
use snowline_types::components::JsonCtx;
use snowline_types::network::{Chain, NetworkInfo};
use snowline_types::{AddressContext, Id};

use crate::Compat;

/// avalanchego `errNilTxID`.
pub const NIL_TX_ID: &str = "nil transaction ID";
/// avalanchego `errNoAddresses`.
pub const NO_ADDRESSES: &str = "no addresses provided";
/// avalanchego `errTxNotCreateAsset`.
pub const NOT_CREATE_ASSET: &str = "transaction doesn't create an asset";
/// avalanchego `errNotLinearized`.
pub const NOT_LINEARIZED: &str = "chain is not linearized";
/// Most addresses one `getUTXOs` call takes (`maxGetUTXOsAddrs`).
pub const MAX_GET_UTXOS_ADDRS: usize = 1024;
/// Largest `getUTXOs` page (`maxPageSize`).
pub const MAX_PAGE_SIZE: usize = 1024;

/// Returns the current Unix time in seconds (locktime checks of `getBalance`).
pub type Clock = Arc<dyn Fn() -> u64 + Send + Sync>;

/// What the `avm` service needs besides the store.
#[derive(Clone)]
pub struct AvmConfig {
    /// The network (hrp, chain ids and aliases, fees).
    pub network: NetworkInfo,
    /// The behaviour profile.
    pub compat: Compat,
    /// The clock; [`system_clock`] in production, fixed in tests.
    pub clock: Clock,
}

impl std::fmt::Debug for AvmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvmConfig")
            .field("network", &self.network.name)
            .field("compat", &self.compat)
            .finish_non_exhaustive()
    }
}

impl AvmConfig {
    /// A config with the system clock.
    pub fn new(network: NetworkInfo, compat: Compat) -> Self {
        Self {
            network,
            compat,
            clock: Arc::new(system_clock),
        }
    }
}

/// Seconds since the Unix epoch from the system clock (0 if it is before 1970).
pub fn system_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Shared state of the handlers.
pub(crate) struct Ctx {
    pub(crate) state: XStateIndex,
    pub(crate) cfg: AvmConfig,
    pub(crate) addrs: AddressContext,
    pub(crate) json: JsonCtx,
}

impl Ctx {
    /// avalanchego `BCLookup.Lookup`: a chain alias or a primary chain's id string.
    pub(crate) fn lookup_chain(&self, s: &str) -> Result<Id, RpcError> {
        self.cfg
            .network
            .resolve_alias(s)
            .map(|c| self.cfg.network.chain_id(c))
            .ok_or_else(|| {
                RpcError::server(format!(
                    "problem parsing source chainID {s:?}: there is no ID with alias: {s}"
                ))
            })
    }
}

/// The error of a failed store read.
pub(crate) fn internal(e: impl std::fmt::Display) -> RpcError {
    RpcError::server(e)
}

/// The `avm` service over the X-Chain `state`.
pub fn service(state: XStateIndex, cfg: AvmConfig) -> Result<Service, RpcError> {
    let addrs = AddressContext::primary(&cfg.network, Chain::X).map_err(internal)?;
    let json = JsonCtx::new(Chain::X.primary_alias(), cfg.network.hrp).map_err(internal)?;
    let ctx = Arc::new(Ctx {
        state,
        cfg,
        addrs,
        json,
    });
    let svc = Service::new("avm");
    let svc = utxos::register(svc, &ctx);
    Ok(chain::register(svc, &ctx))
}

/// The URL paths the X-Chain API answers on: `/ext/bc/X`, `/ext/bc/avm`, `/ext/bc/<chain id>`.
pub fn avm_url_paths(network: &NetworkInfo) -> [String; 3] {
    [
        "/ext/bc/X".to_owned(),
        "/ext/bc/avm".to_owned(),
        format!("/ext/bc/{}", network.x_chain_id),
    ]
}

/// Mounts the `avm` service at every path of [`avm_url_paths`].
pub fn avm_routes(router: Router, state: XStateIndex, cfg: AvmConfig) -> Result<Router, RpcError> {
    let paths = avm_url_paths(&cfg.network);
    let svc = service(state, cfg)?;
    Ok(paths.into_iter().fold(router, |r, p| {
        r.rpc(p, Endpoint::new().service(svc.clone()))
    }))
}
