//! Weighted rate limits per tier, per minute and per day, on governor's GCRA limiters: by
//! API-key id for keyed callers, by client IP for anonymous ones. A request costs its route's
//! weight in compute units and must fit in both windows. Each caller's state is a [`Budget`]
//! that a keep-alive connection holds on to ([`BudgetCache`]).

mod budget;

pub use budget::{BudgetCache, LimitKeyRef};

use crate::error::RestError;
use crate::weight::Weight;
use budget::{Budget, Budgets, Slot};
use bytes::Bytes;
use governor::clock::{Clock, DefaultClock, Reference};
use governor::middleware::StateInformationMiddleware;
use governor::{Quota, RateLimiter};
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
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

/// A window's limiter: keyed by the caller's budget, keeping its state in the budget.
type Keyed<C> = RateLimiter<Arc<Budget>, Slot, C, StateInformationMiddleware>;

struct Window<C: Clock> {
    limit: u32,
    /// `limit` as a header value, built once (cloning it only bumps a reference count).
    limit_value: HeaderValue,
    seconds: u64,
    name: &'static str,
    limiter: Keyed<C>,
}

struct Tier<C: Clock> {
    windows: Vec<Window<C>>,
    policy: Option<HeaderValue>,
    budgets: Budgets,
    /// Taken after the windows' limiters were built, so time since it never exceeds theirs.
    start: C::Instant,
}

