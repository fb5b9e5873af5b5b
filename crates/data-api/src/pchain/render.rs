//! From the P-Chain's rows to the Data API's `PChainUtxo`.

use snowline_chain_p::pages::PUtxo;
use snowline_types::formatting::encode_hex_checksum;
use snowline_types::rest::PChainUtxo;

use super::context::PChainApi;

impl PChainApi {
    /// One `PChainUtxo` record; `now` (Unix seconds) says whether a stake is still staked.
    pub(crate) fn utxo_record(&self, u: &PUtxo, now: u64) -> PChainUtxo {
        let owners = u.utxo.output.owners();
        let row = &u.row;
        let consumed = row.consumed.as_ref();
        let stakeable = u.utxo.output.stakeable_locktime();
        PChainUtxo {
            addresses: self.addresses(&owners.addrs),
            asset: self.asset_amount(&u.utxo.asset_id, u128::from(row.amount)),
            consumed_on_chain_id: row.consumed_on.to_string(),
            consuming_tx_hash: consumed.map(|c| c.tx_id.to_string()),
            created_on_chain_id: row.created_on.to_string(),
            utxo_id: u.id.to_string(),
            utxo_bytes: Some(encode_hex_checksum(&row.bytes)),
            amount: row.amount.to_string(),
            asset_id: u.utxo.asset_id.to_string(),
            block_number: row.created.height.to_string(),
            block_timestamp: row.created.timestamp,
            consuming_block_number: consumed.map(|c| c.height.to_string()),
            consuming_block_timestamp: consumed.map(|c| c.timestamp),
            platform_locktime: Some(owners.locktime),
            output_index: u64::from(u.utxo.utxo_id.output_index),
            reward_type: row.origin.reward_type().map(str::to_owned),
            stakeable_locktime: (stakeable > 0).then_some(stakeable),
            staked: Some(row.staked_at(now)),
            threshold: owners.threshold,
            tx_hash: match row.staker {
                Some((staker, ..)) => staker.to_string(),
                None => row.created.tx_id.to_string(),
            },
            utxo_start_timestamp: row.staker.map(|(_, start, _)| start),
            utxo_end_timestamp: row.staker.map(|(_, _, end)| end),
            utxo_type: row.origin.utxo_type().to_owned(),
        }
    }
}
