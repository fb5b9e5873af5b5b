//! Request-parameter parsing: pure string parsing into typed values, every failure a
//! [`ParamError`](crate::ParamError) naming the parameter, what is allowed and the value given.

mod address;
mod enums;
mod ids;
mod network;
mod range;
mod scalar;

pub use address::{AddressList, DEFAULT_MAX_ADDRESSES};
pub use enums::{
    ApiFeature, Currency, PrimaryRpcGroupBy, RequestType, RpcTimeInterval, SortOrder,
    SubnetRpcGroupBy, TimeInterval, UsageGroupBy, UtxoSortBy,
};
pub use ids::{
    BlockRef, ChainRef, MAX_LIST, block_ref, cb58_id, cb58_or_hex_id, chain_ref, evm_address,
    evm_hash, hex_payload, node_id, node_ids,
};
pub use network::{BlockchainRef, Network, chain_name, served_network};
pub use range::{BlockRange, TimeRange};
pub use scalar::{
    DEFAULT_PAGE_SIZE, boolean, boolean_or, page_size, required, u64_at_least, u64_opt,
};
