//! The aggregator's errors, with icm-services' and subnet-evm's messages, and the figures of a
//! collection for an API error body.

use snowline_types::Id;

use crate::assemble::AssembleError;
use crate::quorum::QuorumError;

/// What one aggregation reached: weights and per-validator counts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AggregationStats {
    /// Total weight of the set, validators without a BLS key included.
    pub total_weight: u64,
    /// Weight the quorum needs: `ceil(total × quorum / 100)`.
    pub required_weight: u64,
    /// Weight the collector tries for: `ceil(total × (quorum + buffer) / 100)`.
    pub target_weight: u64,
    /// Weight of the validators with a share or a connected node, at the start.
    pub connected_weight: u64,
    /// Weight of the valid signatures held at the end, cached ones included, before pruning.
    pub reached_weight: u64,
    /// Canonical validators (with a BLS key).
    pub validators: usize,
    /// Validators whose signature came from the cache.
    pub cached: usize,
    /// Validators sent at least one request.
    pub asked: usize,
    /// Validators that answered with a valid signature.
    pub answered: usize,
    /// Validators with a failed request (error or timeout) and no valid signature.
    pub failed: usize,
    /// Validators that answered with a signature that does not verify.
    pub invalid: usize,
    /// Validators whose last answer was empty (message not seen yet) and no valid signature.
    pub not_seen: usize,
    /// Requests sent, retries included.
    pub requests: usize,
}

/// Why an aggregation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AggregateError {
    /// Bad quorum settings.
    #[error(transparent)]
    Quorum(#[from] QuorumError),
    /// The set has no validator with a BLS key, or no weight (subnet-evm's message).
    #[error("cannot aggregate signatures from subnet with no validators")]
    NoValidators,
    /// The P-Chain returned no validators (icm-services `app_request_network.go`); for the
    /// layer that fetches the set.
    #[error("no validators for subnet {subnet} at P-Chain height {height}")]
    NoValidatorsForSubnet {
        /// The signing subnet.
        subnet: Id,
        /// The P-Chain height asked.
        height: u64,
    },
    /// The validators with a share or a connected node weigh less than the quorum.
    #[error("failed to connect to a threshold of stake")]
    NotEnoughConnectedStake(Box<AggregationStats>),
    /// The quorum was not met before the deadline.
    #[error("failed to collect a threshold of signatures")]
    NotEnoughSignatures(Box<AggregationStats>),
    /// The shares could not be turned into a verifying aggregate.
    #[error("failed to aggregate signatures. error: {source}")]
    Aggregate {
        /// What went wrong.
        source: AssembleError,
        /// The figures reached.
        stats: Box<AggregationStats>,
    },
}

impl AggregateError {
    /// The figures of the collection, when it got that far.
    pub fn stats(&self) -> Option<&AggregationStats> {
        match self {
            Self::NotEnoughSignatures(s) | Self::NotEnoughConnectedStake(s) => Some(s),
            Self::Aggregate { stats, .. } => Some(stats),
            _ => None,
        }
    }

    /// Whether the request itself was wrong (an API 400) rather than the network (500).
    pub fn is_input_error(&self) -> bool {
        matches!(self, Self::Quorum(_))
    }
}
