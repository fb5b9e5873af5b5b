//! Quorum arithmetic: the aggregator's required weight (icm-services `RequiredSignatureWeight`),
//! the verifier's rule (avalanchego `warp/signature.go` `VerifyWeight`), pruning to the quorum,
//! and the checks on the request's percentages.

/// `WarpQuorumDenominator`.
pub const QUORUM_DENOMINATOR: u64 = 100;
/// `WarpDefaultQuorumNumerator`: what a quorum of 0 means.
pub const DEFAULT_QUORUM_PERCENTAGE: u64 = 67;

/// Why a request's quorum settings are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum QuorumError {
    /// Quorum above 100 (the API's 400).
    #[error("Invalid quorum number")]
    InvalidQuorumNumber,
    /// Quorum plus buffer above 100 (the API's 400).
    #[error("Invalid quorum buffer number")]
    InvalidQuorumBufferNumber,
    /// What the aggregator itself says of a zero quorum or a total above 100.
    #[error("invalid total quorum percentage: {0}")]
    InvalidTotalQuorumPercentage(u64),
}

/// A checked quorum: `percentage` must be met, the collector tries for
/// `percentage + buffer` so one late answer does not sink the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quorum {
    percentage: u64,
    buffer: u64,
}

impl Quorum {
    /// Checks request values: 0 means the default 67, above 100 is `Invalid quorum number`,
    /// a sum above 100 is `Invalid quorum buffer number`.
    pub fn from_request(percentage: u64, buffer: u64) -> Result<Self, QuorumError> {
        let percentage = if percentage == 0 {
            DEFAULT_QUORUM_PERCENTAGE
        } else {
            percentage
        };
        if percentage > QUORUM_DENOMINATOR {
            return Err(QuorumError::InvalidQuorumNumber);
        }
        match percentage.checked_add(buffer) {
            Some(t) if t <= QUORUM_DENOMINATOR => Ok(Self { percentage, buffer }),
            _ => Err(QuorumError::InvalidQuorumBufferNumber),
        }
    }

    /// The aggregator's own check: no defaulting, a zero quorum or a total above 100 is
    /// `invalid total quorum percentage`.
    pub fn new(percentage: u64, buffer: u64) -> Result<Self, QuorumError> {
        let total = percentage.saturating_add(buffer);
        if percentage == 0 || total > QUORUM_DENOMINATOR {
            return Err(QuorumError::InvalidTotalQuorumPercentage(total));
        }
        Ok(Self { percentage, buffer })
    }

    /// The percentage that must be met.
    pub fn percentage(&self) -> u64 {
        self.percentage
    }

    /// The extra percentage collected when validators answer.
    pub fn buffer(&self) -> u64 {
        self.buffer
    }

    /// `percentage + buffer`.
    pub fn target_percentage(&self) -> u64 {
        self.percentage + self.buffer
    }
}

/// `ceil(total × percentage / 100)`: the least signed weight that meets the percentage.
pub fn required_weight(total_weight: u64, percentage: u64) -> u128 {
    let num = u128::from(total_weight) * u128::from(percentage);
    num.div_ceil(u128::from(QUORUM_DENOMINATOR))
}

/// The verifier's rule: `total × numerator > signed × denominator` rejects.
pub fn verify_weight(
    signed_weight: u64,
    total_weight: u64,
    numerator: u64,
    denominator: u64,
) -> bool {
    u128::from(total_weight) * u128::from(numerator)
        <= u128::from(signed_weight) * u128::from(denominator)
}

