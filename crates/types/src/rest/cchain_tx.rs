//! The C-Chain's atomic txs in the Data API (`getTxByHash`, `listLatestPrimaryNetworkTransactions`
//! on the C-Chain), with the members of the Glacier OpenAPI's `CChainExportTransaction`,
//! `CChainImportTransaction`, `EVMInput`, `EVMOutput` and `ListCChainAtomicTransactionsResponse`.
//! Absent optional members are omitted, never `null`.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use serde::{Deserialize, Serialize};

use super::primary::{AssetAmount, PrimaryChainInfo, UtxoCredential, XUtxo};
use crate::secp256k1::recover_message;

/// `CChainExportTransaction` (`txType` `ExportTx`: `evmInputs`, `emittedUtxos`) or
/// `CChainImportTransaction` (`txType` `ImportTx`: `evmOutputs`, `consumedUtxos`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CChainAtomicTransaction {
    /// Tx id, cb58.
    pub tx_hash: String,
    /// Its block's number.
    pub block_height: u64,
    /// Its block's hash, `0x` hex.
    pub block_hash: String,
    /// Its block's time, Unix seconds.
    pub timestamp: u64,
    /// The memo, `0x` hex (atomic txs of the C-Chain have none: `0x`).
    pub memo: String,
    /// What its inputs unlock, by asset: an export's EVM debits, an import's UTXOs.
    pub amount_unlocked: Vec<AssetAmount>,
    /// What its outputs create, by asset: an export's UTXOs, an import's EVM credits.
    pub amount_created: Vec<AssetAmount>,
    /// The chain the value leaves.
    pub source_chain: String,
    /// The chain the value reaches.
    pub destination_chain: String,
    /// `ExportTx` or `ImportTx`.
    pub tx_type: String,
    /// An export's EVM debits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evm_inputs: Option<Vec<EvmInputRecord>>,
    /// An export's UTXOs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitted_utxos: Option<Vec<XUtxo>>,
    /// An import's EVM credits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evm_outputs: Option<Vec<EvmOutputRecord>>,
    /// An import's UTXOs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed_utxos: Option<Vec<XUtxo>>,
}

/// `EVMInput`: an EVM address an export debits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvmInputRecord {
    /// The address, EIP-55 checksummed.
    pub from_address: String,
    /// The amount debited.
    pub asset: AssetAmount,
    /// The signatures authorising the debit.
    pub credentials: Vec<UtxoCredential>,
}

/// `EVMOutput`: an EVM address an import credits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvmOutputRecord {
    /// The address, EIP-55 checksummed.
    pub to_address: String,
    /// The amount credited.
    pub asset: AssetAmount,
}

/// `ListCChainAtomicTransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListCChainAtomicTransactionsResponse {
    /// Where the next page starts, when more may follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<CChainAtomicTransaction>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// An EVM address as the Data API writes it: `0x` and EIP-55 mixed-case hex.
pub fn evm_address_string(address: &[u8; 20]) -> String {
    super::evm::checksummed(&alloy_primitives::Address::from(*address))
}

impl UtxoCredential {
    /// A recoverable secp256k1 `signature` over `sha256(message)` (a tx's unsigned bytes), with
    /// the public key it recovers, both base64 without padding as the real service writes them
    /// (the OpenAPI's examples); the key is omitted when none recovers.
    pub fn of_signature(message: &[u8], signature: &[u8]) -> Self {
        UtxoCredential {
            signature: Some(STANDARD_NO_PAD.encode(signature)),
            public_key: recover_message(message, signature)
                .ok()
                .map(|k| STANDARD_NO_PAD.encode(k.to_bytes())),
        }
    }
}
