//! The L1 validators' continuous fee (ACP-77): each active validator pays a per-second price
//! that rises with the excess of active validators over the target, and a validator whose
//! balance is used up is deactivated when the chain time advances past it
//! (avalanchego `vms/platformvm/validators/fee/fee.go`, `vms/components/gas/gas.go`,
//! `txs/executor/state_changes.go` `advanceValidatorFeeState`).

use ruint::aliases::U256;

/// A network's validator fee configuration (`fee.Config`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeeConfig {
    /// Active validators beyond which none may be added.
    pub capacity: u64,
    /// Active validators at which the price stays constant.
    pub target: u64,
    /// The lowest price, nAVAX per validator per second.
    pub min_price: u64,
    /// How fast the price grows with the excess (`ExcessConversionConstant`).
    pub excess_conversion_constant: u64,
}

impl FeeConfig {
    /// Mainnet and Fuji (`genesis/genesis_mainnet.go`, `genesis_fuji.go`): 512 nAVAX/s, the
    /// price doubling every day at capacity.
    pub const MAINNET: FeeConfig = FeeConfig {
        capacity: 20_000,
        target: 10_000,
        min_price: 512,
        excess_conversion_constant: 1_246_488_515,
    };

    /// Local networks (`genesis/genesis_local.go`): 1 nAVAX/s, doubling every minute.
    pub const LOCAL: FeeConfig = FeeConfig {
        capacity: 20_000,
        target: 10_000,
        min_price: 1,
        excess_conversion_constant: 865_617,
    };

    /// The configuration of a network id: mainnet (1) and Fuji (5), else local.
    pub fn for_network(network_id: u32) -> FeeConfig {
        match network_id {
            1 | 5 => Self::MAINNET,
            _ => Self::LOCAL,
        }
    }
}

/// The fee state: active validators and the excess (`fee.State`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeeState {
    /// Active validators.
    pub current: u64,
    /// Accumulated excess over the target.
    pub excess: u64,
}

impl FeeState {
    /// The state `seconds` later (`State.AdvanceTime`).
    pub fn advance(self, target: u64, seconds: u64) -> FeeState {
        let excess = if self.current < target {
            // `SubOverTime`: 0 on underflow or overflow of the product.
            (target - self.current)
                .checked_mul(seconds)
                .and_then(|d| self.excess.checked_sub(d))
                .unwrap_or(0)
        } else if self.current > target {
            // `AddOverTime`: saturates.
            (self.current - target)
                .checked_mul(seconds)
                .and_then(|d| self.excess.checked_add(d))
                .unwrap_or(u64::MAX)
        } else {
            self.excess
        };
        FeeState {
            current: self.current,
            excess,
        }
    }

    /// What one validator pays over the next `seconds` (`State.CostOf`), saturating.
    pub fn cost_of(self, c: &FeeConfig, seconds: u64) -> u64 {
        if self.current == c.target {
            let price = price(c.min_price, self.excess, c.excess_conversion_constant);
            return seconds.saturating_mul(price);
        }
        let mut s = self;
        let mut cost = 0u64;
        for i in 0..seconds {
            s = s.advance(c.target, 1);
            if s.excess == 0 {
                let rest = c.min_price.checked_mul(seconds - i);
                return rest.and_then(|r| cost.checked_add(r)).unwrap_or(u64::MAX);
            }
            let p = price(c.min_price, s.excess, c.excess_conversion_constant);
            cost = match cost.checked_add(p) {
                Some(c) => c,
                None => return u64::MAX,
            };
        }
        cost
    }
}

