//! From the two halves of the C-Chain's atomic memory to the Data API's records: `Utxo`s with
//! owners as `C-` addresses, and `CChainAtomicBalances` whose `sharedWithChainId` is the other
//! chain (X or P) of each half.

use std::collections::BTreeMap;

use snowline_chain_p::pages::{AssetTotal, PBalances};
use snowline_chain_x::history::{Assets, BalancesPage};
use snowline_types::Id;
use snowline_types::formatting::encode_hex_checksum;
use snowline_types::rest::{AssetAmount, CChainAtomicBalances, SharedAssetBalance, XUtxo};

use super::context::CChainApi;
use super::utxos::SharedUtxo;
use crate::pchain;
use crate::xchain::render as x_render;

impl CChainApi {
    /// The description of `asset`: the X-Chain's, when its history knows the asset; else the
    /// P-Chain's (AVAX by name, another asset by id).
    pub(crate) fn asset_amount(&self, assets: &Assets, asset: &Id, amount: u128) -> AssetAmount {
        match assets.get(asset) {
            Some(_) => x_render::asset_amount(assets, asset, amount),
            None => pchain::asset_amount(self.network, asset, amount),
        }
    }

    /// One `Utxo` record; `assets` are the X-Chain history's descriptions of the page's assets.
    pub(crate) fn utxo_record(&self, u: &SharedUtxo, assets: &Assets) -> XUtxo {
        let u = match u {
            SharedUtxo::X(u) => {
                let mut record = x_render::utxo_record(u, assets, &self.c_addresses);
                record.asset =
                    self.asset_amount(assets, &u.utxo.asset_id, u128::from(u.record.amount));
                return record;
            }
            SharedUtxo::P(u) => u,
        };
        let owners = u.utxo.output.owners();
        let row = &u.row;
        let consumed = row.consumed.as_ref();
        XUtxo {
            addresses: owners
                .addrs
                .iter()
                .map(|a| self.c_addresses.format(a))
                .collect(),
            asset: self.asset_amount(assets, &u.utxo.asset_id, u128::from(row.amount)),
            consumed_on_chain_id: row.consumed_on.to_string(),
            consuming_tx_hash: consumed.map(|c| c.tx_id.to_string()),
            created_on_chain_id: row.created_on.to_string(),
            utxo_id: u.id.to_string(),
            utxo_bytes: Some(encode_hex_checksum(&row.bytes)),
            consuming_tx_timestamp: consumed.map(|c| c.timestamp),
            creation_tx_hash: row.created.tx_id.to_string(),
            credentials: None,
            group_id: None,
            locktime: owners.locktime,
            output_index: u.utxo.utxo_id.output_index.to_string(),
            payload: None,
            threshold: owners.threshold,
            timestamp: row.created.timestamp,
            // Only secp256k1fx transfers cross between chains.
            utxo_type: "transfer".to_owned(),
        }
    }

    /// `CChainAtomicBalances` of the X-Chain's and the P-Chain's atomic memory shared with the
    /// C-Chain, each entry named by the other chain.
    pub(crate) fn balances_record(&self, x: &BalancesPage, p: &PBalances) -> CChainAtomicBalances {
        let (x_chain, p_chain) = (self.network.x_chain_id, self.network.p_chain_id);
        let mut sums: [BTreeMap<(Id, Id), AssetTotal>; 2] = Default::default();
        for (locked, sum) in sums.iter_mut().enumerate() {
            let locked = locked == 1;
            let x_side = if locked {
                &x.balances.atomic_locked
            } else {
                &x.balances.atomic_unlocked
            };
            for ((_, asset), t) in x_side {
                sum.entry((x_chain, *asset)).or_default().merge(*t);
            }
            // P's exports and its imports-to-be from the C-Chain sum in one entry.
            for (_, _, asset, t) in p.atomic(locked) {
                sum.entry((p_chain, asset)).or_default().merge(t);
            }
        }
        let [unlocked, locked] = sums.map(|sum| {
            sum.into_iter()
                .map(|((chain, asset), t)| SharedAssetBalance {
                    asset: self.asset_amount(&x.assets, &asset, t.amount),
                    utxo_count: t.utxo_count,
                    shared_with_chain_id: chain.to_string(),
                })
                .collect()
        });
        CChainAtomicBalances {
            atomic_memory_unlocked: unlocked,
            atomic_memory_locked: locked,
        }
    }
}
