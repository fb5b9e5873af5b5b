//! The EVM records of an address's history and of the latest transactions and blocks, with the
//! members of the Glacier OpenAPI: `TransactionDetails` (v1 and v2), the listings of native
//! transactions and of each standard's transfers, `ListEvmBlocksResponse` and
//! `ListAddressChainsResponse`.

pub use crate::rest::evm_balances::TokenReputation;
use serde::{Deserialize, Serialize};

use super::{
    Erc20Transfer, Erc20TransferDetails, Erc20Type, Erc721Transfer, Erc721TransferDetails,
    Erc1155Transfer, Erc1155TransferDetails, GetEvmBlockResponse, InternalTransactionDetails,
    NativeTransaction,
};
use crate::rest::ChainRecord;
use crate::rest::pchain::Money;

/// `EvmBlock`: a listed block, the members of `GetEvmBlockResponse`.
pub type EvmBlock = GetEvmBlockResponse;

/// `TransactionDetails`: a transaction of an address's history with the transfers and internal
/// transactions the address was party to (omitted when there are none).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionDetails {
    /// The transaction.
    pub native_transaction: NativeTransaction,
    /// ERC-20 transfers from or to the address, by log index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc20_transfers: Option<Vec<Erc20TransferDetails>>,
    /// ERC-721 transfers from or to the address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc721_transfers: Option<Vec<Erc721TransferDetails>>,
    /// ERC-1155 transfers from or to the address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc1155_transfers: Option<Vec<Erc1155TransferDetails>>,
    /// Internal transactions from or to the address, depth-first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_transactions: Option<Vec<InternalTransactionDetails>>,
}

/// `TransactionDetailsV2`: as [`TransactionDetails`], ERC-20 tokens with their reputation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionDetailsV2 {
    /// The transaction.
    pub native_transaction: NativeTransaction,
    /// ERC-20 transfers from or to the address, by log index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc20_transfers: Option<Vec<Erc20TransferDetailsV2>>,
    /// ERC-721 transfers from or to the address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc721_transfers: Option<Vec<Erc721TransferDetails>>,
    /// ERC-1155 transfers from or to the address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc1155_transfers: Option<Vec<Erc1155TransferDetails>>,
    /// Internal transactions from or to the address, depth-first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_transactions: Option<Vec<InternalTransactionDetails>>,
}

/// `Erc20TransferDetailsV2`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20TransferDetailsV2 {
    /// Sender.
    pub from: super::RichAddress,
    /// Recipient.
    pub to: super::RichAddress,
    /// The log's index in the block.
    pub log_index: u64,
    /// Amount, smallest unit, decimal.
    pub value: String,
    /// The token.
    pub erc20_token: Erc20TokenV2,
}

/// `Erc20TokenV2`: `Erc20Token` with `tokenReputation`, a required member that is `null` when
/// the reputation is unknown (the OpenAPI's own rule for it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20TokenV2 {
    /// Contract address.
    pub address: String,
    /// `name()`.
    pub name: String,
    /// `symbol()`.
    pub symbol: String,
    /// `decimals()`.
    pub decimals: u8,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_uri: Option<String>,
    /// `ERC-20`.
    pub erc_type: Erc20Type,
    /// Price, when a price source knows the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Money>,
    /// The token's reputation; `null` when unknown.
    pub token_reputation: Option<TokenReputation>,
}

/// `ListTransactionDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTransactionDetailsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<TransactionDetails>,
}

/// `ListTransactionDetailsResponseV2`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTransactionDetailsResponseV2 {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<TransactionDetailsV2>,
}

/// `ListNativeTransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListNativeTransactionsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<NativeTransaction>,
}

/// `ListErc20TransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc20TransactionsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<Erc20Transfer>,
}

/// `ListErc721TransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc721TransactionsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<Erc721Transfer>,
}

/// `ListErc1155TransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc1155TransactionsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<Erc1155Transfer>,
}

/// `ListEvmBlocksResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListEvmBlocksResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub blocks: Vec<EvmBlock>,
}

/// `ListAddressChainsResponse`: the indexed chains where an address has activity, and the
/// chains this instance lists but does not index (where its activity is not known).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListAddressChainsResponse {
    /// Chains where the address sent, received or was party to a transfer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indexed_chains: Option<Vec<ChainRecord>>,
    /// EVM chain ids listed but not indexed here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unindexed_chains: Option<Vec<String>>,
}
