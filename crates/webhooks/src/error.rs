//! [`WebhookError`]: what a webhook operation can fail with, in three kinds the REST layer maps
//! onto 400, 404 and 500.

use snowline_store::StoreError;

/// A failed webhook operation.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The request is malformed or breaks a limit (a 400).
    #[error("{0}")]
    Invalid(String),
    /// No webhook with this id belongs to the caller's organisation (a 404).
    #[error("webhook {0:?} not found")]
    NotFound(String),
    /// The store failed (a 500).
    #[error("webhook store: {0}")]
    Store(#[from] StoreError),
}

impl WebhookError {
    /// A 400 with `message`.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::Invalid(message.into())
    }
}
