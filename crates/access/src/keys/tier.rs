//! The tiers a key can carry; the REST edge maps each to its rate limits.

use std::fmt;
use std::str::FromStr;

use crate::error::AccessError;

/// A caller's tier. `Anonymous` is for requests without a key and is never stored on a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tier {
    /// No key presented (never assigned to a key).
    Anonymous,
    /// The default tier of a new key.
    Free,
    /// A paid tier with higher limits.
    Pro,
    /// No rate limit.
    Unlimited,
    /// No rate limit, and may read every organisation's usage.
    Admin,
}

impl Tier {
    /// Every tier, lowest first.
    pub const ALL: [Tier; 5] = [
        Tier::Anonymous,
        Tier::Free,
        Tier::Pro,
        Tier::Unlimited,
        Tier::Admin,
    ];

    /// The tiers a key may carry (all but `Anonymous`).
    pub const FOR_KEYS: [Tier; 4] = [Tier::Free, Tier::Pro, Tier::Unlimited, Tier::Admin];

    /// The lowercase name used in storage, the CLI and `Caller::tier`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Tier::Anonymous => "anonymous",
            Tier::Free => "free",
            Tier::Pro => "pro",
            Tier::Unlimited => "unlimited",
            Tier::Admin => "admin",
        }
    }

    /// Parses a tier for a key: any tier name but `anonymous`.
    pub fn for_key(name: &str) -> Result<Tier, AccessError> {
        match name.parse::<Tier>() {
            Ok(t) if t != Tier::Anonymous => Ok(t),
            _ => Err(AccessError::InvalidTier {
                given: name.to_owned(),
                allowed: names(&Tier::FOR_KEYS),
            }),
        }
    }
}

fn names(tiers: &[Tier]) -> String {
    tiers
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Tier {
    type Err = AccessError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Tier::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| AccessError::InvalidTier {
                given: s.to_owned(),
                allowed: names(&Tier::ALL),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_fail() {
        for t in Tier::ALL {
            assert_eq!(t.as_str().parse::<Tier>().unwrap(), t);
        }
        assert!("gold".parse::<Tier>().is_err());
        assert!("Free".parse::<Tier>().is_err());
    }

    #[test]
    fn keys_cannot_be_anonymous() {
        assert!(matches!(
            Tier::for_key("anonymous"),
            Err(AccessError::InvalidTier { .. })
        ));
        assert_eq!(Tier::for_key("pro").unwrap(), Tier::Pro);
    }
}
