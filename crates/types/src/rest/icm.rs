//! The Data API's ICM (Teleporter) records: `/v1/icm/messages` and `/v1/icm/messages/{id}`
//! answer [`IcmMessage`]s, one of three shapes told apart by `status`; a transaction's
//! [`TeleporterMessageInfo`] says which message it sent or delivered. Absent optional members are
//! omitted, never `null`.

use serde::{Deserialize, Serialize};

use super::evm::Erc20Token;

/// `IcmReceipt`: a receipt the message carried back to its source (`TeleporterMessageReceipt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmReceipt {
    /// Nonce of the message the receipt is for, decimal.
    pub received_message_nonce: String,
    /// Who is paid that message's fee.
    pub relayer_reward_address: String,
}

/// `IcmRewardDetails`: the relayer fee, an ERC-20 token with an amount.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IcmRewardDetails {
    /// The fee token (its `ercType` is always `ERC-20`).
    #[serde(flatten)]
    pub token: Erc20Token,
    /// The fee in the token's smallest unit, decimal (after any `AddFeeAmount`).
    pub value: String,
}

/// `IcmSourceTransaction`: the transaction that sent the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmSourceTransaction {
    /// Transaction hash.
    pub tx_hash: String,
    /// Block timestamp, seconds.
    pub timestamp: u64,
    /// Gas used, decimal.
    pub gas_spent: String,
}

/// `IcmDestinationTransaction`: the transaction that delivered the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmDestinationTransaction {
    /// Transaction hash.
    pub tx_hash: String,
    /// Block timestamp, seconds.
    pub timestamp: u64,
    /// Gas used, decimal.
    pub gas_spent: String,
    /// Who may redeem the fee (`ReceiveCrossChainMessage.rewardRedeemer`).
    pub reward_redeemer: String,
    /// The delivering transaction's sender (`ReceiveCrossChainMessage.deliverer`).
    pub deliverer_address: String,
}

/// The members the three message shapes share.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IcmMessageFields {
    /// Message id (`keccak256` of messenger, route and nonce).
    pub message_id: String,
    /// The TeleporterMessenger that sent it.
    pub icm_contract_address: String,
    /// Source blockchain id.
    pub source_blockchain_id: String,
    /// Destination blockchain id.
    pub destination_blockchain_id: String,
    /// Source EVM chain id, decimal.
    pub source_evm_chain_id: String,
    /// Destination EVM chain id, decimal.
    pub destination_evm_chain_id: String,
    /// The message nonce, decimal.
    pub message_nonce: String,
    /// `originSenderAddress`.
    pub from: String,
    /// `destinationAddress`.
    pub to: String,
    /// The message payload (`TeleporterMessage.message`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Whether `MessageExecuted` was seen for it.
    pub message_executed: bool,
    /// The receipts it carried.
    pub receipts: Vec<IcmReceipt>,
    /// Whether its receipt came back to the source (`ReceiptReceived`).
    pub receipt_delivered: bool,
    /// The relayer fee.
    pub reward_details: IcmRewardDetails,
}

/// `PendingIcmMessage`: sent, not yet seen delivered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingIcmMessage {
    /// The shared members.
    #[serde(flatten)]
    pub message: IcmMessageFields,
    /// The sending transaction.
    pub source_transaction: IcmSourceTransaction,
}

/// `DeliveredIcmMessage`: seen sent and delivered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveredIcmMessage {
    /// The shared members.
    #[serde(flatten)]
    pub message: IcmMessageFields,
    /// The sending transaction.
    pub source_transaction: IcmSourceTransaction,
    /// The delivering transaction.
    pub destination_transaction: IcmDestinationTransaction,
}

/// `DeliveredSourceNotIndexedIcmMessage`: delivered from a chain that is not indexed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveredSourceNotIndexedIcmMessage {
    /// The shared members.
    #[serde(flatten)]
    pub message: IcmMessageFields,
    /// The delivering transaction.
    pub destination_transaction: IcmDestinationTransaction,
}

/// An ICM message: the OpenAPI's `oneOf` of the three shapes with the discriminator `status`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status")]
pub enum IcmMessage {
    /// `pending`.
    #[serde(rename = "pending")]
    Pending(PendingIcmMessage),
    /// `delivered`.
    #[serde(rename = "delivered")]
    Delivered(DeliveredIcmMessage),
    /// `delivered_source_not_indexed`.
    #[serde(rename = "delivered_source_not_indexed")]
    DeliveredSourceNotIndexed(DeliveredSourceNotIndexedIcmMessage),
}

impl IcmMessage {
    /// The discriminator.
    pub fn status(&self) -> &'static str {
        match self {
            Self::Pending(_) => "pending",
            Self::Delivered(_) => "delivered",
            Self::DeliveredSourceNotIndexed(_) => "delivered_source_not_indexed",
        }
    }

    /// The shared members.
    pub fn fields(&self) -> &IcmMessageFields {
        match self {
            Self::Pending(m) => &m.message,
            Self::Delivered(m) => &m.message,
            Self::DeliveredSourceNotIndexed(m) => &m.message,
        }
    }
}

/// `ListIcmMessagesResponse`: a page of messages, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListIcmMessagesResponse {
    /// Token of the next page; absent on the last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The messages.
    pub messages: Vec<IcmMessage>,
}

/// `TransactionDirectionType`: whether a transaction sent or delivered its ICM message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TransactionDirectionType {
    /// The transaction sent the message.
    SourceTransaction,
    /// The transaction delivered it.
    DestinationTransaction,
}

/// `TeleporterMessageInfo`: the ICM message a transaction sent or delivered (the transaction and
/// deployment answers' `teleporterMessageInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TeleporterMessageInfo {
    /// Message id, hex.
    pub teleporter_message_id: String,
    /// Sent or delivered.
    pub direction: TransactionDirectionType,
    /// Source chain, for a delivering transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_chain_id: Option<String>,
    /// Destination chain, for a sending transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination_chain_id: Option<String>,
}
