//! The staking reward calculator (`vms/platformvm/reward`), integer-exact with avalanchego:
//!
//! `reward = (cap − supply) × (min·P + (max−min)·d) × stake × d / (P · 1e6) / supply / P`
//! with every division flooring, `d` the staked duration and `P` the minting period in
//! nanoseconds, capped at `cap − supply`. Used for pending-reward estimates. Primary-network
//! stakers use [`Config::calculate_primary_network`], which applies the Helicon (ACP-285)
//! minimum-rate ramp once Helicon is active (it is not yet scheduled on mainnet or Fuji).

/// Rates are in millionths (`reward.PercentDenominator`).
pub const PERCENT_DENOMINATOR: u64 = 1_000_000;

/// ACP-285 (Helicon): the primary network's minimum consumption rate moves to 7.5 %.
pub const HELICON_MIN_CONSUMPTION_RATE_TARGET: u64 = 75_000;
/// ACP-285: the move is linear over 90 days after Helicon activation (seconds).
pub const HELICON_MIN_CONSUMPTION_RATE_REDUCTION_SECS: u64 = 90 * 24 * 3600;
/// Helicon activation on mainnet (Unix seconds): unscheduled in avalanchego
/// (`upgrade/upgrade.go`), so mainnet rewards still follow the plain curve.
pub const MAINNET_HELICON_TIME: Option<u64> = None;
/// Helicon activation on Fuji: unscheduled too.
pub const FUJI_HELICON_TIME: Option<u64> = None;

/// Nanoseconds in a 365-day year, the minting period of mainnet, Fuji and local.
const YEAR_NANOS: u64 = 365 * 24 * 3600 * 1_000_000_000;

/// A reward curve (`reward.Config`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    /// Rate for staking a whole minting period, millionths.
    pub max_consumption_rate: u64,
    /// Rate for a zero-length stake, millionths.
    pub min_consumption_rate: u64,
    /// The period the rates are per, nanoseconds (Go `time.Duration`).
    pub minting_period_nanos: u64,
    /// The supply the rewards converge to, nAVAX.
    pub supply_cap: u64,
}

impl Config {
    /// Mainnet (`genesis/genesis_mainnet.go`): 12 %/10 %, 365 days, 720 M AVAX.
    pub const MAINNET: Config = Config {
        max_consumption_rate: 120_000,
        min_consumption_rate: 100_000,
        minting_period_nanos: YEAR_NANOS,
        supply_cap: 720_000_000_000_000_000,
    };
    /// Fuji (`genesis/genesis_fuji.go`): same curve as mainnet.
    pub const FUJI: Config = Self::MAINNET;
    /// Local networks (`genesis/genesis_local.go`): same curve as mainnet.
    pub const LOCAL: Config = Self::MAINNET;

    /// The curve of a network id: mainnet (1), Fuji (5) and anything else (local defaults).
    pub fn for_network(network_id: u32) -> Config {
        match network_id {
            1 => Self::MAINNET,
            5 => Self::FUJI,
            _ => Self::LOCAL,
        }
    }

    /// The reward for staking `stake` nAVAX for `duration` (nanoseconds) when the supply is
    /// `current_supply` (`calculator.Calculate`). A zero supply (a division by zero in Go)
    /// yields the whole remaining supply.
    pub fn calculate(&self, duration_nanos: u64, stake: u64, current_supply: u64) -> u64 {
        // Go computes `supplyCap - currentSupply` in uint64 (wrapping).
        let remaining = self.supply_cap.wrapping_sub(current_supply);
        if current_supply == 0 || self.minting_period_nanos == 0 {
            return remaining;
        }
        let rate_span = self
            .max_consumption_rate
            .wrapping_sub(self.min_consumption_rate);
        let mut numerator = Big::from_u64(rate_span).mul(duration_nanos);
        numerator.add(&Big::from_u64(self.min_consumption_rate).mul(self.minting_period_nanos));
        let reward = numerator
            .mul(remaining)
            .mul(stake)
            .mul(duration_nanos)
            // ÷ (P · 1e6) as two floored divisions, which equals one.
            .div(self.minting_period_nanos)
            .div(PERCENT_DENOMINATOR)
            .div(current_supply)
            .div(self.minting_period_nanos);
        match reward.to_u64() {
            Some(r) => r.min(remaining),
            None => remaining,
        }
    }

