//! The REST edge's hooks implemented with `access`: API keys from the keys store (followed as a
//! RocksDB secondary), usage events into the usage log (through its non-blocking writer).

use std::sync::Arc;

use snowline_access::keys::{ApiKeys, KeyLookup as StoredLookup};
use snowline_access::usage::{UsageEventRef as StoredEvent, UsageWriter};
use snowline_rest_api::{
    Caller, KeyLookup, KeyResolver, RestError, UsageEvent, UsageEventRef, UsageSink,
};

/// Resolves `x-data-api-key` against the keys store.
pub struct StoreKeys(pub Arc<ApiKeys>);

impl KeyResolver for StoreKeys {
    fn resolve(&self, presented: &str) -> Result<KeyLookup, RestError> {
        match self.0.resolve(presented) {
            Ok(StoredLookup::Unknown) => Ok(KeyLookup::Unknown),
            Ok(StoredLookup::Disabled) => Ok(KeyLookup::Disabled),
            Ok(StoredLookup::Active(c)) => Ok(KeyLookup::Active(Caller {
                key_id: c.key_id,
                org_id: c.org_id,
                tier: c.tier,
            })),
            Err(e) => Err(RestError::KeyLookup(e.to_string())),
        }
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
        self.0.record_ref(&StoredEvent {
            timestamp_ms: e.timestamp_ms,
            org_id: e.org_id,
            api_key_id: e.api_key_id,
            request_path: e.request_path,
            response_code: e.response_code,
            chain_id: e.chain_id.unwrap_or_default(),
            request_type: e.request_type,
            latency_us: e.latency_us,
            credits_used: u64::from(e.credits_used),
            credits_wasted: u64::from(e.credits_wasted),
        });
    }
}