/// The smallest heaviest-first subset of `signers` (canonical index, weight) whose weight meets
/// `percentage` of `total_weight`; ties keep canonical order. Returned ascending by index.
/// When the signers cannot meet the quorum, all of them are returned.
pub fn prune_to_quorum(signers: &[(usize, u64)], total_weight: u64, percentage: u64) -> Vec<usize> {
    let required = required_weight(total_weight, percentage);
    let mut by_weight: Vec<(usize, u64)> = signers.to_vec();
    by_weight.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut kept = Vec::new();
    let mut acc: u128 = 0;
    for (index, weight) in by_weight {
        if acc >= required && !kept.is_empty() {
            break;
        }
        kept.push(index);
        acc += u128::from(weight);
    }
    kept.sort_unstable();
    kept
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn required_weight_rounds_up() {
        assert_eq!(required_weight(100, 67), 67);
        assert_eq!(required_weight(1000, 67), 670);
        assert_eq!(required_weight(3, 67), 3); // 2.01 → 3
        assert_eq!(required_weight(10, 67), 7); // 6.7 → 7
        assert_eq!(required_weight(0, 67), 0);
        assert_eq!(
            required_weight(u64::MAX, 100),
            u128::from(u64::MAX),
            "no overflow at the top"
        );
        assert_eq!(
            required_weight(u64::MAX, 67),
            (u128::from(u64::MAX) * 67).div_ceil(100)
        );
    }

    #[test]
    fn verifier_rule() {
        assert!(verify_weight(67, 100, 67, 100));
        assert!(!verify_weight(66, 100, 67, 100));
        assert!(verify_weight(7, 10, 67, 100));
        assert!(!verify_weight(6, 10, 67, 100));
        assert!(verify_weight(u64::MAX, u64::MAX, 100, 100));
    }

    #[test]
    fn prune_keeps_heaviest_first() {
        // total 100, quorum 67: 40 + 30 = 70 ≥ 67, the 20 and 10 go.
        let signers = [(0, 10), (1, 40), (2, 20), (3, 30)];
        assert_eq!(prune_to_quorum(&signers, 100, 67), vec![1, 3]);
        // Ties: the lower canonical index first. Total 89: 60 ≥ ceil(59.63); total 90 needs
        // ceil(60.3) = 61, so all three.
        let tied = [(5, 30), (2, 30), (9, 30)];
        assert_eq!(prune_to_quorum(&tied, 89, 67), vec![2, 5]);
        assert_eq!(prune_to_quorum(&tied, 90, 67), vec![2, 5, 9]);
        // Not enough: everything kept.
        assert_eq!(prune_to_quorum(&[(0, 1), (1, 2)], 100, 67), vec![0, 1]);
        assert_eq!(prune_to_quorum(&[], 100, 67), Vec::<usize>::new());
    }

    #[test]
    fn request_checks() {
        assert_eq!(Quorum::from_request(0, 0).unwrap().percentage(), 67);
        assert_eq!(Quorum::from_request(0, 13).unwrap().target_percentage(), 80);
        assert_eq!(
            Quorum::from_request(101, 0),
            Err(QuorumError::InvalidQuorumNumber)
        );
        assert_eq!(
            Quorum::from_request(90, 11),
            Err(QuorumError::InvalidQuorumBufferNumber)
        );
        assert_eq!(
            Quorum::from_request(90, u64::MAX),
            Err(QuorumError::InvalidQuorumBufferNumber)
        );
        assert!(Quorum::from_request(100, 0).is_ok());
        assert_eq!(
            Quorum::new(0, 10),
            Err(QuorumError::InvalidTotalQuorumPercentage(10))
        );
        assert_eq!(
            Quorum::new(67, 34),
            Err(QuorumError::InvalidTotalQuorumPercentage(101))
        );
        assert_eq!(
            QuorumError::InvalidTotalQuorumPercentage(101).to_string(),
            "invalid total quorum percentage: 101"
        );
    }

    proptest! {
        #[test]
        fn required_weight_agrees_with_verifier(total in any::<u64>(), pct in 1u64..=100, signed in any::<u64>()) {
            let meets = u128::from(signed) >= required_weight(total, pct);
            prop_assert_eq!(meets, verify_weight(signed, total, pct, 100));
        }

        #[test]
        fn prune_is_minimal_and_sufficient(weights in proptest::collection::vec(1u64..1000, 0..40), pct in 1u64..=100) {
            let total: u64 = weights.iter().sum();
            let signers: Vec<(usize, u64)> = weights.iter().copied().enumerate().collect();
            let kept = prune_to_quorum(&signers, total, pct);
            let w: u128 = kept.iter().map(|&i| u128::from(weights[i])).sum();
            let req = required_weight(total, pct);
            if !signers.is_empty() {
                prop_assert!(w >= req);
                // Dropping the lightest kept signer falls below the quorum.
                let lightest = kept.iter().map(|&i| weights[i]).min().unwrap();
                prop_assert!(w - u128::from(lightest) < req || kept.len() == 1);
            }
        }
    }
}
