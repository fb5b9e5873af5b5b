//! `GET /v1/networks/{network}/blockchains/{blockchainId}`: the details of the primary network's
//! chains (P, X and C), the blockchains this instance knows.

use snowline_query::params::BlockchainRef;
use snowline_rest::{ApiError, Reply, Request};
use snowline_types::rest::BlockchainDetails;
use snowline_types::{Chain, Id};

use super::context::{XChainApi, page_error};

/// Start time of the primary network's genesis on mainnet, Fuji and the local network
/// (avalanchego `genesis/genesis_{mainnet,fuji,local}.json`, `"startTime": 1599696000`): when
/// the three primary chains were created.
const GENESIS_START_TIME: u64 = 1_599_696_000;

/// `avm`'s VM id, cb58 of `"avm"` zero-padded (avalanchego `utils/constants/vm_ids.go`).
const AVM_ID: &str = "jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq";
/// `evm`'s VM id (coreth), cb58 of `"evm"` zero-padded.
const EVM_ID: &str = "mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6";

pub(crate) fn handle(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let target = api.target(req, &Chain::ALL);
    let target = match target {
        Ok(t) => t,
        // A well-formed blockchain id that is not a primary chain: not known here.
        Err(e) if e.status == snowline_rest::hyper::StatusCode::BAD_REQUEST => {
            let raw = req.required_param("blockchainId")?;
            if raw.parse::<Id>().is_ok()
                && BlockchainRef::parse(raw, api.network, &Chain::ALL).is_err()
            {
                return Err(ApiError::not_found(format!(
                    "blockchain {raw} is not known to this instance (it serves the primary \
                     network's P-, X- and C-Chain)"
                )));
            }
            return Err(e);
        }
        Err(e) => return Err(e),
    };
    let network = api.network;
    // The X-Chain's genesis time as indexed, when the index has one; else the network's.
    let summary = api.pages.summary().map_err(page_error)?;
    let created = summary.genesis_time.unwrap_or(GENESIS_START_TIME);
    let primary_subnet = Id::EMPTY.to_string();
    let details = match target.chain {
        Chain::P => BlockchainDetails {
            create_block_timestamp: created,
            create_block_number: "0".into(),
            blockchain_id: network.p_chain_id.to_string(),
            // The platform VM's id is the empty id.
            vm_id: Id::EMPTY.to_string(),
            subnet_id: primary_subnet,
            blockchain_name: "P-Chain".into(),
            evm_chain_id: None,
            genesis_data: None,
        },
        Chain::X => BlockchainDetails {
            create_block_timestamp: created,
            create_block_number: "0".into(),
            blockchain_id: network.x_chain_id.to_string(),
            vm_id: AVM_ID.into(),
            subnet_id: primary_subnet,
            blockchain_name: "X-Chain".into(),
            evm_chain_id: None,
            genesis_data: None,
        },
        Chain::C => BlockchainDetails {
            create_block_timestamp: created,
            create_block_number: "0".into(),
            blockchain_id: network.c_chain_id.to_string(),
            vm_id: EVM_ID.into(),
            subnet_id: primary_subnet,
            blockchain_name: "C-Chain".into(),
            evm_chain_id: Some(c_chain_evm_id(network.network_id)),
            genesis_data: None,
        },
    };
    Reply::json(&details)
}

/// The C-Chain's EVM chain id per network (43114 mainnet, 43113 Fuji, 43112 local).
fn c_chain_evm_id(network_id: u32) -> u64 {
    match network_id {
        snowline_types::network::MAINNET_ID => 43114,
        snowline_types::network::FUJI_ID => 43113,
        _ => 43112,
    }
}
