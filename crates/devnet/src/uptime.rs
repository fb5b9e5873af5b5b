//! What the devnet's node says of the primary network's current validators, as
//! `platform.getCurrentValidators` answers (avalanchego `vms/platformvm/service.md`): each
//! validator of the P-Chain's state now, with an uptime and a connection state that are a
//! function of the seed and the staker tx alone, so every run and every reader agrees on them.
//! Uptimes spread from 60 % to 100 % (one validator in eight below 80 %), one validator in
//! eight is disconnected (`docs/devnet.md`, "Uptimes").

use snowline_types::Id;
use snowline_types::hashing::sha256;
use snowline_types::json_uint::JsonU64;
use snowline_types::platformvm::current_validators::{
    CurrentValidator, GetCurrentValidatorsReply, Uptime,
};

use crate::generator::Devnet;

/// The uptime and connection state the devnet's node reports for the validation of staker tx
/// `tx_id`: from `h = sha256("snowline/devnet/uptime/v1" ‖ seed ‖ tx_id)`, the uptime is
/// `100 % − (u32_be(h[0..4]) mod 200 001) / 10 000 %` (80 % to 100 %), lowered by a further
/// 20 % when `h[4] mod 8 = 0`; the node is disconnected when `h[5] mod 8 = 0`.
pub fn observed(seed: u64, tx_id: &Id) -> (Uptime, bool) {
    let mut pre = b"snowline/devnet/uptime/v1".to_vec();
    pre.extend_from_slice(&seed.to_be_bytes());
    pre.extend_from_slice(tx_id.as_ref());
    let h = sha256(&pre);
    let spread = u32::from_be_bytes([h[0], h[1], h[2], h[3]]) % 200_001;
    let low = if h[4] % 8 == 0 { 200_000 } else { 0 };
    let uptime = Uptime(Uptime::FULL.0 - spread - low);
    (uptime, h[5] % 8 != 0)
}

impl Devnet {
    /// `platform.getCurrentValidators` of the primary network as the devnet's node answers it
    /// now: the current validators (by staker tx id) with [`observed`] uptimes.
    pub fn current_validators(&self) -> GetCurrentValidatorsReply {
        let seed = self.config().seed;
        let mut validators: Vec<CurrentValidator> = self
            .p_current_validators()
            .into_iter()
            .map(|(tx_id, v)| {
                let (uptime, connected) = observed(seed, &tx_id);
                CurrentValidator {
                    tx_id,
                    start_time: JsonU64(v.start),
                    end_time: JsonU64(v.end),
                    weight: Some(JsonU64(v.weight)),
                    node_id: v.node_id,
                    uptime: Some(uptime),
                    connected: Some(connected),
                }
            })
            .collect();
        validators.sort_by_key(|v| v.tx_id);
        GetCurrentValidatorsReply { validators }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observations_are_deterministic_and_spread() {
        let ids: Vec<Id> = (0u8..64).map(|i| Id([i; 32])).collect();
        let seen: Vec<(Uptime, bool)> = ids.iter().map(|id| observed(1, id)).collect();
        assert_eq!(
            seen,
            ids.iter().map(|id| observed(1, id)).collect::<Vec<_>>()
        );
        assert_ne!(
            seen,
            ids.iter().map(|id| observed(2, id)).collect::<Vec<_>>()
        );
        assert!(
            seen.iter()
                .all(|(u, _)| (600_000..=1_000_000).contains(&u.0))
        );
        assert!(seen.iter().any(|(u, _)| u.0 < 800_000));
        assert!(seen.iter().any(|(_, c)| !c) && seen.iter().any(|(_, c)| *c));
    }
}
