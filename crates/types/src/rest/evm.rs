//! The EVM records of the Data API, with the members and enumerations of the Glacier OpenAPI:
//! blocks (`GetEvmBlockResponse`), transactions (`GetTransactionResponse`, which the deployment
//! endpoint answers too, `NativeTransaction`, `Method`), ERC transfers (`ListTransfersResponse`),
//! internal transactions (`ListInternalTransactionsResponse`), balances
//! (`GetNativeBalanceResponse`, `ListErc721BalancesResponse`) and deployed contracts
//! (`ListContractsResponse`, a union told apart by `ercType`). Addresses are strings in EIP-55
//! mixed case; amounts are decimal strings. Absent optional members are omitted, never `null`.

use serde::{Deserialize, Serialize};

use super::chain::NetworkToken;

mod history;
use super::pchain::Money;
pub use history::*;
// The ICM records a transaction carries live in `icm`; named here too, where they are used.
pub use super::icm::{TeleporterMessageInfo, TransactionDirectionType};

/// `RichAddress`: an address with what is known of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct RichAddress {
    /// Contract name, for a known contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Token symbol, for a token contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Token decimals, for a token contract.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<u8>,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_uri: Option<String>,
    /// The address, EIP-55 mixed case.
    pub address: String,
}

impl RichAddress {
    /// An address with nothing more known.
    pub fn plain(address: impl Into<String>) -> Self {
        Self {
            address: address.into(),
            ..Self::default()
        }
    }

    /// An address with nothing more known, from its bytes.
    pub fn of(address: &alloy_primitives::Address) -> Self {
        Self::plain(checksummed(address))
    }
}

/// An address as the Data API writes it: `0x` and EIP-55 mixed-case hex (not chain-specific,
/// as EIP-1191 would be). Each checksum is a keccak-256 and a page names the same few
/// addresses many times, so the last ones are remembered per thread (a direct-mapped table
/// of [`CHECKSUM_SLOTS`] by the address's last bytes).
pub fn checksummed(address: &alloy_primitives::Address) -> String {
    thread_local! {
        static SEEN: std::cell::RefCell<Vec<Option<(alloy_primitives::Address, String)>>> =
            std::cell::RefCell::new(vec![None; CHECKSUM_SLOTS]);
    }
    let slot = usize::from(u16::from_be_bytes([address[18], address[19]])) % CHECKSUM_SLOTS;
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        match &seen[slot] {
            Some((a, text)) if a == address => text.clone(),
            _ => {
                let text = address.to_checksum(None);
                seen[slot] = Some((*address, text.clone()));
                text
            }
        }
    })
}

/// How many checksums each thread remembers.
pub const CHECKSUM_SLOTS: usize = 1024;

/// `ErcType`: the token standard of a contract (the `ercType` discriminator).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErcType {
    /// `ERC-20`.
    #[serde(rename = "ERC-20")]
    Erc20,
    /// `ERC-721`.
    #[serde(rename = "ERC-721")]
    Erc721,
    /// `ERC-1155`.
    #[serde(rename = "ERC-1155")]
    Erc1155,
    /// `UNKNOWN`: a contract of no recognised standard.
    #[serde(rename = "UNKNOWN")]
    Unknown,
}

/// The `ercType` of an ERC-20 record, which can hold nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Erc20Type {
    /// `ERC-20`.
    #[default]
    #[serde(rename = "ERC-20")]
    Erc20,
}

/// The `ercType` of an ERC-721 record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Erc721Type {
    /// `ERC-721`.
    #[default]
    #[serde(rename = "ERC-721")]
    Erc721,
}

/// The `ercType` of an ERC-1155 record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Erc1155Type {
    /// `ERC-1155`.
    #[default]
    #[serde(rename = "ERC-1155")]
    Erc1155,
}

/// `TransactionMethodType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TransactionMethodType {
    /// A value transfer without input.
    NativeTransfer,
    /// A call with input.
    ContractCall,
    /// A creation (no `to`).
    ContractCreation,
}

/// `Method`: what a transaction called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Method {
    /// The kind of call.
    pub call_type: TransactionMethodType,
    /// The selector (`0xa9059cbb`) of a contract call; empty for the other kinds.
    pub method_hash: String,
    /// The text signature (`transfer(address,uint256)`), `Native Transfer` or
    /// `Contract Created`; omitted for an unknown selector.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method_name: Option<String>,
}

