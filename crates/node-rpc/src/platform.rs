//! The `platform` service's `getCurrentValidators` (avalanchego `vms/platformvm/service.md`),
//! mounted at `/ext/bc/P` and `/ext/bc/<P-Chain id>`, over a list of the primary network's
//! current validators that its source keeps current: the devnet's, with the uptimes its node
//! reports (`snowline_devnet::uptime`). Other subnets' validators are not served.

use std::sync::{Arc, PoisonError, RwLock};

use snowline_jsonrpc::{Endpoint, Router, RpcError, Service};
use snowline_types::Id;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::current_validators::{
    CurrentValidator, GetCurrentValidatorsArgs, GetCurrentValidatorsReply,
};

/// The primary network's current validators as the source last set them.
#[derive(Debug, Default)]
pub struct CurrentValidators {
    list: RwLock<Vec<CurrentValidator>>,
}

impl CurrentValidators {
    /// A list holding `validators`.
    pub fn new(validators: Vec<CurrentValidator>) -> Arc<Self> {
        Arc::new(Self {
            list: RwLock::new(validators),
        })
    }

    /// Replaces the list (after the source accepted more blocks).
    pub fn set(&self, validators: Vec<CurrentValidator>) {
        *self.list.write().unwrap_or_else(PoisonError::into_inner) = validators;
    }

    /// The answer to `args`: the primary network's validators, only those of `nodeIDs` when
    /// given.
    pub fn answer(
        &self,
        args: &GetCurrentValidatorsArgs,
    ) -> Result<GetCurrentValidatorsReply, RpcError> {
        if args.subnet_id.is_some_and(|s| s != Id::EMPTY) {
            return Err(RpcError::server(
                "only the primary network's current validators are served here",
            ));
        }
        let list = self.list.read().unwrap_or_else(PoisonError::into_inner);
        let validators = list
            .iter()
            .filter(|v| args.node_ids.is_empty() || args.node_ids.contains(&v.node_id))
            .cloned()
            .collect();
        Ok(GetCurrentValidatorsReply { validators })
    }
}

/// The URL paths the P-Chain API answers on: `/ext/bc/P` and `/ext/bc/<P-Chain id>`.
pub fn platform_url_paths(network: &NetworkInfo) -> [String; 2] {
    [
        "/ext/bc/P".to_owned(),
        format!("/ext/bc/{}", network.p_chain_id),
    ]
}

/// Mounts `platform.getCurrentValidators` over `validators` at every path of
/// [`platform_url_paths`].
pub fn platform_routes(
    router: Router,
    network: &NetworkInfo,
    validators: Arc<CurrentValidators>,
) -> Router {
    let svc = Service::new("platform").method(
        "getCurrentValidators",
        move |_, args: GetCurrentValidatorsArgs| validators.answer(&args),
    );
    platform_url_paths(network)
        .into_iter()
        .fold(router, |r, p| {
            r.rpc(p, Endpoint::new().service(svc.clone()))
        })
}
