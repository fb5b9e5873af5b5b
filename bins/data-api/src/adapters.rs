//! The REST edge's hooks implemented with `access`: API keys from the fleet's bucket (in a
//! fleet) and the keys store (followed as a RocksDB secondary), usage events into the usage log
//! (through its non-blocking writer).

use std::sync::Arc;

use snowline_access::keys::{ApiKeys, SharedKeys};
use snowline_access::usage::UsageWriter;
use snowline_rest_api::{KeyLookup, KeyResolver, RestError, UsageEvent, UsageEventRef, UsageSink};

/// Resolves `x-data-api-key` against the fleet's keys (in a fleet), then the keys store.
pub struct StoreKeys(pub Arc<ApiKeys>, pub Option<Arc<SharedKeys>>);

impl KeyResolver for StoreKeys {
    fn resolve(&self, presented: &str) -> Result<KeyLookup, RestError> {
        if let Some(found) = self.1.as_ref().and_then(|s| s.resolve(presented)) {
            return Ok(found);
        }
        self.0
            .resolve(presented)
            .map_err(|e| RestError::KeyLookup(e.to_string()))
    }
}

/// Hands metered requests to the usage writer (which never blocks; it counts what it drops).
/// Events arrive borrowed and are copied straight into the writer's queue: no allocation per
/// request.
pub struct StoreUsage(pub UsageWriter);

impl UsageSink for StoreUsage {
    fn record(&self, e: UsageEvent) {
        self.record_ref(&e.as_ref());
    }

    fn record_ref(&self, e: &UsageEventRef<'_>) {
        self.0.record_ref(e);
    }
}
