//! Warp signature aggregation: BLS12-381 as avalanchego uses it ([`bls`]), the canonical
//! validator set ([`validators`]), quorum arithmetic ([`quorum`]), a signature cache
//! ([`cache`]), the assembly and verification of signed messages ([`mod@assemble`]) and the async
//! collector over an abstract [`SignatureSource`] ([`aggregator`]). No network code: the P2P
//! layer implements the source. See `docs/warp.md`.
//!
//! ```no_run
//! use std::sync::Arc;
//! use std::time::Duration;
//! use snowline_types::NodeId;
//! use snowline_types::warp::UnsignedMessage;
//! use snowline_warp::{AggregationRequest, Aggregator, CanonicalSet, SignatureSource, SourceError};
//!
//! struct Network; // the P2P layer: one ACP-118 request per call
//! impl SignatureSource for Network {
//!     async fn request(&self, _: &NodeId, _: &[u8], _: &[u8]) -> Result<Vec<u8>, SourceError> {
//!         Err(SourceError::NotConnected)
//!     }
//! }
//!
//! # async fn run(message: UnsignedMessage, set: CanonicalSet) {
//! let aggregator = Aggregator::new(Network);
//! let result = aggregator
//!     .aggregate(AggregationRequest {
//!         message,
//!         justification: Vec::new(),
//!         validators: Arc::new(set),
//!         quorum_percentage: 67,
//!         quorum_buffer_percentage: 13,
//!         timeout: Duration::from_secs(55),
//!         excluded: Vec::new(),
//!     })
//!     .await;
//! match result {
//!     Ok(signed) => println!("{} signers", signed.signers.len()),
//!     Err(e) => println!("{e}: {:?}", e.stats()),
//! }
//! # }
//! ```

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
