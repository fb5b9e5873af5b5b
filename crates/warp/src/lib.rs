//! Warp signature aggregation: BLS12-381 as avalanchego uses it ([`bls`]), the canonical
//! validator set ([`validators`]), quorum arithmetic ([`quorum`]), a signature cache
//! ([`cache`]), the assembly and verification of signed messages ([`assemble`]) and the async
//! collector over an abstract [`SignatureSource`] ([`aggregator`]). No network code: the P2P
//! layer implements the source. See `docs/warp.md`.

pub mod aggregator;
pub mod assemble;
pub mod bls;
pub mod cache;
pub mod error;
pub mod input;
pub mod quorum;
pub mod source;
pub mod validators;

pub use aggregator::{Aggregated, AggregationRequest, Aggregator, AggregatorConfig};
pub use assemble::{AssembleError, VerifyError, assemble, signed_message, verify_message};
pub use bls::{BlsError, PublicKey, Signature};
pub use cache::SignatureCache;
pub use error::{AggregateError, AggregationStats};
pub use input::{InputError, validate_inputs};
pub use quorum::{Quorum, QuorumError, prune_to_quorum, required_weight, verify_weight};
pub use source::{SignatureSource, SourceError};
pub use validators::{CanonicalSet, CanonicalValidator, NodeValidator, ValidatorSetError};