/// `minPrice · e^(excess / k)` by EIP-4844's fake exponential, capped at `u64::MAX`
/// (`gas.CalculatePrice`, in 256 bits as Go computes it).
pub fn price(min_price: u64, excess: u64, k: u64) -> u64 {
    let (numerator, denominator) = (U256::from(excess), U256::from(k));
    let max_output = denominator * U256::from(u64::MAX);
    let mut accum = U256::from(min_price) * denominator;
    let mut output = U256::ZERO;
    let mut i = U256::from(1u8);
    while accum > U256::ZERO {
        output += accum;
        if output >= max_output {
            return u64::MAX;
        }
        accum = accum * numerator / (denominator * i);
        i += U256::from(1u8);
    }
    // `max_output` bounds `output`, so the quotient fits; k = 0 never reaches here (the
    // first comparison is 0 >= 0).
    u64::try_from(output / denominator).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every case of `vms/components/gas/gas_test.go` `calculatePriceTests`.
    #[test]
    fn price_matches_avalanchego_vectors() {
        let m = u64::MAX;
        let cases: [(u64, u64, u64, u64); 10] = [
            (1, 0, 1, 1),
            (1, 1, 1, 2),
            (1, 2, 1, 6),
            (1, 10_000, 10_000, 2),
            (1, 1_000_000, 10_000, m),
            (10, 10_000_000, 1_000_000, 220_264),
            (m, m, 1, m),
            (u64::from(u32::MAX), 1, 1, 11_674_931_546),
            (6_786_177_901_268_885_274, 1, 1, m - 11),
            (6_786_177_901_268_885_274, m, m, m - 1),
        ];
        for (min, excess, k, expected) in cases {
            assert_eq!(price(min, excess, k), expected, "{min} e^({excess}/{k})");
        }
    }

    /// Every case of `vms/platformvm/validators/fee/fee_test.go` (`tests`, `TestCalculateCost`):
    /// target 10,000, minPrice 2,048, K = 10,000 · 86,400 / ln 2 truncated (the mainnet K).
    #[test]
    fn cost_matches_avalanchego_fee_vectors() {
        let c = FeeConfig {
            min_price: 2_048,
            ..FeeConfig::MAINNET
        };
        let k = c.excess_conversion_constant;
        let (minute, hour, day, week) = (60, 3_600, 86_400, 7 * 86_400);
        let cases: [(u64, u64, u64, u64); 10] = [
            (10, 0, minute, 122_880),
            (10_000, 0, minute, 122_880),
            (10_000, 864_000_000, minute, 245_760),
            (10_000, k, minute, 334_020),
            (15_000, 0, minute, 122_880),
            (9_000, 6 * hour * 1_000, day, 177_321_939),
            (10_000, k, day, 480_988_800),
            (15_000, 0, day, 211_438_809),
            (10_000, 0, week, 1_238_630_400),
            (15_000, 0, week, 5_265_492_669),
        ];
        for (current, excess, seconds, want) in cases {
            let s = FeeState { current, excess };
            assert_eq!(s.cost_of(&c, seconds), want, "{current} {excess} {seconds}");
            // Split anywhere, the parts add up as the state evolves per second.
            let part = seconds / 3;
            let rest = s.advance(c.target, part).cost_of(&c, seconds - part);
            assert_eq!(s.cost_of(&c, part) + rest, want);
        }
    }

    /// `fee_test.go`: at or below the target with no excess, every second costs the minimum.
    #[test]
    fn below_target_costs_the_minimum_price() {
        let c = FeeConfig::LOCAL;
        let s = FeeState {
            current: 3,
            excess: 0,
        };
        assert_eq!(s.cost_of(&c, 86_400), 86_400);
        assert_eq!(s.advance(c.target, 100).excess, 0);
        let m = FeeConfig::MAINNET;
        assert_eq!(s.cost_of(&m, 10), 5_120);
    }

    #[test]
    fn above_target_the_excess_grows_and_the_price_with_it() {
        let c = FeeConfig::LOCAL;
        let s = FeeState {
            current: c.capacity,
            excess: 0,
        };
        assert_eq!(s.advance(c.target, 600).excess, 6_000_000);
        // At capacity the local price doubles every minute: 2^10 after 600 s.
        let cost = s.cost_of(&c, 600);
        // About the integral of 2^(t/60) over 600 s: 60/ln 2 · (2^10 - 1) ≈ 88,560.
        assert!(cost > 85_000 && cost < 92_000, "{cost}");
        assert_eq!(price(1, 6_000_000, c.excess_conversion_constant), 1_024);
        // Each second's price is that of the excess after the second.
        let by_hand: u64 = (1..=600)
            .map(|i| price(1, 10_000 * i, c.excess_conversion_constant))
            .sum();
        assert_eq!(cost, by_hand);
    }
}
