//! An indexed message in the Data API's shape: `status` from which sides are indexed, the fee
//! token named from the source chain's token probes, ids in hex (message id, tx hashes) and
//! cb58 (blockchain ids), amounts and nonces in decimal.

use snowline_chain_icm::IcmView;
use snowline_chain_icm::rows::{Fee, TxAt};
use snowline_types::Id;
use snowline_types::evm::teleporter::TELEPORTER_MESSENGER_V1;
use snowline_types::evm::{Address, B256, U256};
use snowline_types::rest::evm::checksummed;
use snowline_types::rest::icm::{
    DeliveredIcmMessage, DeliveredSourceNotIndexedIcmMessage, IcmDestinationTransaction,
    IcmMessage, IcmMessageFields, IcmReceipt, IcmRewardDetails, IcmSourceTransaction,
    PendingIcmMessage,
};

use snowline_rest_api::ApiError;

use super::IcmApi;
use crate::evm::erc20_token;

/// The message as endpoint 18 answers it.
pub(super) fn message(api: &IcmApi, v: &IcmView) -> Result<IcmMessage, ApiError> {
    let fields = fields(api, v);
    let source_tx = v.sent.as_ref().map(|s| IcmSourceTransaction {
        tx_hash: B256::from(s.tx.tx_hash).to_string(),
        timestamp: s.tx.timestamp,
        gas_spent: s.tx.gas_used.to_string(),
    });
    let destination_tx = v.received.as_ref().map(|r| IcmDestinationTransaction {
        tx_hash: B256::from(r.tx.tx_hash).to_string(),
        timestamp: r.tx.timestamp,
        gas_spent: r.tx.gas_used.to_string(),
        reward_redeemer: checksummed(&Address::from(r.reward_redeemer)),
        deliverer_address: checksummed(&Address::from(r.tx.from)),
    });
    Ok(match (source_tx, destination_tx) {
        (Some(source_transaction), None) => IcmMessage::Pending(PendingIcmMessage {
            message: fields,
            source_transaction,
        }),
        (Some(source_transaction), Some(destination_transaction)) => {
            IcmMessage::Delivered(DeliveredIcmMessage {
                message: fields,
                source_transaction,
                destination_transaction,
            })
        }
        (None, Some(destination_transaction)) => {
            IcmMessage::DeliveredSourceNotIndexed(DeliveredSourceNotIndexedIcmMessage {
                message: fields,
                destination_transaction,
            })
        }
        // The pages never return a message neither side of which is indexed.
        (None, None) => {
            return Err(ApiError::internal(format!(
                "ICM message {} has neither side indexed",
                v.id
            )));
        }
    })
}

fn fields(api: &IcmApi, v: &IcmView) -> IcmMessageFields {
    let m = &v.message;
    let chain_of = |id: B256, at: Option<&TxAt>| {
        at.map(|t| t.chain.to_string())
            .or_else(|| api.evm_chain_of(id))
            .unwrap_or_default()
    };
    IcmMessageFields {
        message_id: v.id.to_string(),
        icm_contract_address: checksummed(&TELEPORTER_MESSENGER_V1),
        source_blockchain_id: Id::from(v.source.0).to_string(),
        destination_blockchain_id: Id::from(v.destination.0).to_string(),
        source_evm_chain_id: chain_of(v.source, v.sent.as_ref().map(|s| &s.tx)),
        destination_evm_chain_id: chain_of(v.destination, v.received.as_ref().map(|r| &r.tx)),
        message_nonce: m.messageNonce.to_string(),
        from: checksummed(&m.originSenderAddress),
        to: checksummed(&m.destinationAddress),
        data: Some(format!("0x{}", hex::encode(&m.message))),
        message_executed: v.execution.is_some_and(|e| e.executed),
        receipts: m
            .receipts
            .iter()
            .map(|r| IcmReceipt {
                received_message_nonce: r.receivedMessageNonce.to_string(),
                relayer_reward_address: checksummed(&r.relayerRewardAddress),
            })
            .collect(),
        receipt_delivered: v.receipt.is_some(),
        reward_details: reward(api, v),
    }
}

/// The relayer fee: the last addition's, else the send's, else the paid receipt's; a message
/// whose source chain is not indexed has none known (the zero address, `0`).
fn reward(api: &IcmApi, v: &IcmView) -> IcmRewardDetails {
    let fee: Option<Fee> = v
        .fee_added
        .map(|f| f.fee)
        .or(v.sent.as_ref().map(|s| s.fee))
        .or(v.receipt.map(|r| r.fee));
    let token = Address::from(fee.map(|f| f.token).unwrap_or_default());
    let source_chain = v.sent.as_ref().map(|s| s.tx.chain);
    let row = source_chain.and_then(|c| api.evm.token(c, token).ok().flatten());
    IcmRewardDetails {
        token: erc20_token(&token, row.as_ref(), None),
        value: fee
            .map(|f| U256::from_be_bytes(f.amount))
            .unwrap_or_default()
            .to_string(),
    }
}
