//! Decodes arbitrary bytes as a signed P-Chain tx; on success re-encoding must give the same
//! bytes and the unsigned bytes must be a prefix. Any staker tx that decodes also goes through
//! the reward UTXO helpers, which must not panic and must index after the tx's own outputs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snowline_types::platformvm::reward_utxos::{
    delegator_reward_utxos, returned_stake_utxos, validator_reward_utxos,
};
use snowline_types::platformvm::{RewardBranch, Tx};

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = Tx::parse(data) {
        assert_eq!(p.tx.bytes(), data);
        assert!(data.starts_with(p.unsigned_bytes()));
        assert_eq!(p.tx.id(), p.id);
        let u = &p.tx.unsigned;
        let _ = (u.type_name(), u.data_api_type());
        if let Ok(stake) = returned_stake_utxos(p.id, u) {
            assert_eq!(stake.len(), u.stake().len());
        }
        for branch in [RewardBranch::Commit, RewardBranch::Abort] {
            if let Ok(utxos) = validator_reward_utxos(p.id, u, branch, 1, 1) {
                assert!(
                    utxos
                        .iter()
                        .all(|x| x.utxo.utxo_id.output_index as usize >= u.outputs().len())
                );
            }
            let _ = delegator_reward_utxos(p.id, u, branch, u64::MAX, u, true);
        }
    }
});