/// The limiters of every tier; cheap to share behind an `Arc`.
pub struct Limiter<C: Clock = DefaultClock> {
    enabled: bool,
    /// By name; a handful, so a scan comparing names beats hashing the name per request.
    tiers: Vec<(String, Tier<C>)>,
    /// The index in `tiers` of the fallback tier (when it is configured).
    fallback: Option<usize>,
    clock: C,
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
        let mut tiers = Vec::new();
        for (name, limit) in &limits.tiers {
            let mut windows = Vec::new();
            for (units, seconds, slot) in [
                (limit.per_minute, 60, Slot::Minute),
                (limit.per_day, 86_400, Slot::Day),
            ] {
                let Some(units) = units else { continue };
                windows.push(window(name, units, seconds, slot, clock)?);
            }
            let policy = (!windows.is_empty())
                .then(|| {
                    let text: Vec<String> = windows
                        .iter()
                        .map(|w| format!("{};w={}", w.limit, w.seconds))
                        .collect();
                    interned(&text.join(", "))
                })
                .flatten();
            let tier = Tier {
                windows,
                policy,
                budgets: Budgets::default(),
                start: clock.now(),
            };
            tiers.push((name.clone(), tier));
        }
        let fallback = tiers
            .iter()
            .position(|(name, _)| *name == limits.fallback_tier);
        if limits.enabled && fallback.is_none() {
            return Err(RestError::RateLimit {
                tier: limits.fallback_tier.clone(),
                reason: "the fallback tier is not configured".to_owned(),
            });
        }
        Ok(Self {
            enabled: limits.enabled,
            tiers,
            fallback,
            clock: clock.clone(),
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
        let Some((policy, spent)) = self.decide(tier, key.as_ref(), None, weight) else {
            return Verdict::default();
        };
        // policy, limit, remaining: every admitted request's answer, in one allocation.
        let mut headers = Vec::with_capacity(3);
        spent.headers(policy, |n, v| headers.push((n, v)));
        Verdict {
            headers,
            rejected: spent.rejection(),
        }
    }

    /// [`check`](Self::check) appending the headers straight to `headers` (the response's, in
    /// the server) instead of collecting them in a [`Verdict`]: no allocation of its own. With
    /// `cache` (the connection's), a caller's budget is looked up once per connection rather
    /// than once per request. Returns the rejection message when the request is refused (429).
    pub fn check_into(
        &self,
        tier: &str,
        key: LimitKeyRef<'_>,
        weight: Weight,
        headers: &mut HeaderMap,
        cache: Option<&BudgetCache>,
    ) -> Option<String> {
        let (policy, spent) = self.decide(tier, key, cache, weight)?;
        spent.headers(policy, |n, v| {
            headers.append(n, v);
        });
        spent.rejection()
    }

    /// Finds the tier (its policy) and the caller's budget, and spends the budget; `None` when
    /// limiting is off or the tier has no limits.
    fn decide(
        &self,
        tier: &str,
        key: LimitKeyRef<'_>,
        cache: Option<&BudgetCache>,
        weight: Weight,
    ) -> Option<(&HeaderValue, Spent<'_, C>)> {
        if !self.enabled {
            return None;
        }
        let index = self.tiers.iter().position(|(name, _)| name == tier);
        let index = index.or(self.fallback)?;
        let (_, t) = self.tiers.get(index)?;
        let policy = t.policy.as_ref()?;
        let run = |budget: &Arc<Budget>| spend(t, tier, budget, weight);
        let spent = match cache {
            Some(cache) => cache.with(index, key, &t.budgets, run),
            None => t.budgets.with(key, run),
        };
        Some((policy, spent?))
    }

    /// Spends `units` of `key`'s budget in `tier` (the fallback tier if unknown) in every
    /// window, without a verdict: what the caller spent elsewhere (another node of a fleet), so
    /// this limiter's next check counts it. A window with fewer units left than `units` keeps
    /// them (they are not carried over).
    pub fn charge(&self, tier: &str, key: LimitKeyRef<'_>, units: u32) {
        let Some(weight) = Weight::new(units).filter(|_| self.enabled) else {
            return;
        };
        let index = self.tiers.iter().position(|(name, _)| name == tier);
        let Some((_, t)) = index.or(self.fallback).and_then(|i| self.tiers.get(i)) else {
            return;
        };
        t.budgets.with(key, |budget| {
            for w in &t.windows {
                // Refused: the window is spent already; the units are dropped.
                drop(w.limiter.check_key_n(budget, weight.units));
            }
        });
    }

    /// Forgets callers whose budget is full again and that no connection holds, bounding
    /// memory (call periodically).
    pub fn retain_recent(&self) {
        for (_, t) in &self.tiers {
            let now = self.clock.now().duration_since(t.start);
            t.budgets.retain_recent(now.into());
        }
    }

    /// Callers with a budget in memory, over all tiers.
    pub fn callers(&self) -> usize {
        self.tiers.iter().map(|(_, t)| t.budgets.len()).sum()
    }
}

/// How spending a budget ended.
enum Spent<'a, C: Clock> {
    /// Admitted; `remaining` units are left in `window`, the window with the fewest left.
    Admitted {
        window: &'a Window<C>,
        remaining: u32,
    },
    /// Refused by `window`; `retry` is the wait in whole seconds when waiting can help.
    Refused {
        window: &'a Window<C>,
        retry: Option<u64>,
        message: String,
    },
}

impl<C: Clock> Spent<'_, C> {
    /// Hands the answer's rate-limit headers to `add`, in answer order, after `policy`.
    fn headers(&self, policy: &HeaderValue, mut add: impl FnMut(HeaderName, HeaderValue)) {
        add(RATELIMIT_POLICY, policy.clone());
        match self {
            Spent::Admitted { window, remaining } => {
                add(RATELIMIT_LIMIT, window.limit_value.clone());
                add(RATELIMIT_REMAINING, number(*remaining));
            }
            Spent::Refused { window, retry, .. } => {
                add(RATELIMIT_LIMIT, window.limit_value.clone());
                if let Some(secs) = retry {
                    let v = HeaderValue::from(*secs);
                    add(RATELIMIT_REMAINING, HeaderValue::from_static("0"));
                    add(RATELIMIT_RESET, v.clone());
                    add(hyper::header::RETRY_AFTER, v);
                }
            }
        }
    }

    fn rejection(self) -> Option<String> {
        match self {
            Spent::Admitted { .. } => None,
            Spent::Refused { message, .. } => Some(message),
        }
    }
}

