//! Weighted rate limits per tier, per minute and per day, on governor's keyed GCRA
//! limiters: keyed by API-key id for keyed callers, by client IP for anonymous ones.
//! A request costs its route's weight in compute units and must fit in both windows.

use crate::error::RestError;
use crate::route::Weight;
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};
use hyper::header::{HeaderName, HeaderValue};
use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

/// `ratelimit-policy`: the windows of the caller's tier, e.g. `10000;w=60, 2000000;w=86400`.
pub const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
/// `ratelimit-limit`: the units of the tighter window.
pub const RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
/// `ratelimit-remaining`: the units left in the tighter window after this request.
pub const RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
/// `ratelimit-reset` (429 only): seconds until the request would fit.
pub const RATELIMIT_RESET: HeaderName = HeaderName::from_static("ratelimit-reset");

/// The compute units a tier may spend; `None` means no limit for that window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierLimit {
    /// Units per minute.
    pub per_minute: Option<u32>,
    /// Units per day.
    pub per_day: Option<u32>,
}

impl TierLimit {
    /// A tier limited per minute and per day.
    pub fn new(per_minute: u32, per_day: u32) -> Self {
        Self {
            per_minute: Some(per_minute),
            per_day: Some(per_day),
        }
    }

    /// A tier without limits.
    pub fn unlimited() -> Self {
        Self {
            per_minute: None,
            per_day: None,
        }
    }
}

/// Rate-limit configuration: the tiers by name and the tier used for unknown names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    /// `false` switches limiting off entirely (no check, no headers).
    pub enabled: bool,
    /// Limits by tier name; anonymous callers use [`crate::auth::ANONYMOUS_TIER`].
    pub tiers: HashMap<String, TierLimit>,
    /// The tier applied to a key whose tier name is not in `tiers`.
    pub fallback_tier: String,
}

impl Default for RateLimits {
    /// anonymous 1,000/min & 100,000/day; free 10,000/min & 2,000,000/day;
    /// pro 100,000/min & 20,000,000/day; unlimited: none. Unknown tiers use `free`.
    fn default() -> Self {
        let tiers = [
            ("anonymous", TierLimit::new(1_000, 100_000)),
            ("free", TierLimit::new(10_000, 2_000_000)),
            ("pro", TierLimit::new(100_000, 20_000_000)),
            ("unlimited", TierLimit::unlimited()),
        ]
        .into_iter()
        .map(|(n, l)| (n.to_owned(), l))
        .collect();
        Self {
            enabled: true,
            tiers,
            fallback_tier: "free".to_owned(),
        }
    }
}

impl RateLimits {
    /// Limiting switched off (for benchmarks measuring its cost).
    pub fn disabled() -> Self {
        Self {
            enabled: false,
            ..Self::default()
        }
    }
}

/// Whose budget a request spends.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LimitKey {
    /// A keyed caller, by key id.
    Key(String),
    /// An anonymous caller, by client IP.
    Ip(IpAddr),
}

/// The verdict on one request: headers to add, and a rejection message if refused.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// `ratelimit-*` (and on refusal `retry-after`) headers.
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// `Some(message)` when the request is refused (HTTP 429).
    pub rejected: Option<String>,
}

type Keyed<C> = RateLimiter<LimitKey, DashMapStateStore<LimitKey>, C, StateInformationMiddleware>;

struct Window<C: Clock> {
    limit: u32,
    seconds: u64,
    name: &'static str,
    limiter: Keyed<C>,
}

struct Tier<C: Clock> {
    windows: Vec<Window<C>>,
    policy: Option<HeaderValue>,
}

/// The limiters of every tier; cheap to share behind an `Arc`.
pub struct Limiter<C: Clock = DefaultClock> {
    enabled: bool,
    tiers: HashMap<String, Tier<C>>,
    fallback: String,
}

impl Limiter<DefaultClock> {
    /// Builds the limiters of `limits` on the real clock.
    pub fn new(limits: &RateLimits) -> Result<Self, RestError> {
        Self::with_clock(limits, &DefaultClock::default())
    }
}

