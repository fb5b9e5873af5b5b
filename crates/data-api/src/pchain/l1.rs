//! `GET /v1/networks/{network}/l1Validators`: L1 validators by validation id, only the active
//! ones unless `includeInactiveL1Validators`, filtered by validation id, node and L1; balances
//! as of the answer's `blockHeight`.

use snowline_chain_p::pages::L1Query;
use snowline_chain_p::rows::L1ValidatorRow;
use snowline_query::FilterDigest;
use snowline_query::params::served_network;
use snowline_query::params::{boolean_or, cb58_id, node_id, page_size};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::Id;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::{
    BalanceOwner, BlsCredentials, L1ValidatorDetails, ListL1ValidatorsResponse,
};
use snowline_types::warp::l1::PChainOwner;

use super::context::{PChainApi, node_id_string, page_error};
use crate::params::{bad, page_token};

pub(crate) fn handle(api: &PChainApi, req: &Request) -> Result<Reply, ApiError> {
    served_network(req.required_param("network")?, api.network)?;
    let q = L1Query {
        validation_id: req
            .query("l1ValidationId")
            .map(|raw| cb58_id("l1ValidationId", raw))
            .transpose()
            .map_err(bad)?,
        node: req
            .query("nodeId")
            .map(|raw| node_id("nodeId", raw).map(|n| n.as_bytes().to_vec()))
            .transpose()
            .map_err(bad)?,
        subnet: req
            .query("subnetId")
            .map(|raw| cb58_id("subnetId", raw))
            .transpose()
            .map_err(bad)?,
        include_inactive: boolean_or(
            "includeInactiveL1Validators",
            req.query("includeInactiveL1Validators"),
            false,
        )
        .map_err(bad)?,
        page_size: page_size(req.query("pageSize"), 100).map_err(bad)? as usize,
    };
    let digest = FilterDigest::new("l1Validators")
        .field("network", api.network.name)
        .optional(
            "l1ValidationId",
            q.validation_id.map(|v| v.to_string()).as_deref(),
        )
        .optional("nodeId", q.node.as_deref().map(node_id_string).as_deref())
        .optional("subnetId", q.subnet.map(|s| s.to_string()).as_deref())
        .field(
            "includeInactiveL1Validators",
            if q.include_inactive { "true" } else { "false" },
        )
        .finish();
    let from = page_token(&api.tokens, req, &digest)?;
    let page = api
        .pages
        .l1_validators(&q, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListL1ValidatorsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        validators: page
            .validators
            .iter()
            .map(|(id, v)| record(api, id, v, page.accrued_fees))
            .collect(),
        block_height: page.height.unwrap_or(0).to_string(),
    })
}

fn record(api: &PChainApi, id: &Id, v: &L1ValidatorRow, accrued: u64) -> L1ValidatorDetails {
    let owner = |o: &PChainOwner| BalanceOwner {
        addresses: api.addresses(&o.addresses),
        threshold: o.threshold,
    };
    L1ValidatorDetails {
        validation_id: id.to_string(),
        validation_id_hex: encode_hex_plain(&id.0),
        node_id: node_id_string(&v.node_id),
        subnet_id: v.subnet_id.to_string(),
        weight: v.weight,
        remaining_balance: v.remaining_balance(accrued),
        creation_timestamp: v.created.timestamp,
        bls_credentials: BlsCredentials {
            public_key: encode_hex_plain(&v.public_key),
            proof_of_possession: encode_hex_plain(&v.proof_of_possession),
        },
        remaining_balance_owner: owner(&v.remaining_balance_owner),
        deactivation_owner: owner(&v.deactivation_owner),
    }
}