/// `InternalTransactionOpCall`: the opcode of an internal transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum InternalTxType {
    /// `UNKNOWN`.
    Unknown,
    /// `CALL`.
    Call,
    /// `CREATE`.
    Create,
    /// `CREATE2`.
    Create2,
    /// `CREATE3`.
    Create3,
    /// `CALLCODE`.
    CallCode,
    /// `DELEGATECALL`.
    DelegateCall,
    /// `STATICCALL`.
    StaticCall,
}

/// `GetEvmBlockResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetEvmBlockResponse {
    /// EVM chain id, decimal.
    pub chain_id: String,
    /// Height, decimal.
    pub block_number: String,
    /// Unix seconds.
    pub block_timestamp: u64,
    /// Unix milliseconds (from Granite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_timestamp_milliseconds: Option<u64>,
    /// The block's minimum delay excess (from Granite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_min_delay_excess: Option<u64>,
    /// Block hash, `0x` hex.
    pub block_hash: String,
    /// Number of EVM transactions.
    pub tx_count: u64,
    /// Base fee, wei, decimal.
    pub base_fee: String,
    /// Gas used, decimal.
    pub gas_used: String,
    /// Gas limit, decimal.
    pub gas_limit: String,
    /// Block gas cost, decimal.
    pub gas_cost: String,
    /// Parent's hash.
    pub parent_hash: String,
    /// Fees spent by the block's transactions, wei, decimal.
    pub fees_spent: String,
    /// Transactions of the chain up to and including this block, decimal.
    pub cumulative_transactions: String,
}

/// `Erc20Token`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20Token {
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
}

/// `NftTokenMetadataStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum NftTokenMetadataStatus {
    /// `UNKNOWN`.
    Unknown,
    /// `MISSING_TOKEN`.
    MissingToken,
    /// `INVALID_TOKEN_URI`.
    InvalidTokenUri,
    /// `INVALID_TOKEN_URI_SCHEME`.
    InvalidTokenUriScheme,
    /// `UNREACHABLE_TOKEN_URI`.
    UnreachableTokenUri,
    /// `THROTTLED_TOKEN_URI`.
    ThrottledTokenUri,
    /// `METADATA_CONTENT_TOO_LARGE`.
    MetadataContentTooLarge,
    /// `INVALID_METADATA`.
    InvalidMetadata,
    /// `INVALID_METADATA_JSON`.
    InvalidMetadataJson,
    /// `INDEXED`.
    Indexed,
    /// `UNINDEXED`: metadata not fetched (this service fetches none).
    Unindexed,
}

/// The members `Erc721TokenMetadata` and `Erc1155TokenMetadata` share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NftMetadata {
    /// Whether and how the metadata was fetched.
    pub index_status: NftTokenMetadataStatus,
    /// When it was last fetched, Unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata_last_updated_timestamp: Option<u64>,
    /// `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `symbol`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// `image`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_uri: Option<String>,
    /// `description`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `animation_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animation_uri: Option<String>,
    /// `external_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_url: Option<String>,
    /// `background_color`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
}

impl NftMetadata {
    /// Metadata not fetched.
    pub fn unindexed() -> Self {
        Self {
            index_status: NftTokenMetadataStatus::Unindexed,
            metadata_last_updated_timestamp: None,
            name: None,
            symbol: None,
            image_uri: None,
            description: None,
            animation_uri: None,
            external_url: None,
            background: None,
        }
    }
}

/// `Erc721TokenMetadata`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc721TokenMetadata {
    /// The shared members.
    #[serde(flatten)]
    pub common: NftMetadata,
    /// `attributes`, as JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attributes: Option<String>,
}

/// `Erc1155TokenMetadata`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc1155TokenMetadata {
    /// The shared members.
    #[serde(flatten)]
    pub common: NftMetadata,
    /// `decimals`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decimals: Option<u8>,
    /// `properties`, as JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub properties: Option<String>,
}

/// `Erc721Token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc721Token {
    /// Contract address.
    pub address: String,
    /// `name()`.
    pub name: String,
    /// `symbol()`.
    pub symbol: String,
    /// `ERC-721`.
    pub erc_type: Erc721Type,
    /// Token id, decimal.
    pub token_id: String,
    /// `tokenURI(tokenId)`.
    pub token_uri: String,
    /// Metadata behind the URI.
    pub metadata: Erc721TokenMetadata,
    /// Current owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_address: Option<String>,
}

