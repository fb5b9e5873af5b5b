//! `GET /v1/networks/{network}/blockchains`: every chain the P-Chain created, by creation.
//! `GET /v1/networks/{network}/subnets` and `.../subnets/{subnetId}`: every subnet a
//! `CreateSubnetTx` created, by creation, with its current owner (after every
//! `TransferSubnetOwnershipTx`), its conversion to an L1 (the `ConvertSubnetToL1Tx`, the
//! validator manager's chain and address) and its chains.

use snowline_chain_p::pages::SubnetEntry;
use snowline_query::FilterDigest;
use snowline_query::params::{SortOrder, cb58_id, page_size, served_network};
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::address::format_bech32;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::staking::{
    L1ValidatorManagerDetails, ListBlockchainsResponse, ListSubnetsResponse, SubnetOwnershipInfo,
    SubnetRecord,
};

use super::PrimaryApi;
use super::blockchains::from_row;
use crate::params::{bad, page_token};
use crate::pchain::page_error;

/// `GET /v1/networks/{network}/subnets`.
pub(super) fn list(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let p = &api.p;
    served_network(req.required_param("network")?, p.network)?;
    let size = page_size(req.query("pageSize"), 10_000).map_err(bad)? as usize;
    let sort = SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?;
    let digest = FilterDigest::new("subnets")
        .field("network", p.network.name)
        .field("sortOrder", sort.as_str())
        .finish();
    let from = page_token(&p.tokens, req, &digest)?;
    let page = p
        .pages
        .subnets(sort, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListSubnetsResponse {
        next_page_token: page.next.map(|n| p.tokens.encode(&digest, &n, None)),
        subnets: page.subnets.iter().map(|s| record(api, s)).collect(),
    })
}

/// `GET /v1/networks/{network}/blockchains`.
pub(super) fn blockchains(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let p = &api.p;
    served_network(req.required_param("network")?, p.network)?;
    let size = page_size(req.query("pageSize"), 10_000).map_err(bad)? as usize;
    let sort = SortOrder::parse_or(req.query("sortOrder"), SortOrder::Desc).map_err(bad)?;
    let digest = FilterDigest::new("blockchains")
        .field("network", p.network.name)
        .field("sortOrder", sort.as_str())
        .finish();
    let from = page_token(&p.tokens, req, &digest)?;
    let page = p
        .pages
        .chains(sort, size, from.as_deref())
        .map_err(page_error)?;
    Reply::json(&ListBlockchainsResponse {
        next_page_token: page.next.map(|n| p.tokens.encode(&digest, &n, None)),
        blockchains: page
            .chains
            .iter()
            .map(|(id, row)| from_row(p.network, *id, row))
            .collect(),
    })
}

/// `GET /v1/networks/{network}/subnets/{subnetId}`.
pub(super) fn by_id(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let p = &api.p;
    served_network(req.required_param("network")?, p.network)?;
    let raw = req.required_param("subnetId")?;
    let id = cb58_id("subnetId", raw).map_err(bad)?;
    match p.pages.subnet(&id).map_err(page_error)? {
        Some(s) => Reply::json(&record(api, &s)),
        None => Err(ApiError::not_found(format!(
            "subnet {raw} is not known to this instance (no CreateSubnetTx created it on the {} \
             P-Chain)",
            p.network.name
        ))),
    }
}

fn record(api: &PrimaryApi, s: &SubnetEntry) -> SubnetRecord {
    let network = api.p.network;
    let owner = &s.row.owner;
    let addresses: Vec<String> = owner
        .addrs
        .iter()
        .filter_map(|a| format_bech32(network.hrp, a).ok())
        .collect();
    let conversion = s.row.conversion.as_ref();
    SubnetRecord {
        create_block_timestamp: s.row.created.timestamp,
        create_block_index: s.row.created.height.to_string(),
        subnet_id: s.id.to_string(),
        owner_addresses: addresses.clone(),
        threshold: owner.threshold,
        locktime: owner.locktime,
        subnet_ownership_info: SubnetOwnershipInfo {
            locktime: owner.locktime,
            threshold: owner.threshold,
            addresses,
        },
        is_l1: conversion.is_some(),
        l1_conversion_transaction_hash: conversion.map(|c| c.event.tx_id.to_string()),
        l1_validator_manager_details: conversion.map(|c| L1ValidatorManagerDetails {
            blockchain_id: c.chain_id.to_string(),
            contract_address: encode_hex_plain(&c.address),
        }),
        blockchains: s
            .chains
            .iter()
            .map(|(id, row)| from_row(network, *id, row))
            .collect(),
    }
}