/// Spends `weight` units of `budget` in every window of `t` (named `tier` in messages), minute
/// first, then day; units taken from the minute window stay taken when the day window refuses.
/// `None` when the tier has no window.
fn spend<'a, C: Clock>(
    t: &'a Tier<C>,
    tier: &str,
    budget: &Arc<Budget>,
    weight: Weight,
) -> Option<Spent<'a, C>> {
    let mut tightest: Option<(&Window<C>, u32)> = None;
    for w in &t.windows {
        match w.limiter.check_key_n(budget, weight.units) {
            Ok(Ok(state)) => {
                let remaining = state.remaining_burst_capacity();
                if tightest.is_none_or(|(_, r)| remaining < r) {
                    tightest = Some((w, remaining));
                }
            }
            Ok(Err(not_until)) => {
                let secs = ceil_secs(not_until.wait_time_from(w.limiter.clock().now()));
                return Some(Spent::Refused {
                    window: w,
                    retry: Some(secs),
                    message: format!(
                        "Rate limit exceeded: {} compute units per {} for tier {tier:?}; \
                         this request costs {}, retry after {secs} s",
                        w.limit,
                        w.name,
                        weight.units.get()
                    ),
                });
            }
            Err(_insufficient) => {
                return Some(Spent::Refused {
                    window: w,
                    retry: None,
                    message: format!(
                        "Rate limit exceeded: this request costs {} compute units, more than \
                         the {} per {} of tier {tier:?}",
                        weight.units.get(),
                        w.limit,
                        w.name
                    ),
                });
            }
        }
    }
    let (window, remaining) = tightest?;
    Some(Spent::Admitted { window, remaining })
}

fn window<C: Clock + Clone>(
    tier: &str,
    units: u32,
    seconds: u64,
    slot: Slot,
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
    let limiter: Keyed<C> = RateLimiter::new(quota, slot, clock.clone());
    Ok(Window {
        limit: units,
        limit_value: interned(&units.to_string()).unwrap_or_else(|| number(units)),
        seconds,
        name: match slot {
            Slot::Minute => "minute",
            Slot::Day => "day",
        },
        limiter,
    })
}

/// `text` as a header value over a process-wide copy of it, or `None` if it is not a valid value.
/// The policy and limit values are built once per tier but cloned into every answer: over
/// `'static` bytes a clone and its drop are free, where a shared value's reference count is one
/// more cache line the server's threads pass back and forth per request. Each distinct text is
/// kept once for the life of the process (there are as many as configured windows).
fn interned(text: &str) -> Option<HeaderValue> {
    static TEXTS: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let kept: &'static str = match texts.get(text) {
        Some(kept) => kept,
        None => {
            let kept: &'static str = Box::leak(text.into());
            texts.insert(kept);
            kept
        }
    };
    HeaderValue::from_maybe_shared(Bytes::from_static(kept.as_bytes())).ok()
}