/// `Erc1155Token`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc1155Token {
    /// Contract address.
    pub address: String,
    /// `ERC-1155`.
    pub erc_type: Erc1155Type,
    /// Token id, decimal.
    pub token_id: String,
    /// `uri(id)`.
    pub token_uri: String,
    /// Metadata behind the URI.
    pub metadata: Erc1155TokenMetadata,
}

/// Where a listed record happened: the members every EVM listing record starts with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TxLocation {
    /// Height, decimal.
    pub block_number: String,
    /// Unix seconds.
    pub block_timestamp: u64,
    /// Unix milliseconds (from Granite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_timestamp_milliseconds: Option<u64>,
    /// Block hash.
    pub block_hash: String,
    /// Transaction hash.
    pub tx_hash: String,
}

/// `Erc20TransferDetails`: an ERC-20 transfer within a transaction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20TransferDetails {
    /// Sender.
    pub from: RichAddress,
    /// Recipient.
    pub to: RichAddress,
    /// The log's index in the block.
    pub log_index: u64,
    /// Amount, smallest unit, decimal.
    pub value: String,
    /// The token.
    pub erc20_token: Erc20Token,
}

/// `Erc721TransferDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc721TransferDetails {
    /// Sender.
    pub from: RichAddress,
    /// Recipient.
    pub to: RichAddress,
    /// The log's index in the block.
    pub log_index: u64,
    /// The token.
    pub erc721_token: Erc721Token,
}

/// `Erc1155TransferDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc1155TransferDetails {
    /// Sender.
    pub from: RichAddress,
    /// Recipient.
    pub to: RichAddress,
    /// The log's index in the block.
    pub log_index: u64,
    /// Amount, decimal.
    pub value: String,
    /// The token.
    pub erc1155_token: Erc1155Token,
}

/// `Erc20Transfer`: a listed ERC-20 transfer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Erc20Transfer {
    /// Block and transaction.
    #[serde(flatten)]
    pub location: TxLocation,
    /// The transfer.
    #[serde(flatten)]
    pub transfer: Erc20TransferDetails,
}

/// `Erc721Transfer`: a listed ERC-721 transfer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erc721Transfer {
    /// Block and transaction.
    #[serde(flatten)]
    pub location: TxLocation,
    /// The transfer.
    #[serde(flatten)]
    pub transfer: Erc721TransferDetails,
}

/// `Erc1155Transfer`: a listed ERC-1155 transfer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Erc1155Transfer {
    /// Block and transaction.
    #[serde(flatten)]
    pub location: TxLocation,
    /// The transfer.
    #[serde(flatten)]
    pub transfer: Erc1155TransferDetails,
}

/// One record of `ListTransfersResponse` (`oneOf` the three, told apart by the token member).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TransferRecord {
    /// An ERC-20 transfer.
    Erc20(Erc20Transfer),
    /// An ERC-721 transfer.
    Erc721(Erc721Transfer),
    /// An ERC-1155 transfer.
    Erc1155(Erc1155Transfer),
}

/// `ListTransfersResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTransfersResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transfers: Vec<TransferRecord>,
}

/// `InternalTransactionDetails`: an internal transaction within a transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InternalTransactionDetails {
    /// Caller.
    pub from: RichAddress,
    /// Callee or created contract.
    pub to: RichAddress,
    /// The opcode.
    pub internal_tx_type: InternalTxType,
    /// Value moved, wei, decimal.
    pub value: String,
    /// Whether the frame's effects were undone.
    pub is_reverted: bool,
    /// Gas used, decimal.
    pub gas_used: String,
    /// Gas given, decimal.
    pub gas_limit: String,
}

/// `InternalTransaction`: a listed internal transaction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InternalTransaction {
    /// Block and transaction.
    #[serde(flatten)]
    pub location: TxLocation,
    /// The internal transaction.
    #[serde(flatten)]
    pub details: InternalTransactionDetails,
}

/// `ListInternalTransactionsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListInternalTransactionsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub transactions: Vec<InternalTransaction>,
}

/// `NativeTokenBalance`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NativeTokenBalance {
    /// Token name.
    pub name: String,
    /// Token symbol.
    pub symbol: String,
    /// Decimals (18).
    pub decimals: u8,
    /// Logo URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_uri: Option<String>,
    /// EVM chain id, decimal.
    pub chain_id: String,
    /// Price, when a price source exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<Money>,
    /// Balance, wei, decimal.
    pub balance: String,
    /// Value of the balance, when priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance_value: Option<Money>,
}

