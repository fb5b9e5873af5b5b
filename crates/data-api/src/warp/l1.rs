//! The L1 Warp message a P-Chain tx carries or implies (ACP-77), which the P-Chain's validators
//! sign for the L1's validator manager: a `ConvertSubnetToL1Tx` implies the
//! `SubnetToL1ConversionMessage` (justified by the subnet id), a `RegisterL1ValidatorTx` the
//! `L1ValidatorRegistrationMessage` that the validation is registered, a `SetL1ValidatorWeightTx`
//! the `L1ValidatorWeightMessage` it applied. Each is an `AddressedCall` with an empty source
//! address from the P-Chain (avalanchego `vms/platformvm/network/warp.go`), signed by the L1's
//! subnet.

use snowline_chain_p::pages::PChainPages;
use snowline_rest_api::ApiError;
use snowline_types::Id;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::UnsignedTx;
use snowline_types::warp::l1::{
    ConversionData, ConversionValidatorData, L1Message, L1ValidatorRegistration,
    registration_validation_id,
};
use snowline_types::warp::{AddressedCall, Message, Payload, UnsignedMessage};

/// What a tx's L1 message needs signed.
pub(super) struct L1Job {
    pub(super) message: UnsignedMessage,
    pub(super) justification: Vec<u8>,
    pub(super) subnet: Id,
}

/// The L1 message of P-Chain tx `tx`, or a 404 saying why there is none.
pub(super) fn message_of_tx(
    pchain: &PChainPages,
    network: &NetworkInfo,
    tx: &Id,
) -> Result<L1Job, ApiError> {
    let read = |e: String| ApiError::internal(format!("reading the P-Chain index failed: {e}"));
    let (_, unsigned) = pchain
        .tx(tx)
        .map_err(|e| read(e.to_string()))?
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "transaction {tx} is not a P-Chain transaction indexed here (an X-Chain tx implies \
             no L1 Warp message)"
            ))
        })?;
    let none = |what: &str| {
        ApiError::not_found(format!(
            "transaction {tx} is a {}: {what}",
            unsigned.type_name()
        ))
    };
    let (message, justification, subnet) = match &unsigned {
        UnsignedTx::ConvertSubnetToL1Tx(c) => {
            let data = ConversionData {
                subnet_id: c.subnet_id,
                manager_chain_id: c.chain_id,
                manager_address: c.address.clone(),
                validators: c
                    .validators
                    .iter()
                    .map(|v| ConversionValidatorData {
                        node_id: v.node_id.clone(),
                        bls_public_key: v.signer.public_key,
                        weight: v.weight,
                    })
                    .collect(),
            };
            let m = L1Message::SubnetToL1Conversion {
                conversion_id: data.conversion_id(),
            };
            (m, c.subnet_id.0.to_vec(), c.subnet_id)
        }
        UnsignedTx::RegisterL1ValidatorTx(r) => {
            let register = carried(&r.message).map_err(|e| none(&e))?;
            let L1Message::RegisterL1Validator(v) = L1Message::parse(&register)
                .map_err(|e| none(&format!("its message does not parse: {e}")))?
            else {
                return Err(none("its message is not a RegisterL1ValidatorMessage"));
            };
            let m = L1Message::L1ValidatorRegistration(L1ValidatorRegistration {
                validation_id: registration_validation_id(&register),
                registered: true,
            });
            (m, Vec::new(), v.subnet_id)
        }
        UnsignedTx::SetL1ValidatorWeightTx(s) => {
            let carried = carried(&s.message).map_err(|e| none(&e))?;
            let L1Message::L1ValidatorWeight(w) = L1Message::parse(&carried)
                .map_err(|e| none(&format!("its message does not parse: {e}")))?
            else {
                return Err(none("its message is not an L1ValidatorWeightMessage"));
            };
            if w.weight == 0 {
                return Err(none(
                    "a removal, which the P-Chain acknowledges with an \
                     L1ValidatorRegistrationMessage justified by the validator's registration; \
                     not served here",
                ));
            }
            let row = pchain
                .l1_validator(&w.validation_id)
                .map_err(|e| read(e.to_string()))?
                .ok_or_else(|| none("its validation is not indexed"))?;
            (L1Message::L1ValidatorWeight(w), Vec::new(), row.subnet_id)
        }
        _ => return Err(none("it carries or implies no L1 Warp message")),
    };
    let call = Payload::AddressedCall(AddressedCall {
        source_address: Vec::new(),
        payload: message.bytes(),
    });
    Ok(L1Job {
        message: UnsignedMessage {
            network_id: network.network_id,
            source_chain_id: network.p_chain_id,
            payload: call.bytes(),
        },
        justification,
        subnet,
    })
}

/// The `AddressedCall` payload of the signed Warp message a tx carries.
fn carried(signed: &[u8]) -> Result<Vec<u8>, String> {
    let m = Message::parse(signed).map_err(|e| format!("its Warp message does not parse: {e}"))?;
    match Payload::parse(&m.unsigned.payload) {
        Ok(Payload::AddressedCall(call)) => Ok(call.payload),
        Ok(Payload::Hash(_)) => Err("its Warp message carries a hash, not a call".to_owned()),
        Err(e) => Err(format!("its Warp payload does not parse: {e}")),
    }
}
