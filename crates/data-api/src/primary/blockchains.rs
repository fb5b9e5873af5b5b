//! `GET /v1/networks/{network}/blockchains/{blockchainId}`: the details of every blockchain the
//! P-Chain created (the X- and C-Chain of its genesis, and every `CreateChainTx` since), and of
//! the P-Chain itself.

use snowline_chain_p::rows::ChainRow;
use snowline_query::params::BlockchainRef;
use snowline_query::params::served_network;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::formatting::encode_hex_checksum;
use snowline_types::network::NetworkInfo;
use snowline_types::rest::BlockchainDetails;
use snowline_types::{Chain, Id};

use super::PrimaryApi;
use crate::params::bad;

/// Start time of the primary network's genesis on mainnet, Fuji and the local network
/// (avalanchego `genesis/genesis_{mainnet,fuji,local}.json`, `"startTime": 1599696000`): when
/// the three primary chains were created, for an index without the P-Chain's genesis.
const GENESIS_START_TIME: u64 = 1_599_696_000;

/// `avm`'s VM id, cb58 of `"avm"` zero-padded (avalanchego `utils/constants/vm_ids.go`).
const AVM_ID: &str = "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq";
/// `evm`'s VM id (coreth), cb58 of `"evm"` zero-padded.
const EVM_ID: &str = "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6";

pub(super) fn handle(api: &PrimaryApi, req: &Request) -> Result<Reply, ApiError> {
    let network = api.p.network;
    served_network(req.required_param("network")?, network)?;
    let raw = req.required_param("blockchainId")?;
    // An alias or a primary chain id of this network; else any well-formed id.
    let id = match BlockchainRef::parse(raw, network, &Chain::ALL) {
        Ok(r) => chain_id(network, r.chain),
        Err(e) => raw.parse::<Id>().map_err(|_| bad(e))?,
    };
    let p_pages = &api.p.pages;
    let created = p_pages.chain(&id).map_err(crate::pchain::page_error)?;
    if let Some(row) = created {
        return Reply::json(&from_row(network, id, &row));
    }
    // The primary chains as the network's genesis defines them, when the index has no P-Chain
    // genesis (and always for the P-Chain, which no tx creates).
    let summary = api.x.pages.summary().map_err(crate::xchain::page_error)?;
    let created = summary.genesis_time.unwrap_or(GENESIS_START_TIME);
    let primary = |name: &str, vm: &str, evm: Option<u64>| BlockchainDetails {
        create_block_timestamp: created,
        create_block_number: "0".into(),
        blockchain_id: id.to_string(),
        vm_id: vm.into(),
        subnet_id: Id::EMPTY.to_string(),
        blockchain_name: name.into(),
        evm_chain_id: evm,
        genesis_data: None,
    };
    let details = if id == network.p_chain_id {
        // The platform VM's id is the empty id.
        primary("P-Chain", &Id::EMPTY.to_string(), None)
    } else if id == network.x_chain_id {
        primary("X-Chain", AVM_ID, None)
    } else if id == network.c_chain_id {
        primary("C-Chain", EVM_ID, Some(c_chain_evm_id(network.network_id)))
    } else {
        return Err(ApiError::not_found(format!(
            "blockchain {raw} is not known to this instance (no CreateChainTx created it on \
             the {} P-Chain)",
            network.name
        )));
    };
    Reply::json(&details)
}

fn chain_id(network: &NetworkInfo, chain: Chain) -> Id {
    match chain {
        Chain::P => network.p_chain_id,
        Chain::X => network.x_chain_id,
        Chain::C => network.c_chain_id,
    }
}

/// `Blockchain` of a chain the P-Chain created. An EVM genesis (a JSON object) is served as the
/// object, with `evmChainId` from its `config.chainId`; any other genesis as API hex.
pub(super) fn from_row(network: &NetworkInfo, id: Id, row: &ChainRow) -> BlockchainDetails {
    let json = serde_json::from_slice::<serde_json::Value>(&row.genesis)
        .ok()
        .filter(serde_json::Value::is_object);
    let evm_chain_id = json
        .as_ref()
        .and_then(|g| g.pointer("/config/chainId"))
        .and_then(serde_json::Value::as_u64)
        .or_else(|| (id == network.c_chain_id).then(|| c_chain_evm_id(network.network_id)));
    let genesis_data = match json {
        Some(object) => Some(object),
        None if row.genesis.is_empty() => None,
        None => Some(serde_json::Value::String(encode_hex_checksum(&row.genesis))),
    };
    BlockchainDetails {
        create_block_timestamp: row.created.timestamp,
        create_block_number: row.created.height.to_string(),
        blockchain_id: id.to_string(),
        vm_id: row.vm_id.to_string(),
        subnet_id: row.subnet_id.to_string(),
        blockchain_name: row.name.clone(),
        evm_chain_id,
        genesis_data,
    }
}

/// The C-Chain's EVM chain id per network (43114 mainnet, 43113 Fuji, 43112 local).
fn c_chain_evm_id(network_id: u32) -> u64 {
    match network_id {
        snowline_types::network::MAINNET_ID => 43114,
        snowline_types::network::FUJI_ID => 43113,
        _ => 43112,
    }
}
