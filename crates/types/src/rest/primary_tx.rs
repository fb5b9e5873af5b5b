//! The primary network's tx records of the Data API, with the members of the Glacier OpenAPI:
//! `PChainTransaction` (`ListPChainTransactionsResponse`) and its parts, the X-Chain's
//! `XChainLinearTransaction` / `XChainNonLinearTransaction` (`ListXChainTransactionsResponse`). Absent optional
//! members are omitted, never `null`.

use serde::{Deserialize, Serialize};

use super::pchain::{BlsCredentials, PChainUtxo};
use super::primary::{AssetAmount, AssetType, PrimaryChainInfo, PrimaryChainName, XUtxo};

/// `PChainTransaction`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PChainTransaction {
    /// Tx id, cb58.
    pub tx_hash: String,
    /// `PChainTransactionType`.
    pub tx_type: String,
    /// Its block's time, Unix seconds.
    pub block_timestamp: u64,
    /// Its block's height.
    pub block_number: String,
    /// Its block's id, cb58.
    pub block_hash: String,
    /// The UTXOs it consumed.
    pub consumed_utxos: Vec<PChainUtxo>,
    /// The UTXOs it emitted.
    pub emitted_utxos: Vec<PChainUtxo>,
    /// The chain an `ImportTx` imports from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_chain: Option<String>,
    /// The chain an `ExportTx` exports to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_chain: Option<String>,
    /// The amounts of the emitted UTXOs, by asset.
    pub value: Vec<AssetAmount>,
    /// What it burned (consumed, less emitted and L1 balances), by asset.
    pub amount_burned: Vec<AssetAmount>,
    /// What it staked, by asset.
    pub amount_staked: Vec<AssetAmount>,
    /// What it gave L1 validators as balance.
    pub amount_l1_validator_balance_burned: Vec<AssetAmount>,
    /// Staker txs: the staking start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_timestamp: Option<u64>,
    /// Staker txs: the staking end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_timestamp: Option<u64>,
    /// Validators: the delegation fee, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegation_fee_percent: Option<String>,
    /// The node staked on or removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The subnet concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subnet_id: Option<String>,
    /// `ConvertSubnetToL1Tx`: the validator manager.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1_validator_manager_details: Option<L1ValidatorManagerDetails>,
    /// L1 txs: the validators registered or changed, as the tx left them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1_validator_details: Option<Vec<L1ValidatorDetailsTransaction>>,
    /// Primary-network staker txs: the reward they earn if rewarded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_reward: Option<String>,
    /// Staker txs: the `RewardValidatorTx` that settled them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_tx_hash: Option<String>,
    /// Staker txs: who their rewards are paid to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_addresses: Option<Vec<String>>,
    /// The memo, `0x` hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memo: Option<String>,
    /// `RewardValidatorTx`: the staker tx it settles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub staking_tx_hash: Option<String>,
    /// `CreateSubnetTx`, `TransferSubnetOwnershipTx`: the owners set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subnet_ownership_info: Option<SubnetOwnershipInfo>,
    /// `AddPermissionlessValidatorTx` with a BLS key: its key and proof of possession.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bls_credentials: Option<BlsCredentials>,
    /// `CreateChainTx`: the chain created.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blockchain_info: Option<BlockchainInfo>,
}

/// `L1ValidatorManagerDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct L1ValidatorManagerDetails {
    /// The manager's chain, cb58.
    pub blockchain_id: String,
    /// The manager's address, `0x` hex.
    pub contract_address: String,
}

/// `L1ValidatorDetailsTransaction`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct L1ValidatorDetailsTransaction {
    /// Validation id, cb58.
    pub validation_id: String,
    /// Validation id, `0x` hex.
    pub validation_id_hex: String,
    /// `NodeID-...`.
    pub node_id: String,
    /// The L1.
    pub subnet_id: String,
    /// Weight after the tx.
    pub weight: u64,
    /// Balance left after the tx, nAVAX.
    pub remaining_balance: u64,
    /// What the tx added to the balance (negative: returned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance_change: Option<i128>,
}

