//! `GET /v1/networks/{network}/addresses:listChainIds` (`getChainIdsForAddresses`): the
//! primary chains (P and X) on which each address ever owned a UTXO or took part in a tx.

use snowline_query::params::{AddressList, required, served_network};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::{ChainAddressChainIdMap, ChainAddressChainIdMapListResponse};

use super::PrimaryApi;
use crate::params::bad;

pub(super) fn handle(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let network = api.p.network;
    served_network(req.required_param("network")?, network)?;
    let raw = required("addresses", req.query("addresses")).map_err(bad)?;
    let addrs = AddressList::parse(raw, network.hrp, &[Chain::P, Chain::X]).map_err(bad)?;
    let on_p = api
        .p
        .pages
        .addresses_seen(&addrs.ids)
        .map_err(crate::pchain::page_error)?;
    let on_x = api
        .x
        .pages
        .addresses_seen(&addrs.ids)
        .map_err(crate::xchain::page_error)?;
    let addresses = addrs
        .strings
        .iter()
        .zip(on_p.into_iter().zip(on_x))
        .map(|(address, (p, x))| ChainAddressChainIdMap {
            address: address.clone(),
            blockchain_ids: [(p, network.p_chain_id), (x, network.x_chain_id)]
                .into_iter()
                .filter(|(seen, _)| *seen)
                .map(|(_, id)| id.to_string())
                .collect(),
        })
        .collect();
    Reply::json(&ChainAddressChainIdMapListResponse { addresses })
}
