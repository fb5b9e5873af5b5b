//! The Data API's staking and network records: validators and delegators in each of their
//! statuses (`ActiveValidatorDetails`, `PendingValidatorDetails`, `CompletedValidatorDetails`,
//! `RemovedValidatorDetails`; `ActiveDelegatorDetails` and the others), the network's staking
//! totals (`GetNetworkDetailsResponse`), subnets (`Subnet`) and the chain listing. A status's record is one
//! struct whose fields of the other statuses are absent (omitted, never `null`).

use serde::{Deserialize, Serialize};

use super::pchain::BlsCredentials;
use super::primary::BlockchainDetails;

/// `Rewards`: a validator's rewards, paid or potential.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rewards {
    /// Its own reward, nAVAX.
    pub validation_reward_amount: String,
    /// The delegation fees it earns, nAVAX.
    pub delegation_reward_amount: String,
    /// Where its own reward is paid (`P-…`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_addresses: Option<Vec<String>>,
    /// The `RewardValidatorTx` that settled it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_tx_hash: Option<String>,
}

/// One validation, in the shape of its `validationStatus`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorDetails {
    /// The staker tx.
    pub tx_hash: String,
    /// `NodeID-…`.
    pub node_id: String,
    /// Its subnet.
    pub subnet_id: String,
    /// Its stake (weight), nAVAX.
    pub amount_staked: String,
    /// Its delegation fee, percent with four decimals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegation_fee: Option<String>,
    /// Start, Unix seconds.
    pub start_timestamp: u64,
    /// End, Unix seconds.
    pub end_timestamp: u64,
    /// Its BLS key (`AddPermissionlessValidatorTx` with a signer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bls_credentials: Option<BlsCredentials>,
    /// Active: its stake's share of its subnet's active stake, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stake_percentage: Option<f64>,
    /// Active and completed: its delegators.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegator_count: Option<u64>,
    /// Active and completed: their stakes, nAVAX.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount_delegated: Option<String>,
    /// Active: what delegators may still add, nAVAX.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delegation_capacity: Option<String>,
    /// Active: its uptime over its current period as the followed node measures it, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uptime_performance: Option<f64>,
    /// Active: the followed node's view of its health at its last poll.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validator_health: Option<ValidatorHealthDetails>,
    /// Active: its potential rewards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub potential_rewards: Option<Rewards>,
    /// Active: where it runs (`null`: the index knows no location).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub geolocation: Option<Option<serde_json::Value>>,
    /// Completed: its rewards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rewards: Option<Rewards>,
    /// Removed: the `RemoveSubnetValidatorTx`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_tx_hash: Option<String>,
    /// Removed: its time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove_timestamp: Option<u64>,
    /// `active`, `pending`, `completed` or `removed`.
    pub validation_status: String,
}

/// `ValidatorHealthDetails`: percentages of the last poll of the followed node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorHealthDetails {
    /// Requests the validator answered.
    pub reachability_percent: f64,
    /// Requests benched on the P-Chain.
    pub benched_p_chain_requests_percent: f64,
    /// Requests benched on the X-Chain.
    pub benched_x_chain_requests_percent: f64,
    /// Requests benched on the C-Chain.
    pub benched_c_chain_requests_percent: f64,
}

/// `ListValidatorDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListValidatorDetailsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub validators: Vec<ValidatorDetails>,
}

/// One delegation, in the shape of its `delegationStatus`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DelegatorDetails {
    /// The staker tx.
    pub tx_hash: String,
    /// `NodeID-…` delegated to.
    pub node_id: String,
    /// Where its reward is paid (`P-…`).
    pub reward_addresses: Vec<String>,
    /// Its stake, nAVAX.
    pub amount_delegated: String,
    /// Its validator's delegation fee, percent with four decimals.
    pub delegation_fee: String,
    /// Start, Unix seconds.
    pub start_timestamp: u64,
    /// End, Unix seconds.
    pub end_timestamp: u64,
    /// Active and pending: its potential reward, fee included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_gross_reward: Option<String>,
    /// Active and pending: its potential reward less the fee.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_net_reward: Option<String>,
    /// Completed: its reward, fee included (0 when not rewarded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gross_reward: Option<String>,
    /// Completed: its reward less the fee (0 when not rewarded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub net_reward: Option<String>,
    /// `active`, `pending` or `completed`.
    pub delegation_status: String,
}

/// `ListDelegatorDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListDelegatorDetailsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub delegators: Vec<DelegatorDetails>,
}

/// `StakingDistribution`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StakingDistribution {
    /// AvalancheGo version.
    pub version: String,
    /// Staked by validators of that version, nAVAX.
    pub amount_staked: String,
    /// Validators of that version.
    pub validator_count: u64,
}

/// `ValidatorsDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatorsDetails {
    /// Active primary-network validators.
    pub validator_count: u64,
    /// Their own stakes, nAVAX.
    pub total_amount_staked: String,
    /// The potential rewards of the active validations and delegations, nAVAX.
    pub estimated_annual_staking_reward: String,
    /// By AvalancheGo version.
    pub staking_distribution_by_version: Vec<StakingDistribution>,
    /// Active stake (validators and delegators) over the current supply.
    pub staking_ratio: String,
}

/// `DelegatorsDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DelegatorsDetails {
    /// Active primary-network delegators.
    pub delegator_count: u64,
    /// Their stakes, nAVAX.
    pub total_amount_staked: String,
}

/// `GetNetworkDetailsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetNetworkDetailsResponse {
    /// Validators.
    pub validator_details: ValidatorsDetails,
    /// Delegators.
    pub delegator_details: DelegatorsDetails,
}

/// `SubnetOwnershipInfo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubnetOwnershipInfo {
    /// Locktime of the owner.
    pub locktime: u64,
    /// Signatures needed.
    pub threshold: u32,
    /// Owner addresses (`avax1…`, no chain prefix).
    pub addresses: Vec<String>,
}

/// `L1ValidatorManagerDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct L1ValidatorManagerDetails {
    /// The manager's chain.
    pub blockchain_id: String,
    /// The manager's address on it, `0x` hex.
    pub contract_address: String,
}

/// `Subnet`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubnetRecord {
    /// Time of the `CreateSubnetTx`'s block.
    pub create_block_timestamp: u64,
    /// Height of that block, decimal.
    pub create_block_index: String,
    /// The subnet id.
    pub subnet_id: String,
    /// The owner's addresses (deprecated by the spec; the current owner).
    pub owner_addresses: Vec<String>,
    /// The owner's threshold (deprecated by the spec).
    pub threshold: u32,
    /// The owner's locktime (deprecated by the spec).
    pub locktime: u64,
    /// The current owner, after every `TransferSubnetOwnershipTx`.
    pub subnet_ownership_info: SubnetOwnershipInfo,
    /// Converted to an L1.
    #[serde(rename = "isL1")]
    pub is_l1: bool,
    /// The `ConvertSubnetToL1Tx`.
    #[serde(
        rename = "l1ConversionTransactionHash",
        skip_serializing_if = "Option::is_none"
    )]
    pub l1_conversion_transaction_hash: Option<String>,
    /// The L1's validator manager.
    #[serde(
        rename = "l1ValidatorManagerDetails",
        skip_serializing_if = "Option::is_none"
    )]
    pub l1_validator_manager_details: Option<L1ValidatorManagerDetails>,
    /// Its chains.
    pub blockchains: Vec<BlockchainDetails>,
}

/// `ListSubnetsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListSubnetsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub subnets: Vec<SubnetRecord>,
}

/// `ListBlockchainsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListBlockchainsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub blockchains: Vec<BlockchainDetails>,
}