impl<C: Clock + Clone> Limiter<C> {
    /// Builds the limiters of `limits` on `clock` (a fake clock in tests).
    pub fn with_clock(limits: &RateLimits, clock: &C) -> Result<Self, RestError> {
        let mut tiers = HashMap::new();
        for (name, limit) in &limits.tiers {
            let mut windows = Vec::new();
            for (units, seconds, wname) in [
                (limit.per_minute, 60, "minute"),
                (limit.per_day, 86_400, "day"),
            ] {
                let Some(units) = units else { continue };
                windows.push(window(name, units, seconds, wname, clock)?);
            }
            let policy = (!windows.is_empty())
                .then(|| {
                    let text: Vec<String> = windows
                        .iter()
                        .map(|w| format!("{};w={}", w.limit, w.seconds))
                        .collect();
                    HeaderValue::from_str(&text.join(", ")).ok()
                })
                .flatten();
            tiers.insert(name.clone(), Tier { windows, policy });
        }
        if limits.enabled && !tiers.contains_key(&limits.fallback_tier) {
            return Err(RestError::RateLimit {
                tier: limits.fallback_tier.clone(),
                reason: "the fallback tier is not configured".to_owned(),
            });
        }
        Ok(Self {
            enabled: limits.enabled,
            tiers,
            fallback: limits.fallback_tier.clone(),
        })
    }

    /// Whether limiting is on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Spends `weight` units of `key`'s budget in `tier` (the fallback tier if unknown).
    ///
    /// Windows are checked minute first, then day; units taken from the minute window
    /// stay taken when the day window refuses (an over-count of at most one request).
    pub fn check(&self, tier: &str, key: &LimitKey, weight: Weight) -> Verdict {
        if !self.enabled {
            return Verdict::default();
        }
        let Some(t) = self
            .tiers
            .get(tier)
            .or_else(|| self.tiers.get(&self.fallback))
        else {
            return Verdict::default();
        };
        let Some(policy) = &t.policy else {
            return Verdict::default();
        };
        let mut headers = vec![(RATELIMIT_POLICY, policy.clone())];
        let mut tightest: Option<(u32, u32)> = None;
        for w in &t.windows {
            match w.limiter.check_key_n(key, weight.cells()) {
                Ok(Ok(state)) => {
                    let remaining = state.remaining_burst_capacity();
                    if tightest.is_none_or(|(_, r)| remaining < r) {
                        tightest = Some((w.limit, remaining));
                    }
                }
                Ok(Err(not_until)) => {
                    let wait = not_until.wait_time_from(w.limiter.clock().now());
                    let secs = ceil_secs(wait).to_string();
                    headers.push((RATELIMIT_LIMIT, HeaderValue::from(w.limit)));
                    headers.push((RATELIMIT_REMAINING, HeaderValue::from(0u32)));
                    if let Ok(v) = HeaderValue::from_str(&secs) {
                        headers.push((RATELIMIT_RESET, v.clone()));
                        headers.push((hyper::header::RETRY_AFTER, v));
                    }
                    let rejected = Some(format!(
                        "Rate limit exceeded: {} compute units per {} for tier {tier:?}; \
                         this request costs {}, retry after {secs} s",
                        w.limit,
                        w.name,
                        weight.units()
                    ));
                    return Verdict { headers, rejected };
                }
                Err(_insufficient) => {
                    headers.push((RATELIMIT_LIMIT, HeaderValue::from(w.limit)));
                    let rejected = Some(format!(
                        "Rate limit exceeded: this request costs {} compute units, more than \
                         the {} per {} of tier {tier:?}",
                        weight.units(),
                        w.limit,
                        w.name
                    ));
                    return Verdict { headers, rejected };
                }
            }
        }
        if let Some((limit, remaining)) = tightest {
            headers.push((RATELIMIT_LIMIT, HeaderValue::from(limit)));
            headers.push((RATELIMIT_REMAINING, HeaderValue::from(remaining)));
        }
        Verdict {
            headers,
            rejected: None,
        }
    }

    /// Forgets keys whose budget is full again, bounding memory (call periodically).
    pub fn retain_recent(&self) {
        for t in self.tiers.values() {
            for w in &t.windows {
                w.limiter.retain_recent();
                w.limiter.shrink_to_fit();
            }
        }
    }
}

fn window<C: Clock + Clone>(
    tier: &str,
    units: u32,
    seconds: u64,
    name: &'static str,
    clock: &C,
) -> Result<Window<C>, RestError> {
    let bad = |reason: &str| RestError::RateLimit {
        tier: tier.to_owned(),
        reason: reason.to_owned(),
    };
    let burst = NonZeroU32::new(units).ok_or_else(|| bad("zero units per window"))?;
    let quota = Quota::with_period(Duration::from_secs(seconds) / units)
        .ok_or_else(|| bad("more units than nanoseconds in the window"))?
        .allow_burst(burst);
    let limiter = RateLimiter::dashmap_with_clock(quota, clock.clone())
        .with_middleware::<StateInformationMiddleware>();
    Ok(Window {
        limit: units,
        seconds,
        name,
        limiter,
    })
}

