//! Lean records of the JSON-RPC answers an EVM indexer reads: `eth_getBlockByNumber(n, true)`,
//! `eth_getBlockReceipts` / `eth_getTransactionReceipt` and their logs.
//!
//! Only the members the Data API's shapes need are declared; every other member (geth's,
//! coreth's `extDataHash`, subnet-evm's, anvil's `blockTimestamp`, `totalDifficulty` in any form,
//! blob fields, signatures) is skipped unread. Calldata and log data stay borrowed hex
//! ([`HexStr`]) until used. Quantities are `u64` where the protocol bounds them (heights, gas,
//! nonces, indices) and [`U256`] for amounts and prices.

use alloy_primitives::{Address, B256, U256};
use serde::Deserialize;

use super::hex_str::HexStr;
use super::quantity;

/// A block with its full transactions (`eth_getBlockByNumber(n, true)`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcBlock<'a> {
    /// Height.
    #[serde(deserialize_with = "quantity::u64")]
    pub number: u64,
    /// Block hash (as the node computed it: coreth's header is not geth's, so it is trusted).
    pub hash: B256,
    /// Parent's hash.
    pub parent_hash: B256,
    /// Unix seconds.
    #[serde(deserialize_with = "quantity::u64")]
    pub timestamp: u64,
    /// Unix milliseconds (coreth and subnet-evm from Granite).
    #[serde(default, deserialize_with = "quantity::opt_u64")]
    pub timestamp_milliseconds: Option<u64>,
    /// The minimum block delay excess (coreth and subnet-evm from Granite).
    #[serde(default, deserialize_with = "quantity::opt_u64")]
    pub min_delay_excess: Option<u64>,
    /// Fee recipient.
    pub miner: Address,
    /// Gas limit.
    #[serde(deserialize_with = "quantity::u64")]
    pub gas_limit: u64,
    /// Gas used by the block's transactions.
    #[serde(deserialize_with = "quantity::u64")]
    pub gas_used: u64,
    /// EIP-1559 base fee, wei (absent before London / Apricot Phase 3).
    #[serde(default)]
    pub base_fee_per_gas: Option<U256>,
    /// coreth / subnet-evm block gas cost (Apricot Phase 4 on).
    #[serde(default)]
    pub block_gas_cost: Option<U256>,
    /// coreth gas used by the block's atomic transactions.
    #[serde(default)]
    pub ext_data_gas_used: Option<U256>,
    /// coreth's atomic transactions, codec bytes (`0x` when none; absent on other EVMs).
    #[serde(default, borrow)]
    pub block_extra_data: Option<HexStr<'a>>,
    /// The transactions, in block order.
    #[serde(borrow)]
    pub transactions: Vec<RpcTransaction<'a>>,
}

/// A transaction as the block (or `eth_getTransactionByHash`) renders it: legacy, EIP-2930,
/// EIP-1559 or EIP-4844 alike.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcTransaction<'a> {
    /// Transaction hash.
    pub hash: B256,
    /// Sender's nonce.
    #[serde(deserialize_with = "quantity::u64")]
    pub nonce: u64,
    /// Block hash (null only for pending transactions, which an indexer never reads).
    #[serde(default)]
    pub block_hash: Option<B256>,
    /// Block height.
    #[serde(default, deserialize_with = "quantity::opt_u64")]
    pub block_number: Option<u64>,
    /// Position in the block.
    #[serde(default, deserialize_with = "quantity::opt_u64")]
    pub transaction_index: Option<u64>,
    /// Sender.
    pub from: Address,
    /// Recipient; `None` (null or absent) for a contract creation.
    #[serde(default)]
    pub to: Option<Address>,
    /// Value sent, wei.
    pub value: U256,
    /// Gas limit.
    #[serde(deserialize_with = "quantity::u64")]
    pub gas: u64,
    /// Gas price (legacy and 2930); for 1559 txs geth and coreth put the effective price here.
    #[serde(default)]
    pub gas_price: Option<U256>,
    /// EIP-1559 fee cap.
    #[serde(default)]
    pub max_fee_per_gas: Option<U256>,
    /// EIP-1559 tip cap.
    #[serde(default)]
    pub max_priority_fee_per_gas: Option<U256>,
    /// Calldata (`0x` for a plain transfer; init code for a creation).
    #[serde(borrow)]
    pub input: HexStr<'a>,
    /// EIP-2718 type: 0 legacy (also when absent, as pre-Berlin nodes answer), 1, 2, 3.
    #[serde(rename = "type", default, deserialize_with = "quantity::u64")]
    pub tx_type: u64,
}

/// A receipt (`eth_getBlockReceipts`, `eth_getTransactionReceipt`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcReceipt<'a> {
    /// The transaction.
    pub transaction_hash: B256,
    /// Its position in the block.
    #[serde(deserialize_with = "quantity::u64")]
    pub transaction_index: u64,
    /// Block hash.
    pub block_hash: B256,
    /// Block height.
    #[serde(deserialize_with = "quantity::u64")]
    pub block_number: u64,
    /// Sender.
    pub from: Address,
    /// Recipient; `None` for a creation.
    #[serde(default)]
    pub to: Option<Address>,
    /// Gas used by this transaction.
    #[serde(deserialize_with = "quantity::u64")]
    pub gas_used: u64,
    /// Gas used by the block up to and including this transaction.
    #[serde(deserialize_with = "quantity::u64")]
    pub cumulative_gas_used: u64,
    /// Price paid per gas (absent on pre-London nodes; then the tx's `gasPrice`).
    #[serde(default)]
    pub effective_gas_price: Option<U256>,
    /// The created contract, for a successful creation.
    #[serde(default)]
    pub contract_address: Option<Address>,
    /// The logs, in log-index order.
    #[serde(borrow)]
    pub logs: Vec<RpcLog<'a>>,
    /// 1 success, 0 failure (Byzantium on).
    #[serde(default, deserialize_with = "quantity::opt_u64")]
    pub status: Option<u64>,
    /// Post-state root (pre-Byzantium receipts, instead of `status`).
    #[serde(default)]
    pub root: Option<B256>,
    /// EIP-2718 type.
    #[serde(rename = "type", default, deserialize_with = "quantity::u64")]
    pub tx_type: u64,
}

impl RpcReceipt<'_> {
    /// Whether the transaction succeeded; `None` for a pre-Byzantium receipt (`root`, no
    /// `status`), whose outcome the receipt does not say.
    pub fn succeeded(&self) -> Option<bool> {
        self.status.map(|s| s == 1)
    }
}

/// A log.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcLog<'a> {
    /// Emitting contract.
    pub address: Address,
    /// Topics (0 to 4).
    pub topics: Vec<B256>,
    /// Non-indexed data.
    #[serde(borrow)]
    pub data: HexStr<'a>,
    /// Position in the block.
    #[serde(deserialize_with = "quantity::u64")]
    pub log_index: u64,
}
