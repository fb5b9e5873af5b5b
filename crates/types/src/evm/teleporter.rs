//! ICM (TeleporterMessenger v1, `ava-labs/icm-services` `icm-contracts/avalanche/teleporter`):
//! the message structs, the six events an indexer follows decoded from a log, the message id
//! rule and the Teleporter message a Warp `AddressedCall` carries. Pure ABI work on
//! `alloy-sol-types`; which logs to feed in (the messenger's address) is the indexer's business.

use alloy_primitives::{Address, B256, U256, address, keccak256};
use alloy_sol_types::{SolEvent, SolType, SolValue};

use crate::warp::{AddressedCall, Payload};

/// The Solidity declarations, as `ITeleporterMessenger.sol` has them (v1).
#[allow(missing_docs)]
mod abi {
    alloy_sol_types::sol! {
        #[derive(Debug, PartialEq, Eq, Hash)]
        struct TeleporterMessageReceipt {
            uint256 receivedMessageNonce;
            address relayerRewardAddress;
        }

        #[derive(Debug, PartialEq, Eq, Hash)]
        struct TeleporterMessage {
            uint256 messageNonce;
            address originSenderAddress;
            bytes32 destinationBlockchainID;
            address destinationAddress;
            uint256 requiredGasLimit;
            address[] allowedRelayerAddresses;
            TeleporterMessageReceipt[] receipts;
            bytes message;
        }

        #[derive(Debug, PartialEq, Eq, Hash)]
        struct TeleporterFeeInfo {
            address feeTokenAddress;
            uint256 amount;
        }

        event SendCrossChainMessage(
            bytes32 indexed messageID,
            bytes32 indexed destinationBlockchainID,
            TeleporterMessage message,
            TeleporterFeeInfo feeInfo
        );
        event ReceiveCrossChainMessage(
            bytes32 indexed messageID,
            bytes32 indexed sourceBlockchainID,
            address indexed deliverer,
            address rewardRedeemer,
            TeleporterMessage message
        );
        event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
        event MessageExecutionFailed(
            bytes32 indexed messageID,
            bytes32 indexed sourceBlockchainID,
            TeleporterMessage message
        );
        event ReceiptReceived(
            bytes32 indexed messageID,
            bytes32 indexed destinationBlockchainID,
            address indexed relayerRewardAddress,
            TeleporterFeeInfo feeInfo
        );
        event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);
        event BlockchainIDInitialized(bytes32 indexed blockchainID);
    }
}

pub use abi::{TeleporterFeeInfo, TeleporterMessage, TeleporterMessageReceipt};

/// topic0 of `BlockchainIDInitialized(bytes32 indexed blockchainID)`: the messenger's first use
/// on a chain learns and logs the chain's own blockchain id from the Warp precompile.
pub const BLOCKCHAIN_ID_INITIALIZED_TOPIC: B256 = abi::BlockchainIDInitialized::SIGNATURE_HASH;

/// The blockchain id a `BlockchainIDInitialized` log names: `None` for any other log (or one
/// with another topic count).
pub fn blockchain_id_initialized(topics: &[B256]) -> Option<B256> {
    match topics {
        [t0, id] if *t0 == BLOCKCHAIN_ID_INITIALIZED_TOPIC => Some(*id),
        _ => None,
    }
}

/// TeleporterMessenger v1's address, the same on every chain and network (Nick's-method deploy;
/// a new major version gets a new address).
pub const TELEPORTER_MESSENGER_V1: Address = address!("253b2784c75e510dD0fF1da844684a1aC0aa5fcf");

/// topic0 of `SendCrossChainMessage`, from its signature.
pub const SEND_CROSS_CHAIN_MESSAGE_TOPIC: B256 = abi::SendCrossChainMessage::SIGNATURE_HASH;
/// topic0 of `ReceiveCrossChainMessage`, from its signature.
pub const RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC: B256 = abi::ReceiveCrossChainMessage::SIGNATURE_HASH;
/// topic0 of `MessageExecuted`, from its signature.
pub const MESSAGE_EXECUTED_TOPIC: B256 = abi::MessageExecuted::SIGNATURE_HASH;
/// topic0 of `MessageExecutionFailed`, from its signature.
pub const MESSAGE_EXECUTION_FAILED_TOPIC: B256 = abi::MessageExecutionFailed::SIGNATURE_HASH;
/// topic0 of `ReceiptReceived`, from its signature.
pub const RECEIPT_RECEIVED_TOPIC: B256 = abi::ReceiptReceived::SIGNATURE_HASH;
/// topic0 of `AddFeeAmount`, from its signature.
pub const ADD_FEE_AMOUNT_TOPIC: B256 = abi::AddFeeAmount::SIGNATURE_HASH;

