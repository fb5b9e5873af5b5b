//! Avalanche ids, encodings, the linear codec and chain formats.
//!
//! Pure code: no I/O, no async, no global state. Everything here is byte-exact with avalanchego,
//! and tests cite the avalanchego file each vector comes from.

pub mod access;
pub mod address;
pub mod atomic;
pub mod avm;
pub mod cb58;
pub mod codec;
pub mod components;
pub mod container;
pub mod coreth;
pub mod evm;
pub mod formatting;
pub mod fx;
pub mod hashing;
pub mod id;
pub mod json_uint;
pub mod network;
pub mod platformvm;
pub mod proposervm;
pub mod rest;
pub mod secp256k1;
pub mod staking_cert;
pub mod time;
pub mod vertex;
pub mod warp;

pub use address::{
    AddressContext, AddressError, ChainAddressError, ParsedAddress, ServiceAddressError,
};
pub use cb58::Cb58Error;
pub use formatting::HexError;
pub use id::{Id, IdError, NodeId, ShortId};
pub use network::{Chain, NetworkInfo, XChainFees};
pub use secp256k1::{PrivateKey, PublicKey, Secp256k1Error};
