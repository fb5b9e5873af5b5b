//! ICM messages (spec endpoint 18), not indexed yet.

use std::sync::Arc;

use snowline_query::params::{cb58_id, chain_ref, evm_address, page_size};
use snowline_rest::{Reply, Router, Weight};

use super::{Planned, not_indexed};
use crate::params::{bad, page_token_present};

pub(crate) fn routes(router: Router, planned: &Arc<Planned>) -> Router {
    let e = Arc::clone(planned);
    router.get("/v1/icm/messages", Weight::MEDIUM, move |req| {
        let p = Arc::clone(&e);
        async move {
            page_size(req.query("pageSize"), 100).map_err(bad)?;
            page_token_present(&req)?;
            for name in ["sourceBlockchainId", "destinationBlockchainId"] {
                if let Some(raw) = req.query(name) {
                    chain_ref(name, raw).map_err(bad)?;
                }
            }
            if let Some(raw) = req.query("blockchainId") {
                cb58_id("blockchainId", raw).map_err(bad)?;
            }
            for name in ["to", "from"] {
                if let Some(raw) = req.query(name) {
                    evm_address(name, raw).map_err(bad)?;
                }
            }
            if let Some(raw) = req.query("network") {
                p.network(raw)?;
            }
            Err::<Reply, _>(not_indexed("ICM messages"))
        }
    })
}