/// The event signatures with their topic0, in the order of [`TeleporterEvent`]'s variants.
pub const TELEPORTER_EVENTS: [(&str, B256); 6] = [
    (
        abi::SendCrossChainMessage::SIGNATURE,
        SEND_CROSS_CHAIN_MESSAGE_TOPIC,
    ),
    (
        abi::ReceiveCrossChainMessage::SIGNATURE,
        RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC,
    ),
    (abi::MessageExecuted::SIGNATURE, MESSAGE_EXECUTED_TOPIC),
    (
        abi::MessageExecutionFailed::SIGNATURE,
        MESSAGE_EXECUTION_FAILED_TOPIC,
    ),
    (abi::ReceiptReceived::SIGNATURE, RECEIPT_RECEIVED_TOPIC),
    (abi::AddFeeAmount::SIGNATURE, ADD_FEE_AMOUNT_TOPIC),
];

/// A TeleporterMessenger event, decoded from a log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeleporterEvent {
    /// Source chain: a message was sent (also on `retrySendCrossChainMessage`'s re-send).
    SendCrossChainMessage {
        /// The message id.
        message_id: B256,
        /// Where it goes.
        destination_blockchain_id: B256,
        /// The message as the Warp payload carries it.
        message: TeleporterMessage,
        /// The relayer fee offered.
        fee_info: TeleporterFeeInfo,
    },
    /// Destination chain: a message was delivered (executed or not).
    ReceiveCrossChainMessage {
        /// The message id.
        message_id: B256,
        /// Where it came from.
        source_blockchain_id: B256,
        /// The transaction's sender that delivered it.
        deliverer: Address,
        /// Who may redeem the relayer fee.
        reward_redeemer: Address,
        /// The message.
        message: TeleporterMessage,
    },
    /// Destination chain: the message's call succeeded (at delivery or on a retry).
    MessageExecuted {
        /// The message id.
        message_id: B256,
        /// Where it came from.
        source_blockchain_id: B256,
    },
    /// Destination chain: the message's call reverted; it may be retried.
    MessageExecutionFailed {
        /// The message id.
        message_id: B256,
        /// Where it came from.
        source_blockchain_id: B256,
        /// The message, for `retryMessageExecution`.
        message: TeleporterMessage,
    },
    /// Source chain: a receipt came back, so the message was delivered and the fee is owed.
    ReceiptReceived {
        /// The message id.
        message_id: B256,
        /// Where the message went.
        destination_blockchain_id: B256,
        /// Who is paid the fee.
        relayer_reward_address: Address,
        /// The fee paid.
        fee_info: TeleporterFeeInfo,
    },
    /// Source chain: the fee of an undelivered message was raised.
    AddFeeAmount {
        /// The message id.
        message_id: B256,
        /// The fee after the addition (not the amount added).
        updated_fee_info: TeleporterFeeInfo,
    },
}

/// Why a log whose topic0 is a TeleporterMessenger event does not decode as that event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeleporterLogError {
    /// Not `1 +` the number of indexed parameters.
    #[error("{event}: {got} topics, expected {expected}")]
    TopicCount {
        /// The event.
        event: &'static str,
        /// Topics the log has.
        got: usize,
        /// Topics the event has.
        expected: usize,
    },
    /// An indexed `address` topic with non-zero padding, or data that is not the canonical ABI
    /// encoding of the event's other parameters.
    #[error("{event}: {reason}")]
    Abi {
        /// The event.
        event: &'static str,
        /// What alloy-sol-types says.
        reason: String,
    },
}

/// Why bytes are not a Teleporter message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeleporterPayloadError {
    /// A Warp `Hash` payload, which carries no message.
    #[error("warp payload is a hash, not an addressed call")]
    NotAddressedCall,
    /// The `AddressedCall`'s source address is not 20 bytes.
    #[error("addressed call source address is {0} bytes, not 20")]
    SourceAddress(usize),
    /// The payload is not the canonical `abi.encode(TeleporterMessage)`.
    #[error("invalid teleporter message: {0}")]
    Abi(String),
}

