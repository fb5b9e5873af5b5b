//! Serde records of the Data API's responses that are not chain formats: the chain descriptors of
//! `/v1/chains`. Absent optional fields are omitted, never `null`: the official client rejects
//! `null`.

pub mod chain;

pub use chain::{
    ApiFeature, ChainRecord, ChainStatus, ListChainsResponse, NetworkToken, UtilityAddresses,
    VmName,
};
