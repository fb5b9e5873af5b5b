//! `AvaxSupplyResponse` (`getAvaxSupply`): the AVAX supply figures, each an amount of AVAX as a
//! decimal string, and when they were taken.

use serde::{Deserialize, Serialize};

/// `AvaxSupplyResponse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AvaxSupplyResponse {
    /// The total supply less the locked AVAX.
    pub circulating_supply: String,
    /// The AVAX in existence: the genesis's, plus rewards minted, less burned.
    pub total_supply: String,
    /// Burned on the P-Chain: txs' burns and L1 validators' continuous fees.
    #[serde(rename = "totalPBurned")]
    pub total_p_burned: String,
    /// Burned on the C-Chain.
    #[serde(rename = "totalCBurned")]
    pub total_c_burned: String,
    /// Burned on the X-Chain.
    #[serde(rename = "totalXBurned")]
    pub total_x_burned: String,
    /// Staked.
    pub total_staked: String,
    /// Locked.
    pub total_locked: String,
    /// Staking rewards minted.
    pub total_rewards: String,
    /// When the figures were taken (RFC 3339, UTC).
    pub last_updated: String,
    /// The genesis's supply.
    pub genesis_unlock: String,
    /// L1 validators' continuous fees paid.
    #[serde(rename = "l1ValidatorFees")]
    pub l1_validator_fees: String,
}

/// `n` nAVAX as AVAX in decimal: the whole part, then the nine decimals without trailing
/// zeros (`1500000000` is `"1.5"`, `2000000000` is `"2"`).
pub fn avax_decimal(n: u128) -> String {
    let (whole, frac) = (n / 1_000_000_000, n % 1_000_000_000);
    if frac == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{frac:09}")
            .trim_end_matches('0')
            .to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_avax_decimals() {
        assert_eq!(avax_decimal(0), "0");
        assert_eq!(avax_decimal(1), "0.000000001");
        assert_eq!(avax_decimal(1_500_000_000), "1.5");
        assert_eq!(avax_decimal(360_000_000_000_000_000), "360000000");
        assert_eq!(avax_decimal(15_039_562_266_619), "15039.562266619");
    }

    /// Every member the OpenAPI's `AvaxSupplyResponse` requires, under its name.
    #[test]
    fn members_are_the_schemas() {
        let r = AvaxSupplyResponse {
            circulating_supply: "1".into(),
            total_supply: "1".into(),
            total_p_burned: "1".into(),
            total_c_burned: "1".into(),
            total_x_burned: "1".into(),
            total_staked: "1".into(),
            total_locked: "1".into(),
            total_rewards: "1".into(),
            last_updated: "2025-11-05T20:15:15.000Z".into(),
            genesis_unlock: "1".into(),
            l1_validator_fees: "1".into(),
        };
        let v = serde_json::to_value(&r).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "circulatingSupply",
                "genesisUnlock",
                "l1ValidatorFees",
                "lastUpdated",
                "totalCBurned",
                "totalLocked",
                "totalPBurned",
                "totalRewards",
                "totalStaked",
                "totalSupply",
                "totalXBurned"
            ]
        );
    }
}
