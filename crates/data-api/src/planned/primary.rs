//! The primary-network endpoints not indexed yet (spec endpoints 8, 9, 13 and 14) and ICM messages
//! (spec endpoint 18).

use std::sync::Arc;

use snowline_query::ParamError;
use snowline_query::params::{
    AddressList, BlockchainRef, Currency, SortOrder, TimeRange, boolean_or, cb58_id, chain_ref,
    evm_address, node_id, node_ids, page_size,
};
use snowline_rest::{ApiError, Reply, Request, Router, Weight};
use snowline_types::Chain;

use super::{Planned, not_indexed};
use crate::params::{bad, page_token_present};

pub(crate) fn routes(router: Router, planned: &Arc<Planned>) -> Router {
    let (a, b, c, d, e) = (
        Arc::clone(planned),
        Arc::clone(planned),
        Arc::clone(planned),
        Arc::clone(planned),
        Arc::clone(planned),
    );
    router
        .get("/v1/networks/{network}/rewards", Weight::XL, move |req| {
            let p = Arc::clone(&a);
            async move {
                rewards(&p, &req)?;
                Currency::parse_or(req.query("currency"), Currency::Usd).map_err(bad)?;
                Err::<Reply, _>(not_indexed("P-Chain staking rewards"))
            }
        })
        .get(
            "/v1/networks/{network}/rewards:listPending",
            Weight::XL,
            move |req| {
                let p = Arc::clone(&b);
                async move {
                    rewards(&p, &req)?;
                    Err::<Reply, _>(not_indexed("P-Chain staking rewards"))
                }
            },
        )
        .get(
            "/v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks",
            Weight::MEDIUM,
            move |req| {
                let p = Arc::clone(&c);
                async move {
                    p.network(req.required_param("network")?)?;
                    BlockchainRef::parse(
                        req.required_param("blockchainId")?,
                        p.network,
                        &Chain::ALL,
                    )
                    .map_err(bad)?;
                    node_id("nodeId", req.required_param("nodeId")?).map_err(bad)?;
                    TimeRange::parse(req.query("startTimestamp"), req.query("endTimestamp"))
                        .map_err(bad)?;
                    page_size(req.query("pageSize"), 100).map_err(bad)?;
                    page_token_present(&req)?;
                    Err::<Reply, _>(not_indexed("blocks proposed by a node"))
                }
            },
        )
        .get(
            "/v1/networks/{network}/l1Validators",
            Weight::MEDIUM,
            move |req| {
                let p = Arc::clone(&d);
                async move {
                    p.network(req.required_param("network")?)?;
                    page_size(req.query("pageSize"), 100).map_err(bad)?;
                    page_token_present(&req)?;
                    if let Some(raw) = req.query("l1ValidationId") {
                        cb58_id("l1ValidationId", raw).map_err(bad)?;
                    }
                    boolean_or(
                        "includeInactiveL1Validators",
                        req.query("includeInactiveL1Validators"),
                        false,
                    )
                    .map_err(bad)?;
                    if let Some(raw) = req.query("nodeId") {
                        node_id("nodeId", raw).map_err(bad)?;
                    }
                    if let Some(raw) = req.query("subnetId") {
                        cb58_id("subnetId", raw).map_err(bad)?;
                    }
                    Err::<Reply, _>(not_indexed("L1 validators"))
                }
            },
        )
        .get("/v1/icm/messages", Weight::MEDIUM, move |req| {
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

/// The rules both reward listings share: `network`, one of `addresses` / `nodeIds`, paging,
/// `sortOrder`.
fn rewards(p: &Planned, req: &Request) -> Result<(), ApiError> {
    p.network(req.required_param("network")?)?;
    let addresses = req.query("addresses");
    let nodes = req.query("nodeIds");
    if addresses.is_none() && nodes.is_none() {
        return Err(bad(ParamError::new(
            "addresses",
            "one of addresses or nodeIds is required",
        )));
    }
    if let Some(raw) = addresses {
        AddressList::parse(raw, p.network.hrp, &[Chain::P]).map_err(bad)?;
    }
    if let Some(raw) = nodes {
        node_ids("nodeIds", raw).map_err(bad)?;
    }
    page_size(req.query("pageSize"), 100).map_err(bad)?;
    SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?;
    page_token_present(req)?;
    Ok(())
}