    /// The curve a primary-network staker starting at `stake_start` (Unix seconds) is paid on
    /// (`configForStakeStart` behind `reward.NewPrimaryNetworkCalculator`): from Helicon
    /// (`helicon_time`, `None` = not activated) the minimum rate ramps linearly to
    /// [`HELICON_MIN_CONSUMPTION_RATE_TARGET`] over 90 days, rounding the change down; a curve
    /// already at the target, or whose maximum is below it, is kept.
    pub fn for_primary_network_stake(&self, helicon_time: Option<u64>, stake_start: u64) -> Self {
        let target = HELICON_MIN_CONSUMPTION_RATE_TARGET;
        let Some(helicon) = helicon_time else {
            return *self;
        };
        if stake_start < helicon
            || self.min_consumption_rate == target
            || self.max_consumption_rate < target
        {
            return *self;
        }
        let full_change = self.min_consumption_rate.abs_diff(target);
        let elapsed = stake_start - helicon;
        let change = if elapsed < HELICON_MIN_CONSUMPTION_RATE_REDUCTION_SECS {
            // Go ramps in nanoseconds; scaling both the elapsed time and the period by 1e9
            // leaves the floored quotient unchanged. Fits: < 2^64 × 2^23.
            let ramped = u128::from(full_change) * u128::from(elapsed)
                / u128::from(HELICON_MIN_CONSUMPTION_RATE_REDUCTION_SECS);
            u64::try_from(ramped).unwrap_or(full_change)
        } else {
            full_change
        };
        let mut out = *self;
        out.min_consumption_rate = if self.min_consumption_rate < target {
            self.min_consumption_rate + change
        } else {
            self.min_consumption_rate - change
        };
        out
    }

    /// The primary-network reward (`primaryNetworkCalculator.Calculate`): [`Config::calculate`]
    /// on the curve [`Config::for_primary_network_stake`] gives for `stake_start`.
    pub fn calculate_primary_network(
        &self,
        helicon_time: Option<u64>,
        stake_start: u64,
        duration_nanos: u64,
        stake: u64,
        current_supply: u64,
    ) -> u64 {
        self.for_primary_network_stake(helicon_time, stake_start)
            .calculate(duration_nanos, stake, current_supply)
    }

    /// A pending-reward estimate for a staker that stakes `stake` from `start` to `end`
    /// (Unix seconds) at supply `current_supply`; 0 when `end <= start`.
    pub fn estimate(&self, start: u64, end: u64, stake: u64, current_supply: u64) -> u64 {
        let secs = end.saturating_sub(start);
        self.calculate(secs.saturating_mul(1_000_000_000), stake, current_supply)
    }
}

/// Splits a reward between a validator's fee (`shares` millionths) and its delegator
/// (`reward.Split`): returns `(validator fee, delegator part)`.
pub fn split(total: u64, shares: u32) -> (u64, u64) {
    let remainder_shares = PERCENT_DENOMINATOR.saturating_sub(u64::from(shares));
    let remainder = match remainder_shares.checked_mul(total) {
        Some(v) => v / PERCENT_DENOMINATOR,
        None => remainder_shares.wrapping_mul(total / PERCENT_DENOMINATOR),
    };
    (total.wrapping_sub(remainder), remainder)
}

/// A small unsigned big integer (6 × 64 bits) for the calculator's intermediate products,
/// which reach about 2^256.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Big([u64; 6]);

impl Big {
    fn from_u64(v: u64) -> Self {
        Big([v, 0, 0, 0, 0, 0])
    }

    /// `self × m`; the top limb's carry is dropped (cannot happen: five u64 factors fit 320 bits).
    fn mul(mut self, m: u64) -> Self {
        let mut carry: u128 = 0;
        for limb in self.0.iter_mut() {
            let p = u128::from(*limb) * u128::from(m) + carry;
            *limb = p as u64;
            carry = p >> 64;
        }
        self
    }

    fn add(&mut self, o: &Big) {
        let mut carry = false;
        for (a, b) in self.0.iter_mut().zip(o.0.iter()) {
            let (s1, c1) = a.overflowing_add(*b);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *a = s2;
            carry = c1 || c2;
        }
    }

    /// `floor(self / d)` for `d > 0`.
    fn div(mut self, d: u64) -> Self {
        let mut rem: u128 = 0;
        for limb in self.0.iter_mut().rev() {
            let cur = (rem << 64) | u128::from(*limb);
            *limb = (cur / u128::from(d)) as u64;
            rem = cur % u128::from(d);
        }
        self
    }

    fn to_u64(self) -> Option<u64> {
        match self.0 {
            [v, 0, 0, 0, 0, 0] => Some(v),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_arithmetic_matches_u128() {
        let a = Big::from_u64(u64::MAX).mul(u64::MAX);
        let expect = u128::from(u64::MAX) * u128::from(u64::MAX);
        assert_eq!(a.0[0], expect as u64);
        assert_eq!(a.0[1], (expect >> 64) as u64);
        assert_eq!(a.div(u64::MAX).to_u64(), Some(u64::MAX));
        let mut b = Big::from_u64(u64::MAX);
        b.add(&Big::from_u64(1));
        assert_eq!(b.0[..2], [0, 1]);
    }
}
