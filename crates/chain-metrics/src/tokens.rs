//! [`StoredPageTokens`]: the metrics API's page tokens. A token is a random UUID naming a row kept
//! server-side (the query it pages and the next page's position), valid for 24 hours, in a small
//! store of its own so tokens survive a restart even where the index is opened read-only. Time
//! comes from a [`Clock`], so expiry is testable.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use snowline_store::{Direction, Linear, ReadView, Schema, Store, StoreError, WriteBatch};

use crate::rows::TokenRow;
use crate::tables::{CmPageTokens, CmTokenExpiry, token_tables};

/// How long a token stays valid: 24 hours.
pub const TOKEN_LIFETIME: u64 = 86_400;

/// Schema version of the token store.
const TOKEN_SCHEMA_VERSION: u32 = 1;

/// Unix seconds now.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current time, Unix seconds.
    fn now(&self) -> u64;
}

/// The system's clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }
}

/// A clock that says what it is told (tests).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicU64);

impl ManualClock {
    /// A clock at `now`.
    pub fn at(now: u64) -> Self {
        Self(AtomicU64::new(now))
    }

    /// Moves the clock on by `secs`.
    pub fn advance(&self, secs: u64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Why a presented token was refused.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// Not a UUID, or no token this service issued.
    #[error("invalid pageToken: it is not a token this service issued")]
    Unknown,
    /// Issued more than 24 hours ago.
    #[error("pageToken expired: tokens are valid for 24 hours; request the first page again")]
    Expired,
    /// The OS gave no randomness for a new token.
    #[error("no randomness for a page token: {0}")]
    Random(String),
    /// Reading or writing the token store failed (our fault).
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Stored page tokens: a token names a row kept server-side, in their own store, until it
/// expires.
#[derive(Debug, Clone)]
pub struct StoredPageTokens {
    store: Arc<Store>,
    clock: Arc<dyn Clock>,
}

impl StoredPageTokens {
    /// Opens (creating if needed) the token store in `dir`, telling time by `clock`.
    pub fn open(dir: &Path, clock: Arc<dyn Clock>) -> Result<Self, StoreError> {
        let schema = token_tables()
            .into_iter()
            .fold(Schema::new(TOKEN_SCHEMA_VERSION), Schema::with_spec);
        Ok(Self {
            store: Arc::new(Store::open(dir, &schema)?),
            clock,
        })
    }

    /// A new token for the page of `query` starting at `position`, valid 24 hours from now.
    pub fn issue(&self, query: &str, position: u64) -> Result<String, TokenError> {
        let mut uuid = [0u8; 16];
        getrandom::fill(&mut uuid).map_err(|e| TokenError::Random(e.to_string()))?;
        uuid[6] = (uuid[6] & 0x0f) | 0x40; // version 4
        uuid[8] = (uuid[8] & 0x3f) | 0x80; // RFC 4122 variant
        let expires = self.clock.now().saturating_add(TOKEN_LIFETIME);
        let row = TokenRow {
            expires,
            query: query.to_owned(),
            position,
        };
        let mut batch = WriteBatch::new();
        batch.put::<CmPageTokens>(&uuid, &Linear(row));
        batch.put::<CmTokenExpiry>(&(expires, uuid), &());
        self.store.write(batch)?;
        Ok(format_uuid(&uuid))
    }

    /// The query and position `token` stands for, while it is valid.
    pub fn redeem(&self, token: &str) -> Result<(String, u64), TokenError> {
        let uuid = parse_uuid(token).ok_or(TokenError::Unknown)?;
        let Linear(row) = self
            .store
            .get::<CmPageTokens>(&uuid)?
            .ok_or(TokenError::Unknown)?;
        if self.clock.now() >= row.expires {
            return Err(TokenError::Expired);
        }
        Ok((row.query, row.position))
    }

    /// Forgets the tokens that expired more than a day ago (until then an expired token is
    /// still answered as expired rather than unknown); returns how many.
    pub fn prune(&self) -> Result<usize, StoreError> {
        let cutoff = self.clock.now().saturating_sub(TOKEN_LIFETIME);
        let mut batch = WriteBatch::new();
        let mut n = 0;
        for entry in self
            .store
            .scan::<CmTokenExpiry, _>(..(cutoff, [0u8; 16]), Direction::Forward)?
        {
            let (key, ()) = entry?;
            batch.delete::<CmPageTokens>(&key.1);
            batch.delete::<CmTokenExpiry>(&key);
            n += 1;
        }
        if n > 0 {
            self.store.write(batch)?;
        }
        Ok(n)
    }
}

/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase.
fn format_uuid(b: &[u8; 16]) -> String {
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// The 16 bytes of a UUID in its canonical form (either case).
fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let groups: Vec<&str> = s.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12] {
        return None;
    }
    let hex: String = groups.concat();
    let mut out = [0u8; 16];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn tokens_are_uuids_that_expire_after_a_day_and_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::at(1_700_000_000));
        let tokens = StoredPageTokens::open(dir.path(), clock.clone()).unwrap();
        let a = tokens.issue("q", 42).unwrap();
        let b = tokens.issue("q", 42).unwrap();
        assert_ne!(a, b, "every page gets its own token");
        assert_eq!(parse_uuid(&a).map(|u| format_uuid(&u)), Some(a.clone()));
        assert_eq!(&a[14..15], "4");
        assert_eq!(tokens.redeem(&a).unwrap(), ("q".to_owned(), 42));
        assert_eq!(tokens.redeem(&a.to_uppercase()).unwrap().1, 42);
        assert!(matches!(tokens.redeem("nope"), Err(TokenError::Unknown)));
        let foreign = "00000000-0000-4000-8000-000000000000";
        assert!(matches!(tokens.redeem(foreign), Err(TokenError::Unknown)));

        drop(tokens);
        let tokens = StoredPageTokens::open(dir.path(), clock.clone()).unwrap();
        clock.advance(TOKEN_LIFETIME - 1);
        assert_eq!(tokens.redeem(&a).unwrap().1, 42);
        clock.advance(1);
        assert!(matches!(tokens.redeem(&a), Err(TokenError::Expired)));
        assert_eq!(tokens.prune().unwrap(), 0, "kept a day after expiry");
        clock.advance(TOKEN_LIFETIME + 1);
        assert_eq!(tokens.prune().unwrap(), 2);
        assert!(matches!(tokens.redeem(&a), Err(TokenError::Unknown)));
    }
}
