//! Errors of the generator.

use snowline_types::address::AddressError;
use snowline_types::secp256k1::Secp256k1Error;
use snowline_types::vertex::VertexError;

use crate::config::ConfigError;

/// Why generation failed. Apart from [`DevnetError::Config`], these indicate a bug in the
/// generator, never bad luck with the seed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DevnetError {
    /// The config was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A key could not be loaded or a signature made.
    #[error("key error: {0}")]
    Key(#[from] Secp256k1Error),
    /// A built-in address did not parse.
    #[error("address error: {0}")]
    Address(#[from] AddressError),
    /// A generated vertex broke the vertex rules.
    #[error("generated vertex is invalid: {0}")]
    Vertex(#[from] VertexError),
    /// A staking certificate, BLS key or signature could not be made.
    #[error("crypto error: {0}")]
    Crypto(&'static str),
    /// The history failed to generate (or a live step did), so nothing can follow it.
    #[error("the devnet failed earlier; nothing can follow")]
    Failed,
    /// Nothing was spendable when a container needed a tx.
    #[error("no spendable UTXO left to build a tx in {0}")]
    OutOfUtxos(&'static str),
}