/// `GetNativeBalanceResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetNativeBalanceResponse {
    /// The balance.
    pub native_token_balance: NativeTokenBalance,
}

/// `Erc721TokenBalance`: an owned ERC-721 token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc721TokenBalance {
    /// The token.
    #[serde(flatten)]
    pub token: Erc721Token,
    /// EVM chain id, decimal.
    pub chain_id: String,
}

/// `ListErc721BalancesResponse`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListErc721BalancesResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// The native balance.
    pub native_token_balance: NativeTokenBalance,
    /// This page.
    pub erc721_token_balances: Vec<Erc721TokenBalance>,
}

/// `ImageAsset`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ImageAsset {
    /// Asset id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asset_id: Option<String>,
    /// Image URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_uri: Option<String>,
}

/// `ResourceLinkType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[allow(missing_docs)]
pub enum ResourceLinkType {
    Blog,
    CoinGecko,
    CoinMarketCap,
    Discord,
    Documentation,
    Facebook,
    Github,
    Instagram,
    LinkedIn,
    Medium,
    Reddit,
    Support,
    Telegram,
    TikTok,
    Twitter,
    Website,
    Whitepaper,
    Youtube,
}

/// `ResourceLink`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceLink {
    /// What it links to.
    #[serde(rename = "type")]
    pub link_type: ResourceLinkType,
    /// URL.
    pub url: String,
}

/// `ContractDeploymentDetails`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContractDeploymentDetails {
    /// The deploying transaction.
    pub tx_hash: String,
    /// The transaction's sender.
    pub deployer_address: String,
    /// The contract that ran the `CREATE`/`CREATE2`, when not the transaction itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployer_contract_address: Option<String>,
}

/// `PricingProviders`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PricingProviders {
    /// CoinGecko's id of the token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coingecko_coin_id: Option<String>,
}

/// The members every contract record has (`UnknownContract` is exactly these).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct ContractInfo {
    /// Contract name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Web site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub official_site: Option<String>,
    /// Contact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Logo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo_asset: Option<ImageAsset>,
    /// Banner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banner_asset: Option<ImageAsset>,
    /// Brand colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Links.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_links: Option<Vec<ResourceLink>>,
    /// Tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// The contract's address.
    pub address: String,
    /// How it was deployed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_details: Option<ContractDeploymentDetails>,
}

/// `Erc20Contract` (without its `ercType`, which [`DeployedContract`] writes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc20Contract {
    /// The shared members.
    #[serde(flatten)]
    pub info: ContractInfo,
    /// `symbol()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// `decimals()`.
    pub decimals: u8,
    /// Price sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing_providers: Option<PricingProviders>,
}

/// `Erc721Contract` (without its `ercType`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc721Contract {
    /// The shared members.
    #[serde(flatten)]
    pub info: ContractInfo,
    /// `symbol()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
}

/// `Erc1155Contract` (without its `ercType`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Erc1155Contract {
    /// The shared members.
    #[serde(flatten)]
    pub info: ContractInfo,
    /// `symbol()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// Price sources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing_providers: Option<PricingProviders>,
}

/// A contract record: the OpenAPI's `oneOf` of `Erc721Contract`, `Erc1155Contract`,
/// `Erc20Contract` and `UnknownContract` with the discriminator `ercType`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "ercType")]
pub enum DeployedContract {
    /// `ERC-20`.
    #[serde(rename = "ERC-20")]
    Erc20(Erc20Contract),
    /// `ERC-721`.
    #[serde(rename = "ERC-721")]
    Erc721(Erc721Contract),
    /// `ERC-1155`.
    #[serde(rename = "ERC-1155")]
    Erc1155(Erc1155Contract),
    /// `UNKNOWN` (`UnknownContract`).
    #[serde(rename = "UNKNOWN")]
    Unknown(ContractInfo),
}

impl DeployedContract {
    /// The discriminator.
    pub fn erc_type(&self) -> ErcType {
        match self {
            Self::Erc20(_) => ErcType::Erc20,
            Self::Erc721(_) => ErcType::Erc721,
            Self::Erc1155(_) => ErcType::Erc1155,
            Self::Unknown(_) => ErcType::Unknown,
        }
    }
}

/// `ListContractsResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListContractsResponse {
    /// Token of the next page, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_page_token: Option<String>,
    /// This page.
    pub contracts: Vec<DeployedContract>,
}

