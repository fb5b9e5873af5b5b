//! Checks on an aggregation request's inputs, with the signature-aggregator API's 400 messages.

use crate::quorum::{Quorum, QuorumError};

/// Why a request is rejected before any signature is asked for (an API 400).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// Message and justification both empty or all zero.
    #[error("Must provide either message or justification")]
    MissingMessage,
    /// Quorum settings out of range.
    #[error(transparent)]
    Quorum(#[from] QuorumError),
}

/// Checks the decoded message and justification bytes and the quorum settings: one of the two
/// must hold a non-zero byte; quorum 0 means 67, above 100 is rejected, as is a quorum plus
/// buffer above 100.
pub fn validate_inputs(
    message: &[u8],
    justification: &[u8],
    quorum_percentage: u64,
    quorum_buffer_percentage: u64,
) -> Result<Quorum, InputError> {
    let blank = |b: &[u8]| b.iter().all(|&x| x == 0);
    if blank(message) && blank(justification) {
        return Err(InputError::MissingMessage);
    }
    Ok(Quorum::from_request(
        quorum_percentage,
        quorum_buffer_percentage,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs() {
        assert_eq!(
            validate_inputs(&[], &[0, 0], 67, 0),
            Err(InputError::MissingMessage)
        );
        assert_eq!(
            InputError::MissingMessage.to_string(),
            "Must provide either message or justification"
        );
        let q = validate_inputs(&[], &[1], 0, 13).unwrap_or_else(|_| unreachable!());
        assert_eq!((q.percentage(), q.target_percentage()), (67, 80));
        assert_eq!(
            validate_inputs(&[1], &[], 101, 0),
            Err(InputError::Quorum(QuorumError::InvalidQuorumNumber))
        );
        assert_eq!(
            validate_inputs(&[1], &[], 67, 34).map_err(|e| e.to_string()),
            Err("Invalid quorum buffer number".to_string())
        );
    }
}