/// `SubnetOwnershipInfo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubnetOwnershipInfo {
    /// Locktime, Unix seconds.
    pub locktime: u64,
    /// Signatures needed.
    pub threshold: u32,
    /// `P-` addresses.
    pub addresses: Vec<String>,
}

/// `BlockchainInfo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockchainInfo {
    /// The chain's name.
    pub chain_name: String,
    /// Its VM, cb58.
    pub vm_id: String,
}

/// `ListPChainTransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPChainTransactionsResponse {
    /// Where the next page starts, when more may follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The txs.
    pub transactions: Vec<PChainTransaction>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `XChainAssetDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XChainAssetDetails {
    /// Asset id, cb58.
    pub asset_id: String,
    /// Name.
    pub name: String,
    /// Symbol.
    pub symbol: String,
    /// Decimal places.
    pub denomination: u8,
    /// `secp256k1` or `nft`.
    #[serde(rename = "type")]
    pub asset_type: AssetType,
    /// When its `CreateAssetTx` was accepted, Unix seconds.
    pub created_at_timestamp: u64,
    /// `fixed` or `variable`.
    pub cap: String,
}

/// `TransactionVertexDetail`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionVertexDetail {
    /// Vertex id, cb58.
    pub hash: String,
    /// Vertex height.
    pub height: u64,
    /// Vertex acceptance time, Unix seconds.
    pub timestamp: u64,
}

/// `XChainLinearTransaction` and `XChainNonLinearTransaction`: the members both share, and the
/// place (a block, or vertices) that tells them apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XChainTransaction {
    /// Tx id, cb58.
    pub tx_hash: String,
    /// `linear` or `non-linear`.
    pub chain_format: String,
    /// First acceptance time, Unix seconds.
    pub timestamp: u64,
    /// `XChainTransactionType`.
    pub tx_type: String,
    /// The memo, `0x` hex.
    pub memo: String,
    /// The UTXOs it consumed.
    pub consumed_utxos: Vec<XUtxo>,
    /// The UTXOs it emitted.
    pub emitted_utxos: Vec<XUtxo>,
    /// What its inputs unlocked, by asset.
    pub amount_unlocked: Vec<AssetAmount>,
    /// What its outputs created, by asset.
    pub amount_created: Vec<AssetAmount>,
    /// The chain an `ImportTx` imports from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_chain: Option<String>,
    /// The chain an `ExportTx` exports to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination_chain: Option<String>,
    /// A `CreateAssetTx`'s asset.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asset_created: Option<XChainAssetDetails>,
    /// Linear: the block's height.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_height: Option<u64>,
    /// Linear: the block's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_hash: Option<String>,
    /// Non-linear: the vertices holding it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<Vec<TransactionVertexDetail>>,
}

/// `ListXChainTransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListXChainTransactionsResponse {
    /// Where the next page starts, when more may follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The txs.
    pub transactions: Vec<XChainTransaction>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `LastActivityTimestamp`: when a set of addresses' UTXOs last moved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastActivityTimestamp {
    /// The tx's time, Unix seconds.
    pub timestamp: u64,
    /// The height of its block (or vertex).
    pub block_number: String,
    /// The tx, cb58.
    pub tx_hash: String,
    /// A UTXO of the addresses it consumed or emitted, cb58.
    pub utxo_id: String,
    /// Whether it consumed that UTXO.
    pub is_consumed: bool,
    /// The chain.
    pub chain_name: PrimaryChainName,
    /// The network as the request named it.
    pub network: String,
}

/// `ChainAddressChainIdMap`: the primary chains an address was seen on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainAddressChainIdMap {
    /// The address, without chain prefix.
    pub address: String,
    /// The chains' ids, cb58.
    pub blockchain_ids: Vec<String>,
}

/// `ChainAddressChainIdMapListResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChainAddressChainIdMapListResponse {
    /// One entry per address asked for.
    pub addresses: Vec<ChainAddressChainIdMap>,
}