/// Decodes a log as one of the six TeleporterMessenger events: `Ok(None)` when topic0 is none of
/// them (or there are no topics), an error when it is one but the log does not have its shape.
pub fn decode_teleporter_log(
    topics: &[B256],
    data: &[u8],
) -> Result<Option<TeleporterEvent>, TeleporterLogError> {
    let Some(topic0) = topics.first() else {
        return Ok(None);
    };
    let event = match *topic0 {
        SEND_CROSS_CHAIN_MESSAGE_TOPIC => {
            let e = decode::<abi::SendCrossChainMessage>(topics, data)?;
            TeleporterEvent::SendCrossChainMessage {
                message_id: e.messageID,
                destination_blockchain_id: e.destinationBlockchainID,
                message: e.message,
                fee_info: e.feeInfo,
            }
        }
        RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC => {
            let e = decode::<abi::ReceiveCrossChainMessage>(topics, data)?;
            TeleporterEvent::ReceiveCrossChainMessage {
                message_id: e.messageID,
                source_blockchain_id: e.sourceBlockchainID,
                deliverer: e.deliverer,
                reward_redeemer: e.rewardRedeemer,
                message: e.message,
            }
        }
        MESSAGE_EXECUTED_TOPIC => {
            let e = decode::<abi::MessageExecuted>(topics, data)?;
            TeleporterEvent::MessageExecuted {
                message_id: e.messageID,
                source_blockchain_id: e.sourceBlockchainID,
            }
        }
        MESSAGE_EXECUTION_FAILED_TOPIC => {
            let e = decode::<abi::MessageExecutionFailed>(topics, data)?;
            TeleporterEvent::MessageExecutionFailed {
                message_id: e.messageID,
                source_blockchain_id: e.sourceBlockchainID,
                message: e.message,
            }
        }
        RECEIPT_RECEIVED_TOPIC => {
            let e = decode::<abi::ReceiptReceived>(topics, data)?;
            TeleporterEvent::ReceiptReceived {
                message_id: e.messageID,
                destination_blockchain_id: e.destinationBlockchainID,
                relayer_reward_address: e.relayerRewardAddress,
                fee_info: e.feeInfo,
            }
        }
        ADD_FEE_AMOUNT_TOPIC => {
            let e = decode::<abi::AddFeeAmount>(topics, data)?;
            TeleporterEvent::AddFeeAmount {
                message_id: e.messageID,
                updated_fee_info: e.updatedFeeInfo,
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(event))
}

/// One event, strictly: the exact topic count, zero-padded address topics, canonical data (what
/// the contract's `emit` writes; anything else did not come from it).
fn decode<E: SolEvent>(topics: &[B256], data: &[u8]) -> Result<E, TeleporterLogError> {
    let event = E::SIGNATURE.split('(').next().unwrap_or(E::SIGNATURE);
    let expected = <E::TopicList as alloy_sol_types::TopicList>::COUNT;
    if topics.len() != expected {
        return Err(TeleporterLogError::TopicCount {
            event,
            got: topics.len(),
            expected,
        });
    }
    let decoded = E::decode_raw_log_validate(topics.iter().copied(), data).map_err(|e| {
        TeleporterLogError::Abi {
            event,
            reason: e.to_string(),
        }
    })?;
    // The validating decoder accepts trailing bytes and offsets other than the canonical ones;
    // `emit` writes neither.
    if decoded.encode_data() != data {
        return Err(TeleporterLogError::Abi {
            event,
            reason: "data is not the canonical encoding".into(),
        });
    }
    Ok(decoded)
}

impl TeleporterEvent {
    /// The message id every event carries (topic 1).
    pub fn message_id(&self) -> B256 {
        match self {
            Self::SendCrossChainMessage { message_id, .. }
            | Self::ReceiveCrossChainMessage { message_id, .. }
            | Self::MessageExecuted { message_id, .. }
            | Self::MessageExecutionFailed { message_id, .. }
            | Self::ReceiptReceived { message_id, .. }
            | Self::AddFeeAmount { message_id, .. } => *message_id,
        }
    }

    /// The event's name, as in its signature.
    pub fn name(&self) -> &'static str {
        match self {
            Self::SendCrossChainMessage { .. } => "SendCrossChainMessage",
            Self::ReceiveCrossChainMessage { .. } => "ReceiveCrossChainMessage",
            Self::MessageExecuted { .. } => "MessageExecuted",
            Self::MessageExecutionFailed { .. } => "MessageExecutionFailed",
            Self::ReceiptReceived { .. } => "ReceiptReceived",
            Self::AddFeeAmount { .. } => "AddFeeAmount",
        }
    }

    /// The id the message rule gives for the message this event carries, emitted by `messenger`
    /// on the chain `this_chain`: a send's source is this chain, a delivery's is its topic.
    /// `None` for the events without the message (its nonce is needed).
    pub fn expected_message_id(&self, messenger: Address, this_chain: B256) -> Option<B256> {
        match self {
            Self::SendCrossChainMessage { message, .. } => Some(message_id(
                messenger,
                this_chain,
                message.destinationBlockchainID,
                message.messageNonce,
            )),
            Self::ReceiveCrossChainMessage {
                source_blockchain_id,
                message,
                ..
            }
            | Self::MessageExecutionFailed {
                source_blockchain_id,
                message,
                ..
            } => Some(message_id(
                messenger,
                *source_blockchain_id,
                message.destinationBlockchainID,
                message.messageNonce,
            )),
            _ => None,
        }
    }

    /// Whether the event's id follows the message id rule (`None` as for
    /// [`Self::expected_message_id`]): a log whose id does not is not the messenger's.
    pub fn message_id_matches(&self, messenger: Address, this_chain: B256) -> Option<bool> {
        self.expected_message_id(messenger, this_chain)
            .map(|id| id == self.message_id())
    }
}

/// The message id: `keccak256(abi.encode(messenger, sourceBlockchainID, destinationBlockchainID,
/// nonce))` (`TeleporterMessenger.calculateMessageID`).
pub fn message_id(
    messenger: Address,
    source_blockchain_id: B256,
    destination_blockchain_id: B256,
    nonce: U256,
) -> B256 {
    keccak256(
        (
            messenger,
            source_blockchain_id,
            destination_blockchain_id,
            nonce,
        )
            .abi_encode(),
    )
}

/// Whether `id` is the message id of that messenger, route and nonce.
pub fn is_message_id(
    id: B256,
    messenger: Address,
    source_blockchain_id: B256,
    destination_blockchain_id: B256,
    nonce: U256,
) -> bool {
    id == message_id(
        messenger,
        source_blockchain_id,
        destination_blockchain_id,
        nonce,
    )
}

/// Decodes a Teleporter message from its bytes: the canonical `abi.encode(TeleporterMessage)`
/// the messenger hands the Warp precompile.
pub fn decode_teleporter_message(
    bytes: &[u8],
) -> Result<TeleporterMessage, TeleporterPayloadError> {
    let message = <TeleporterMessage as SolType>::abi_decode_validate(bytes)
        .map_err(|e| TeleporterPayloadError::Abi(e.to_string()))?;
    // The validating decoder accepts trailing bytes and offsets other than the canonical ones;
    // `abi.encode` writes neither.
    if encode_teleporter_message(&message) != bytes {
        return Err(TeleporterPayloadError::Abi(
            "not the canonical encoding".into(),
        ));
    }
    Ok(message)
}

/// The bytes a Warp `AddressedCall` carries for this message (`abi.encode(message)`).
pub fn encode_teleporter_message(message: &TeleporterMessage) -> Vec<u8> {
    <TeleporterMessage as SolType>::abi_encode(message)
}

/// The sender contract and Teleporter message of an `AddressedCall`. Whether the sender is a
/// messenger the indexer trusts (e.g. [`TELEPORTER_MESSENGER_V1`]) is the caller's check.
pub fn teleporter_message_from_call(
    call: &AddressedCall,
) -> Result<(Address, TeleporterMessage), TeleporterPayloadError> {
    let sender = Address::try_from(call.source_address.as_slice())
        .map_err(|_| TeleporterPayloadError::SourceAddress(call.source_address.len()))?;
    Ok((sender, decode_teleporter_message(&call.payload)?))
}

/// As [`teleporter_message_from_call`], from a Warp payload (which must be an `AddressedCall`).
pub fn teleporter_message_from_payload(
    payload: &Payload,
) -> Result<(Address, TeleporterMessage), TeleporterPayloadError> {
    match payload {
        Payload::AddressedCall(call) => teleporter_message_from_call(call),
        Payload::Hash(_) => Err(TeleporterPayloadError::NotAddressedCall),
    }
}