/// `n` in decimal as a header value, in one exact-size allocation (`HeaderValue::from(u32)`
/// goes through a `BytesMut` with spare capacity and costs two, plus two frees).
fn number(n: u32) -> HeaderValue {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut rest = n;
    for d in digits.iter_mut().rev() {
        *d = b'0' + (rest % 10) as u8;
        rest /= 10;
        start -= 1;
        if rest == 0 {
            break;
        }
    }
    digits
        .get(start..)
        .and_then(|d| HeaderValue::from_bytes(d).ok())
        .unwrap_or_else(|| HeaderValue::from(n))
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
    fn charged_units_are_spent_from_the_same_budget() {
        let clock = FakeRelativeClock::default();
        let l = Limiter::with_clock(&limits(30, 1000), &clock).unwrap();
        let key = LimitKey::Key("k".into());
        // Spent elsewhere: 20 of the minute's 30 units.
        l.charge("t", key.as_ref(), 20);
        let v = l.check("t", &key, Weight::SMALL);
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("0"));
        assert!(l.check("t", &key, Weight::SMALL).rejected.is_some());
        // Another caller's budget is untouched; a charge past the empty minute still reaches
        // the day: 1000 - 20 - 10 - 5.
        l.charge("t", key.as_ref(), 5);
        let other = LimitKey::Key("other".into());
        assert_eq!(
            header(&l.check("t", &other, Weight::SMALL), &RATELIMIT_REMAINING),
            Some("20")
        );
        clock.advance(Duration::from_secs(20));
        let v = l.check("t", &key, Weight::SMALL);
        assert_eq!(v.rejected, None);
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("0"));
        clock.advance(Duration::from_secs(60));
        l.charge("t", key.as_ref(), 1);
        let v = l.check("t", &key, Weight::SMALL);
        // The day window now has 1000 - 45 - 1 - 10 left, the minute 30 - 1 - 10.
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("19"));
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
    fn interned_values_are_shared_and_invalid_text_is_refused() {
        let a = interned("30;w=60, 1000;w=86400").unwrap();
        let b = interned(&format!("{};w=60, {};w=86400", 30, 1000)).unwrap();
        assert_eq!(a.as_bytes().as_ptr(), b.as_bytes().as_ptr());
        assert_eq!(a, "30;w=60, 1000;w=86400");
        assert_eq!(interned("line\nbreak"), None);
    }

    #[test]
    fn number_edges_are_decimal() {
        for n in [0, 9, 10, 99, 100, 1_000_000, u32::MAX] {
            assert_eq!(number(n).to_str().unwrap(), n.to_string());
        }
    }

    #[test]
    fn idle_callers_are_forgotten_unless_a_connection_holds_them() {
        let clock = FakeRelativeClock::default();
        let l = Limiter::with_clock(&limits(60, 100_000), &clock).unwrap();
        let cache = BudgetCache::new();
        let held = LimitKey::Ip(IpAddr::from([10, 0, 0, 1]));
        let mut map = HeaderMap::new();
        assert_eq!(
            l.check_into("t", held.as_ref(), Weight::SMALL, &mut map, Some(&cache)),
            None
        );
        assert_eq!(
            l.check("t", &LimitKey::Key("k".into()), Weight::SMALL)
                .rejected,
            None
        );
        assert_eq!(l.callers(), 2);
        l.retain_recent();
        assert_eq!(l.callers(), 2, "both budgets are still spent");
        // 10 units at 100,000 a day take 8.64 s to come back; the minute's in 10 s.
        clock.advance(Duration::from_secs(10));
        l.retain_recent();
        assert_eq!(l.callers(), 1, "the unheld, full budget is forgotten");
        // Full again but held: the connection and new lookups still spend one budget.
        let mut map = HeaderMap::new();
        l.check_into("t", held.as_ref(), Weight::SMALL, &mut map, Some(&cache));
        assert_eq!(map.get(RATELIMIT_REMAINING).unwrap(), "50");
        let v = l.check("t", &held, Weight::SMALL);
        assert_eq!(header(&v, &RATELIMIT_REMAINING), Some("40"));
        drop(cache);
        clock.advance(Duration::from_secs(20));
        l.retain_recent();
        assert_eq!(l.callers(), 0);
    }

    #[test]
    fn zero_units_and_missing_fallback_are_config_errors() {
        assert!(Limiter::new(&limits(0, 10)).is_err());
        let mut l = limits(10, 10);
        l.fallback_tier = "other".into();
        assert!(Limiter::new(&l).is_err());
    }

    proptest! {
        /// Header numbers are the decimal numbers `HeaderValue::from(u32)` would write.
        #[test]
        fn numbers_are_decimal(n in any::<u32>()) {
            prop_assert_eq!(number(n), HeaderValue::from(n));
        }

        /// `check_into` adds exactly the headers `check` returns, in order, and refuses alike.
        #[test]
        fn check_into_answers_like_check(
            per_minute in 1u32..300,
            per_day in 1u32..300,
            steps in proptest::collection::vec((1u32..60, 0u64..30), 1..40),
        ) {
            let (ca, cb) = (FakeRelativeClock::default(), FakeRelativeClock::default());
            let a = Limiter::with_clock(&limits(per_minute, per_day), &ca).unwrap();
            let b = Limiter::with_clock(&limits(per_minute, per_day), &cb).unwrap();
            let key = LimitKey::Ip(IpAddr::from([192, 0, 2, 7]));
            let cache = BudgetCache::new();
            for (w, secs) in steps {
                let weight = Weight::new(w).unwrap();
                let verdict = a.check("t", &key, weight);
                let mut map = HeaderMap::new();
                let rejected = b.check_into("t", key.as_ref(), weight, &mut map, Some(&cache));
                let added: Vec<(HeaderName, HeaderValue)> = map
                    .iter()
                    .map(|(n, v)| (n.clone(), v.clone()))
                    .collect();
                prop_assert_eq!(&added, &verdict.headers);
                prop_assert_eq!(rejected, verdict.rejected);
                ca.advance(Duration::from_secs(secs));
                cb.advance(Duration::from_secs(secs));
            }
        }

        /// Budgets decide exactly as governor's own keyed limiters (a `DashMap` of states per
        /// window) do, for several callers, with and without a connection's cache, as time
        /// passes and idle callers are forgotten.
        #[test]
        fn decides_like_governors_own_keyed_limiters(
            per_minute in 1u32..300,
            per_day in 1u32..600,
            steps in proptest::collection::vec((0usize..3, 1u32..60, 0u64..40, any::<bool>()), 1..60),
        ) {
            let (ours, theirs) = (FakeRelativeClock::default(), FakeRelativeClock::default());
            let l = Limiter::with_clock(&limits(per_minute, per_day), &ours).unwrap();
            let reference = |units: u32, secs: u64| {
                let quota = Quota::with_period(Duration::from_secs(secs) / units)
                    .unwrap()
                    .allow_burst(NonZeroU32::new(units).unwrap());
                RateLimiter::dashmap_with_clock(quota, theirs.clone())
                    .with_middleware::<StateInformationMiddleware>()
            };
            let (minute, day) = (reference(per_minute, 60), reference(per_day, 86_400));
            let keys = [
                LimitKey::Ip(IpAddr::from([192, 0, 2, 7])),
                LimitKey::Key("a".into()),
                LimitKey::Key("b".into()),
            ];
            let cache = BudgetCache::new();
            for (k, w, secs, cached) in steps {
                let weight = Weight::new(w).unwrap();
                let key = &keys[k];
                let mut expected = Some(u32::MAX);
                for window in [&minute, &day] {
                    match window.check_key_n(key, weight.units) {
                        Ok(Ok(state)) => {
                            expected = expected.map(|r| r.min(state.remaining_burst_capacity()));
                        }
                        _ => {
                            expected = None;
                            break;
                        }
                    }
                }
                let verdict = if cached {
                    let mut map = HeaderMap::new();
                    let rejected = l.check_into("t", key.as_ref(), weight, &mut map, Some(&cache));
                    let headers = map.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
                    Verdict { headers, rejected }
                } else {
                    l.check("t", key, weight)
                };
                match expected {
                    Some(left) => {
                        prop_assert_eq!(&verdict.rejected, &None);
                        let left = left.to_string();
                        prop_assert_eq!(header(&verdict, &RATELIMIT_REMAINING), Some(left.as_str()));
                    }
                    None => prop_assert!(verdict.rejected.is_some()),
                }
                ours.advance(Duration::from_secs(secs));
                theirs.advance(Duration::from_secs(secs));
                l.retain_recent();
            }
        }

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
