//! `GET` and `POST /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses`
//! (`getLastActivityTimestampByAddresses` and its v2, which takes the addresses in a
//! `PrimaryNetworkAddressesBodyDto` body): when the addresses' UTXOs last moved on the P- or
//! X-Chain, with the tx and a UTXO it moved.

use snowline_query::params::{AddressList, required};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Chain;
use snowline_types::rest::LastActivityTimestamp;

use super::PrimaryApi;
use crate::address_params::AddressesBody;
use crate::params::bad;
use crate::target::{not_indexed, resolve};

/// The GET form: `addresses` in the query.
pub(super) fn get(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let raw = required("addresses", req.query("addresses")).map_err(bad)?;
    answer(api, req, raw)
}

/// The POST form: `addresses` in the JSON body.
pub(super) fn post(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    answer(api, req, &AddressesBody::parse(req)?.addresses)
}

fn answer(api: &PrimaryApi, req: &Request, raw: &str) -> Result<Reply, ApiError> {
    let target = resolve(req, api.p.network, &Chain::ALL)?;
    let addrs = AddressList::parse(raw, api.p.network.hrp, &[target.chain]).map_err(bad)?;
    let found = match target.chain {
        Chain::P => api
            .p
            .pages
            .last_activity(&addrs.ids)
            .map_err(crate::pchain::page_error)?
            .map(|a| (a.tx_id, a.height, a.timestamp, a.utxo_id, a.consumed)),
        Chain::X => api
            .x
            .pages
            .last_activity(&addrs.ids)
            .map_err(crate::xchain::page_error)?
            .map(|a| {
                let height = a.height.unwrap_or(0);
                (a.tx_id, height, a.timestamp, a.utxo_id, a.consumed)
            }),
        chain => return Err(not_indexed(chain, "last activity")),
    };
    let Some((tx, height, timestamp, utxo, consumed)) = found else {
        return Err(ApiError::not_found(
            "no activity of these addresses is indexed".to_owned(),
        ));
    };
    let info = target.chain_info();
    Reply::json(&LastActivityTimestamp {
        timestamp,
        block_number: height.to_string(),
        tx_hash: tx.to_string(),
        utxo_id: utxo.to_string(),
        is_consumed: consumed,
        chain_name: info.chain_name,
        network: info.network,
    })
}
