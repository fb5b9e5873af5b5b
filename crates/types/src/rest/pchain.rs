//! The P-Chain records of the Data API, with the members and enumerations of the Glacier
//! OpenAPI: `ListPChainBalancesResponse`, `PChainUtxo` (`ListPChainUtxosResponse`),
//! `HistoricalReward` and `PendingReward`, `PrimaryNetworkBlock`
//! (`ListPrimaryNetworkBlocksResponse`) and `L1ValidatorDetailsFull` (`ListL1ValidatorsResponse`).
//! Absent optional members are omitted, never `null`.

use serde::{Deserialize, Serialize};

use super::primary::{AggregatedAssetAmount, AssetAmount, PrimaryChainInfo};

/// `PChainSharedAsset`: a balance in atomic memory between the P-Chain and another chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PChainSharedAsset {
    /// The asset and the summed amount.
    #[serde(flatten)]
    pub asset: AssetAmount,
    /// How many UTXOs the amount sums.
    pub utxo_count: u64,
    /// The other chain of the shared memory (cb58).
    pub shared_with_chain_id: String,
    /// `exported` (the P-Chain exported it; the other chain imports it) or `importable`
    /// (exported to the P-Chain; a P-Chain `ImportTx` takes it).
    pub status: String,
}

/// `PChainBalance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PChainBalances {
    /// Spendable by any tx.
    pub unlocked_unstaked: Vec<AggregatedAssetAmount>,
    /// Staked; spendable by any tx when the staking period ends.
    pub unlocked_staked: Vec<AggregatedAssetAmount>,
    /// Time-locked: spendable by no tx yet.
    pub locked_platform: Vec<AggregatedAssetAmount>,
    /// Stakeable-locked: spendable only by staking txs yet.
    pub locked_stakeable: Vec<AggregatedAssetAmount>,
    /// Staked, and locked again when the staking period ends.
    pub locked_staked: Vec<AggregatedAssetAmount>,
    /// Staked by a staker whose period has not begun.
    pub pending_staked: Vec<AggregatedAssetAmount>,
    /// Spendable balances in atomic memory.
    pub atomic_memory_unlocked: Vec<PChainSharedAsset>,
    /// Time-locked balances in atomic memory.
    pub atomic_memory_locked: Vec<PChainSharedAsset>,
}

/// `ListPChainBalancesResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPChainBalancesResponse {
    /// The balances.
    pub balances: PChainBalances,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `PChainUtxo`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PChainUtxo {
    /// Owners (bech32 with the chain prefix, `P-avax1...`).
    pub addresses: Vec<String>,
    /// The asset and the amount.
    pub asset: AssetAmount,
    /// Chain that consumed it (or will: the destination of an export), cb58.
    pub consumed_on_chain_id: String,
    /// The consuming tx, once spent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consuming_tx_hash: Option<String>,
    /// Chain that created it, cb58.
    pub created_on_chain_id: String,
    /// UTXO id, cb58.
    pub utxo_id: String,
    /// The UTXO as `platform.getUTXOs` serves it, hex with checksum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utxo_bytes: Option<String>,
    /// The amount (deprecated member, still required).
    pub amount: String,
    /// The asset id (deprecated member, still required).
    pub asset_id: String,
    /// Height of the creating block, decimal digits.
    pub block_number: String,
    /// Time of the creating block, Unix seconds.
    pub block_timestamp: u64,
    /// Height of the consuming block, once spent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consuming_block_number: Option<String>,
    /// Time of the consuming block, once spent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consuming_block_timestamp: Option<u64>,
    /// Unix seconds after which it can be consumed (`OutputOwners.locktime`), when locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform_locktime: Option<u64>,
    /// Index of the output in its tx.
    pub output_index: u64,
    /// For rewards: `VALIDATOR`, `DELEGATOR` or `VALIDATOR_FEE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reward_type: Option<String>,
    /// Unix seconds before which it can only be staked, for stakeable-locked outputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stakeable_locktime: Option<u64>,
    /// Whether it is staked now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub staked: Option<bool>,
    /// Signatures needed to spend it.
    pub threshold: u32,
    /// The creating tx (for a stake: the staker tx; for a reward: the staker tx too).
    pub tx_hash: String,
    /// End of the staking period, for stakes and rewards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utxo_end_timestamp: Option<u64>,
    /// Start of the staking period, for stakes and rewards.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utxo_start_timestamp: Option<u64>,
    /// `STAKE` for staked outputs, `TRANSFER` otherwise.
    pub utxo_type: String,
}

/// `ListPChainUtxosResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPChainUtxosResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub utxos: Vec<PChainUtxo>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `Money`: a value in a currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Money {
    /// ISO 4217 code, lowercase.
    pub currency_code: String,
    /// The value: a decimal string in the spec's `Price`, a JSON number in the Glacier
    /// OpenAPI's `Money` (and the official SDK's); the data API's `--compat` profile picks.
    pub value: MoneyValue,
}

/// The value of a [`Money`], in the shape of the service's profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MoneyValue {
    /// A JSON number (the Glacier OpenAPI's `Money.value`).
    Number(f64),
    /// A JSON string holding a decimal (the spec's `Price.value`), e.g. `"42.42"`.
    Decimal(String),
}

impl MoneyValue {
    /// `value` as a decimal string: Rust's shortest round-trip form, which never uses an
    /// exponent (`1e-7` is `"0.0000001"`).
    pub fn decimal(value: f64) -> Self {
        Self::Decimal(value.to_string())
    }

