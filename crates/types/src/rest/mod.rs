//! Serde records of the Data API's responses: the chain descriptors of `/v1/chains`, the
//! primary-network records of the P-, X- and C-Chain endpoints, the EVM records and the ICM
//! messages. Absent optional fields are omitted, never `null`: the official client rejects `null`.

pub mod cchain_tx;
pub mod chain;
pub mod evm;
pub mod evm_balances;
pub mod icm;
pub mod pchain;
pub mod primary;
pub mod primary_tx;
pub mod staking;
pub mod supply;

pub use cchain_tx::{
    CChainAtomicTransaction, EvmInputRecord, EvmOutputRecord, ListCChainAtomicTransactionsResponse,
    evm_address_string,
};
pub use chain::{
    ApiFeature, ChainRecord, ChainStatus, ListChainsResponse, NetworkToken, UtilityAddresses,
    VmName,
};
pub use evm::{
    ContractDeploymentDetails, ContractInfo, DeployedContract, DeploymentData, Erc20Contract,
    Erc20Token, Erc20Transfer, Erc20TransferDetails, Erc20Type, Erc721Contract, Erc721Token,
    Erc721TokenBalance, Erc721TokenMetadata, Erc721Transfer, Erc721TransferDetails, Erc721Type,
    Erc1155Contract, Erc1155Token, Erc1155TokenMetadata, Erc1155Transfer, Erc1155TransferDetails,
    Erc1155Type, ErcType, FullNativeTransactionDetails, GetEvmBlockResponse,
    GetNativeBalanceResponse, GetTransactionResponse, ImageAsset, InternalTransaction,
    InternalTransactionDetails, InternalTxType, ListContractsResponse, ListErc721BalancesResponse,
    ListInternalTransactionsResponse, ListTransfersResponse, Method, NativeTokenBalance,
    NativeTransaction, NetworkTokenDetails, NftMetadata, NftTokenMetadataStatus, PricingProviders,
    ResourceLink, ResourceLinkType, RichAddress, TransactionMethodType, TransferRecord, TxLocation,
    checksummed,
};
pub use icm::{
    DeliveredIcmMessage, DeliveredSourceNotIndexedIcmMessage, IcmDestinationTransaction,
    IcmMessage, IcmMessageFields, IcmReceipt, IcmRewardDetails, IcmSourceTransaction,
    ListIcmMessagesResponse, PendingIcmMessage, TeleporterMessageInfo, TransactionDirectionType,
};
pub use pchain::{
    AssetWithPriceInfo, BalanceOwner, BlsCredentials, HistoricalReward, L1ValidatorDetails,
    ListHistoricalRewardsResponse, ListL1ValidatorsResponse, ListPChainBalancesResponse,
    ListPChainUtxosResponse, ListPendingRewardsResponse, ListPrimaryNetworkBlocksResponse, Money,
    MoneyValue, PChainBalances, PChainSharedAsset, PChainUtxo, PendingReward, PrimaryNetworkBlock,
    ProposerDetails,
};
pub use primary::{
    AggregatedAssetAmount, AssetAmount, AssetType, BlockchainDetails, CChainAtomicBalances,
    ListCChainAtomicBalancesResponse, ListUtxosResponse, ListXChainBalancesResponse,
    ListXChainVerticesResponse, PrimaryChainInfo, PrimaryChainName, SharedAssetBalance,
    UtxoCredential, XChainBalances, XChainVertex, XUtxo,
};
pub use primary_tx::{
    BlockchainInfo, ChainAddressChainIdMap, ChainAddressChainIdMapListResponse,
    L1ValidatorDetailsTransaction, L1ValidatorManagerDetails, LastActivityTimestamp,
    ListPChainTransactionsResponse, ListXChainTransactionsResponse, PChainTransaction,
    SubnetOwnershipInfo, TransactionVertexDetail, XChainAssetDetails, XChainTransaction,
};