/// `NativeTransaction`: an EVM transaction as listings render it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NativeTransaction {
    /// Height, decimal.
    pub block_number: String,
    /// Unix seconds.
    pub block_timestamp: u64,
    /// Unix milliseconds (from Granite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_timestamp_milliseconds: Option<u64>,
    /// The block's minimum delay excess (from Granite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_min_delay_excess: Option<u64>,
    /// Block hash.
    pub block_hash: String,
    /// EVM chain id, decimal.
    pub chain_id: String,
    /// Position in the block.
    pub block_index: u64,
    /// Transaction hash.
    pub tx_hash: String,
    /// `1` success, `0` failure.
    pub tx_status: String,
    /// EIP-2718 type.
    pub tx_type: u8,
    /// Gas limit, decimal.
    pub gas_limit: String,
    /// Gas used, decimal.
    pub gas_used: String,
    /// Price paid per gas, wei, decimal.
    pub gas_price: String,
    /// Sender's nonce, decimal.
    pub nonce: String,
    /// Sender.
    pub from: RichAddress,
    /// Recipient (for a creation: the created contract).
    pub to: RichAddress,
    /// What it called.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// Value sent, wei, decimal.
    pub value: String,
}

/// `FullNativeTransactionDetails`: a transaction with its input and fee caps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FullNativeTransactionDetails {
    /// The listing members.
    #[serde(flatten)]
    pub tx: NativeTransaction,
    /// Calldata, `0x` hex.
    pub input: String,
    /// The block's base fee, wei, decimal.
    pub base_fee_per_gas: String,
    /// EIP-1559 fee cap, decimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fee_per_gas: Option<String>,
    /// EIP-1559 tip cap, decimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_priority_fee_per_gas: Option<String>,
}

/// `NetworkTokenDetails`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkTokenDetails {
    /// The chain's native token.
    pub network_token: NetworkToken,
    /// Its price now.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_price: Option<Money>,
    /// Its price at the transaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub historical_price: Option<Money>,
}

/// `GetTransactionResponse`: one transaction with its transfers and internal transactions.
/// The deployment endpoint answers it too (the spec's `DeploymentData`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GetTransactionResponse {
    /// ERC-20 transfers, by log index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc20_transfers: Option<Vec<Erc20TransferDetails>>,
    /// ERC-721 transfers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc721_transfers: Option<Vec<Erc721TransferDetails>>,
    /// ERC-1155 transfers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub erc1155_transfers: Option<Vec<Erc1155TransferDetails>>,
    /// Internal transactions, depth-first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub internal_transactions: Option<Vec<InternalTransactionDetails>>,
    /// The native token and its prices.
    pub network_token_details: NetworkTokenDetails,
    /// The transaction.
    pub native_transaction: FullNativeTransactionDetails,
    /// The ICM message it sent or delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teleporter_message_info: Option<TeleporterMessageInfo>,
}

/// The spec's name for the deployment endpoint's answer.
pub type DeploymentData = GetTransactionResponse;

#[cfg(test)]
mod tests {
    use super::checksummed;

    #[test]
    fn addresses_use_eip55_checksums() {
        // EIP-55 "Test Cases": all caps, all lower, normal.
        for want in [
            "0x52908400098527886E0F7030069857D2E4169EE7",
            "0x8617E340B3D01FA5F11F306F4090FD50E238070D",
            "0xde709f2102306220921060314715629080e2fb77",
            "0x27b1fdb04752bbc536007a920d24acb045561c26",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            let a: alloy_primitives::Address = want.to_lowercase().parse().unwrap();
            assert_eq!(checksummed(&a), want);
            // Asked again, it comes from the thread's table: the same text.
            assert_eq!(checksummed(&a), want);
        }
    }

    #[test]
    fn addresses_sharing_a_slot_each_keep_their_own_checksum() {
        // Two of the EIP-55 test cases, their last two bytes made equal (so one slot); the
        // checksums of the altered addresses are alloy's own `to_checksum`.
        let mut a: alloy_primitives::Address = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
            .parse()
            .unwrap();
        let mut b: alloy_primitives::Address = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"
            .parse()
            .unwrap();
        a.0[18..].copy_from_slice(&[0x12, 0x34]);
        b.0[18..].copy_from_slice(&[0x12, 0x34]);
        for _ in 0..3 {
            assert_eq!(checksummed(&a), a.to_checksum(None));
            assert_eq!(checksummed(&b), b.to_checksum(None));
        }
        assert_ne!(checksummed(&a), checksummed(&b));
    }
}
