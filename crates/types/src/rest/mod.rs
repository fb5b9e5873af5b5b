//! Serde records of the Data API's responses: the chain descriptors of `/v1/chains` and the
//! primary-network records of the X-Chain endpoints. Absent optional fields are omitted, never
//! `null`: the official client rejects `null`.

pub mod chain;
pub mod primary;

pub use chain::{
    ApiFeature, ChainRecord, ChainStatus, ListChainsResponse, NetworkToken, UtilityAddresses,
    VmName,
};
pub use primary::{
    AggregatedAssetAmount, AssetAmount, AssetType, BlockchainDetails, ListUtxosResponse,
    ListXChainBalancesResponse, ListXChainVerticesResponse, PrimaryChainInfo, PrimaryChainName,
    SharedAssetBalance, UtxoCredential, XChainBalances, XChainVertex, XUtxo,
};