/// Whole seconds, rounded up, at least 1.
fn ceil_secs(d: Duration) -> u64 {
    let s = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    s.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;
    use proptest::prelude::*;

    fn limits(per_minute: u32, per_day: u32) -> RateLimits {
        RateLimits {
            enabled: true,
            tiers: [("t".to_owned(), TierLimit::new(per_minute, per_day))].into(),
            fallback_tier: "t".to_owned(),
        }
    }

    fn header<'a>(v: &'a Verdict, name: &HeaderName) -> Option<&'a str> {
        v.headers
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.to_str().ok())
    }

    #[test]
    fn refusal_says_when_to_retry_and_the_budget_returns() {
        let clock = FakeRelativeClock::default();
        let l = Limiter::with_clock(&limits(30, 1000), &clock).unwrap();
        let key = LimitKey::Key("k".into());
        for left in ["20", "10", "0"] {
            let v = l.check("t", &key, Weight::SMALL);
            assert_eq!(v.rejected, None);
            assert_eq!(header(&v, &RATELIMIT_REMAINING), Some(left));
            assert_eq!(header(&v, &RATELIMIT_LIMIT), Some("30"));
            assert_eq!(header(&v, &RATELIMIT_POLICY), Some("30;w=60, 1000;w=86400"));
        }
        let v = l.check("t", &key, Weight::SMALL);
        assert!(v.rejected.is_some());
        // 10 units at 30 per minute come back in 20 s.
        assert_eq!(header(&v, &hyper::header::RETRY_AFTER), Some("20"));
        assert_eq!(header(&v, &RATELIMIT_RESET), Some("20"));
        clock.advance(Duration::from_secs(20));
        assert_eq!(l.check("t", &key, Weight::SMALL).rejected, None);
    }

    #[test]
    fn day_window_binds_when_tighter() {
        let clock = FakeRelativeClock::default();
        let l = Limiter::with_clock(&limits(1000, 25), &clock).unwrap();
        let key = LimitKey::Ip(IpAddr::from([10, 0, 0, 1]));
        let v = l.check("t", &key, Weight::MEDIUM);
        assert_eq!(header(&v, &RATELIMIT_LIMIT), Some("25"));
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("5"));
        let v = l.check("t", &key, Weight::MEDIUM);
        assert!(v.rejected.unwrap().contains("per day"));
    }

    #[test]
    fn a_request_that_never_fits_is_refused_without_panic() {
        let l = Limiter::new(&limits(30, 1000)).unwrap();
        let v = l.check("t", &LimitKey::Key("k".into()), Weight::LARGE);
        assert!(v.rejected.unwrap().contains("costs 50"));
    }

    #[test]
    fn unknown_tier_falls_back_and_disabled_is_silent() {
        let l = Limiter::new(&limits(30, 1000)).unwrap();
        let v = l.check("nope", &LimitKey::Key("k".into()), Weight::FREE);
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("29"));
        let mut off = limits(30, 1000);
        off.enabled = false;
        let l = Limiter::new(&off).unwrap();
        assert_eq!(
            l.check("t", &LimitKey::Key("k".into()), Weight::XXL),
            Verdict::default()
        );
    }

    #[test]
    fn zero_units_and_missing_fallback_are_config_errors() {
        assert!(Limiter::new(&limits(0, 10)).is_err());
        let mut l = limits(10, 10);
        l.fallback_tier = "other".into();
        assert!(Limiter::new(&l).is_err());
    }

    proptest! {
        /// Without time passing, the admitted units never exceed the tighter window.
        #[test]
        fn admitted_units_never_exceed_the_budget(
            per_minute in 1u32..500,
            per_day in 1u32..500,
            weights in proptest::collection::vec(1u32..60, 1..80),
        ) {
            let clock = FakeRelativeClock::default();
            let l = Limiter::with_clock(&limits(per_minute, per_day), &clock).unwrap();
            let key = LimitKey::Key("k".into());
            let mut admitted = 0u32;
            for w in weights {
                let weight = Weight::new(w).unwrap();
                if l.check("t", &key, weight).rejected.is_none() {
                    admitted += w;
                }
            }
            prop_assert!(admitted <= per_minute.min(per_day));
        }
    }
}