    /// The value as a number (a decimal that does not parse is 0).
    pub fn as_f64(&self) -> f64 {
        match self {
            Self::Number(x) => *x,
            Self::Decimal(s) => s.parse().unwrap_or(0.0),
        }
    }
}

/// `AssetWithPriceInfo`: an amount and, where a price source exists, its price when granted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssetWithPriceInfo {
    /// The asset and the amount.
    #[serde(flatten)]
    pub asset: AssetAmount,
    /// The price when the reward was granted (omitted: no price source).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub historical_price: Option<Money>,
}

/// `HistoricalReward`: one reward UTXO paid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoricalReward {
    /// The reward UTXO's owners (`P-` addresses).
    pub addresses: Vec<String>,
    /// The staker tx.
    pub tx_hash: String,
    /// The stake, nAVAX, decimal digits.
    pub amount_staked: String,
    /// The node staked on.
    pub node_id: String,
    /// Start of the staking period.
    pub start_timestamp: u64,
    /// End of the staking period.
    pub end_timestamp: u64,
    /// `VALIDATOR`, `DELEGATOR` or `VALIDATOR_FEE`.
    pub reward_type: String,
    /// The reward UTXO.
    pub utxo_id: String,
    /// Its output index.
    pub output_index: u64,
    /// The amount paid.
    pub reward: AssetWithPriceInfo,
    /// The `RewardValidatorTx` that paid it.
    pub reward_tx_hash: String,
}

/// `ListHistoricalRewardsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListHistoricalRewardsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub historical_rewards: Vec<HistoricalReward>,
}

/// `PendingReward`: a stake still running and the reward it earns if rewarded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingReward {
    /// Its reward owners (`P-` addresses).
    pub addresses: Vec<String>,
    /// The staker tx.
    pub tx_hash: String,
    /// The stake, nAVAX, decimal digits.
    pub amount_staked: String,
    /// The node staked on.
    pub node_id: String,
    /// Start of the staking period.
    pub start_timestamp: u64,
    /// End of the staking period.
    pub end_timestamp: u64,
    /// `VALIDATOR` or `DELEGATOR`.
    pub reward_type: String,
    /// Percent of the staking period elapsed at the chain's time (0 to 100).
    pub progress: f64,
    /// The potential reward (avalanchego `potentialReward`).
    pub estimated_reward: AssetAmount,
}

/// `ListPendingRewardsResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPendingRewardsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub pending_rewards: Vec<PendingReward>,
}

/// `ProposerDetails`: the proposervm wrapper of a block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ProposerDetails {
    /// The wrapper's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_id: Option<String>,
    /// The wrapper's parent id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_parent_id: Option<String>,
    /// The proposer (`NodeID-...`), for signed blocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_node_id: Option<String>,
    /// The P-Chain height the proposer referenced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_p_chain_height: Option<u64>,
    /// The wrapper's time, Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_timestamp: Option<i64>,
}

/// `PrimaryNetworkBlock`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PrimaryNetworkBlock {
    /// Height, decimal digits.
    pub block_number: String,
    /// Block id.
    pub block_hash: String,
    /// Parent id.
    pub parent_hash: String,
    /// Block time, Unix seconds.
    pub block_timestamp: u64,
    /// The Go type name (`BanffStandardBlock`, ...).
    pub block_type: String,
    /// Number of txs.
    pub tx_count: u64,
    /// Tx ids.
    pub transactions: Vec<String>,
    /// Size, bytes.
    pub block_size_bytes: u64,
    /// Fees accrued per L1 validator after the block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1_validators_accrued_fees: Option<u64>,
    /// Active L1 validators after the block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_l1_validators: Option<u64>,
    /// The reward calculator's supply after the block, decimal digits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_supply: Option<String>,
    /// The proposervm wrapper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proposer_details: Option<ProposerDetails>,
}

/// `ListPrimaryNetworkBlocksResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListPrimaryNetworkBlocksResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub blocks: Vec<PrimaryNetworkBlock>,
    /// Which chain and network.
    pub chain_info: PrimaryChainInfo,
}

/// `BlsCredentials` of an L1 validator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlsCredentials {
    /// Compressed public key, `0x` hex (48 bytes).
    pub public_key: String,
    /// Proof of possession, `0x` hex (96 bytes).
    pub proof_of_possession: String,
}

/// `BalanceOwner`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BalanceOwner {
    /// `P-` addresses.
    pub addresses: Vec<String>,
    /// Signatures needed.
    pub threshold: u32,
}

/// `L1ValidatorDetailsFull`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct L1ValidatorDetails {
    /// Validation id, cb58.
    pub validation_id: String,
    /// Validation id, `0x` hex.
    pub validation_id_hex: String,
    /// `NodeID-...`.
    pub node_id: String,
    /// The L1.
    pub subnet_id: String,
    /// Weight; 0 once removed.
    pub weight: u64,
    /// Balance left, nAVAX, at the answer's `blockHeight`.
    pub remaining_balance: u64,
    /// Time of the tx that registered it.
    pub creation_timestamp: u64,
    /// Its BLS key and proof of possession.
    pub bls_credentials: BlsCredentials,
    /// Who gets the balance left when it leaves.
    pub remaining_balance_owner: BalanceOwner,
    /// Who may disable it.
    pub deactivation_owner: BalanceOwner,
}

/// `ListL1ValidatorsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListL1ValidatorsResponse {
    /// Token of the next page, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub validators: Vec<L1ValidatorDetails>,
    /// Height of the P-Chain block the balances are computed at, decimal digits.
    pub block_height: String,
}
