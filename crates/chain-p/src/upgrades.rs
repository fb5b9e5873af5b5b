//! The network upgrades whose activation changes what a P-Chain block does, at their times on
//! mainnet and Fuji (avalanchego `upgrade/upgrade.go`); a local network starts with every
//! upgrade active.

use snowline_types::network::{FUJI_ID, MAINNET_ID};

/// Durango on mainnet (2024-03-06 16:00 UTC): from then a staker starts when its tx is accepted,
/// not at the start time it states.
pub const MAINNET_DURANGO_TIME: u64 = 1_709_740_800;
/// Durango on Fuji (2024-02-13 16:00 UTC).
pub const FUJI_DURANGO_TIME: u64 = 1_707_840_000;
/// Etna on mainnet (2024-12-16 17:00 UTC): from then the L1 validators' continuous fee accrues.
pub const MAINNET_ETNA_TIME: u64 = 1_734_368_400;
/// Etna on Fuji (2024-11-25 16:00 UTC).
pub const FUJI_ETNA_TIME: u64 = 1_732_550_400;

fn active(network_id: u32, t: u64, mainnet: u64, fuji: u64) -> bool {
    match network_id {
        MAINNET_ID => t >= mainnet,
        FUJI_ID => t >= fuji,
        _ => true,
    }
}

/// Whether Durango is active at chain time `t` on `network_id`.
pub fn durango(network_id: u32, t: u64) -> bool {
    active(network_id, t, MAINNET_DURANGO_TIME, FUJI_DURANGO_TIME)
}

/// Whether Etna is active at chain time `t` on `network_id`.
pub fn etna(network_id: u32, t: u64) -> bool {
    active(network_id, t, MAINNET_ETNA_TIME, FUJI_ETNA_TIME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_upgrade_go() {
        // time.Date(2024, time.December, 16, 17, 0, 0, 0, time.UTC) and the others, in Unix seconds.
        assert!(!etna(MAINNET_ID, 1_734_368_399) && etna(MAINNET_ID, 1_734_368_400));
        assert!(!etna(FUJI_ID, 1_732_550_399) && etna(FUJI_ID, 1_732_550_400));
        assert!(!durango(MAINNET_ID, 1_709_740_799) && durango(MAINNET_ID, 1_709_740_800));
        assert!(!durango(FUJI_ID, 1_707_839_999) && durango(FUJI_ID, 1_707_840_000));
        assert!(etna(12_345, 0) && durango(12_345, 0));
    }
}
