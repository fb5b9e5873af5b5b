//! API-key authentication: the `x-data-api-key` header (also `x-glacier-api-key`,
//! under every profile), resolved by a [`KeyResolver`] another crate implements.

use crate::error::{ApiError, RestError};
use hyper::header::HeaderMap;
use std::collections::HashMap;

pub use snowline_types::access::{Caller, DATA_API_KEY_HEADER, GLACIER_API_KEY_HEADER, KeyLookup};
/// The tier of callers without a key.
pub const ANONYMOUS_TIER: &str = "anonymous";

/// Resolves a presented API key; synchronous and fast (a point lookup), called inline.
pub trait KeyResolver: Send + Sync {
    /// Looks `presented` up; an `Err` is answered as HTTP 500.
    fn resolve(&self, presented: &str) -> Result<KeyLookup, RestError>;
}

/// A resolver that knows no key: every presented key is a 401.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoKeys;

impl KeyResolver for NoKeys {
    fn resolve(&self, _presented: &str) -> Result<KeyLookup, RestError> {
        Ok(KeyLookup::Unknown)
    }
}

/// An in-memory key table, for tests and small deployments.
#[derive(Debug, Default, Clone)]
pub struct InMemoryKeys {
    keys: HashMap<String, KeyLookup>,
}

impl InMemoryKeys {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an active key `secret` for `caller`.
    pub fn active(mut self, secret: &str, caller: Caller) -> Self {
        self.keys
            .insert(secret.to_owned(), KeyLookup::Active(caller));
        self
    }

    /// Adds a disabled key `secret`.
    pub fn disabled(mut self, secret: &str) -> Self {
        self.keys.insert(secret.to_owned(), KeyLookup::Disabled);
        self
    }
}

impl KeyResolver for InMemoryKeys {
    fn resolve(&self, presented: &str) -> Result<KeyLookup, RestError> {
        Ok(self
            .keys
            .get(presented)
            .cloned()
            .unwrap_or(KeyLookup::Unknown))
    }
}

/// The caller of a request: `Ok(None)` when no key header is present (anonymous),
/// `Ok(Some(caller))` for an active key; 401 / 403 / 500 otherwise.
/// `x-data-api-key` is read first when both headers are present.
pub fn authenticate(
    resolver: &dyn KeyResolver,
    headers: &HeaderMap,
) -> Result<Option<Caller>, ApiError> {
    let Some(value) = headers
        .get(DATA_API_KEY_HEADER)
        .or_else(|| headers.get(GLACIER_API_KEY_HEADER))
    else {
        return Ok(None);
    };
    let Ok(presented) = value.to_str() else {
        return Err(ApiError::unauthorized("Invalid API key"));
    };
    match resolver.resolve(presented.trim()) {
        Ok(KeyLookup::Active(caller)) => Ok(Some(caller)),
        Ok(KeyLookup::Unknown) => Err(ApiError::unauthorized("Invalid API key")),
        Ok(KeyLookup::Disabled) => Err(ApiError::forbidden("API key is disabled")),
        Err(e) => {
            tracing::error!(error = %e, "API key lookup failed");
            Err(ApiError::internal("API key lookup failed"))
        }
    }
}
