//! Serde records of the Data API's responses: the chain descriptors of `/v1/chains` and the
//! primary-network records of the X- and P-Chain endpoints. Absent optional fields are omitted, never
//! `null`: the official client rejects `null`.

pub mod chain;
pub mod pchain;
pub mod primary;

pub use chain::{
    ApiFeature, ChainRecord, ChainStatus, ListChainsResponse, NetworkToken, UtilityAddresses,
    VmName,
};
pub use pchain::{
    AssetWithPriceInfo, BalanceOwner, BlsCredentials, HistoricalReward, L1ValidatorDetails,
    ListHistoricalRewardsResponse, ListL1ValidatorsResponse, ListPChainBalancesResponse,
    ListPChainUtxosResponse, ListPendingRewardsResponse, ListPrimaryNetworkBlocksResponse, Money,
    PChainBalances, PChainSharedAsset, PChainUtxo, PendingReward, PrimaryNetworkBlock,
    ProposerDetails,
};
pub use primary::{
    AggregatedAssetAmount, AssetAmount, AssetType, BlockchainDetails, ListUtxosResponse,
    ListXChainBalancesResponse, ListXChainVerticesResponse, PrimaryChainInfo, PrimaryChainName,
    SharedAssetBalance, UtxoCredential, XChainBalances, XChainVertex, XUtxo,
};
