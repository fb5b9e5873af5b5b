//! From the history's rows to the Data API's X-Chain records: assets with their descriptions,
//! UTXOs with owners as `X-` addresses (the C-Chain's atomic UTXOs the X-Chain holds, as `C-`
//! ones), balances split as `XChainBalances`.

use std::collections::BTreeMap;

use snowline_chain_x::history::rows::output_owners;
use snowline_chain_x::history::{
    AssetInfo, AssetTotal, AssetType as StoredAssetType, Assets, HistoryUtxo, XBalances,
};
use snowline_types::Id;
use snowline_types::address::AddressFormatter;
use snowline_types::avm::Output;
use snowline_types::formatting::encode_hex_checksum;
use snowline_types::rest::{
    AggregatedAssetAmount, AssetAmount, AssetType, SharedAssetBalance, XChainAssetDetails,
    XChainBalances, XUtxo,
};

use super::context::XChainApi;

/// The `XChainAssetDetails` of asset `id`.
pub(crate) fn details(id: &Id, a: &AssetInfo) -> XChainAssetDetails {
    XChainAssetDetails {
        asset_id: id.to_string(),
        name: a.name.clone(),
        symbol: a.symbol.clone(),
        denomination: a.denomination,
        asset_type: match a.asset_type {
            StoredAssetType::Nft => AssetType::Nft,
            StoredAssetType::Secp256k1 => AssetType::Secp256k1,
        },
        created_at_timestamp: a.created_at,
        cap: a.cap.as_str().to_owned(),
    }
}

/// `AssetAmount` of `amount` units of `asset`. An asset the index has no `CreateAssetTx` for
/// (possible only when the chain's genesis was not loaded) is shown with empty name and symbol
/// and denomination 0, rather than failing the whole answer.
pub(crate) fn asset_amount(assets: &Assets, asset: &Id, amount: u128) -> AssetAmount {
    let info = assets.get(asset);
    AssetAmount {
        asset_id: asset.to_string(),
        name: info.map(|i| i.name.clone()).unwrap_or_default(),
        symbol: info.map(|i| i.symbol.clone()).unwrap_or_default(),
        denomination: info.map_or(0, |i| i.denomination),
        asset_type: match info.map(|i| i.asset_type) {
            Some(StoredAssetType::Nft) => AssetType::Nft,
            _ => AssetType::Secp256k1,
        },
        amount: amount.to_string(),
    }
}

/// The `utxoType` of an output: `mint` for mint rights, `transfer` for what can be spent.
fn utxo_type(output: &Output) -> &'static str {
    match output {
        Output::Secp256k1Mint(_) | Output::NftMint(_) | Output::PropertyMint(_) => "mint",
        Output::Secp256k1Transfer(_) | Output::NftTransfer(_) | Output::PropertyOwned(_) => {
            "transfer"
        }
    }
}

/// The `Utxo` record of a UTXO of the X-Chain history, its owners written by `owners` (`X-…` on
/// the X-Chain, `C-…` for the C-Chain's atomic memory).
pub(crate) fn utxo_record(u: &HistoryUtxo, assets: &Assets, owners: &AddressFormatter) -> XUtxo {
    let out = output_owners(&u.utxo.output);
    let (group_id, payload) = match &u.utxo.output {
        Output::NftMint(o) => (Some(o.group_id), None),
        Output::NftTransfer(o) => (Some(o.group_id), Some(hex_plain(&o.payload))),
        _ => (None, None),
    };
    let consumed = u.record.consumed.as_ref();
    XUtxo {
        addresses: out.addrs.iter().map(|a| owners.format(a)).collect(),
        asset: asset_amount(assets, &u.utxo.asset_id, u128::from(u.record.amount)),
        consumed_on_chain_id: u.record.consumed_on.to_string(),
        consuming_tx_hash: consumed.map(|c| c.tx_id.to_string()),
        created_on_chain_id: u.record.created_on.to_string(),
        utxo_id: u.id.to_string(),
        utxo_bytes: Some(encode_hex_checksum(&u.record.bytes)),
        consuming_tx_timestamp: consumed.map(|c| c.timestamp),
        creation_tx_hash: u.record.created.tx_id.to_string(),
        credentials: None,
        group_id,
        locktime: out.locktime,
        output_index: u.utxo.utxo_id.output_index.to_string(),
        payload,
        threshold: out.threshold,
        timestamp: u.record.created.timestamp,
        utxo_type: utxo_type(&u.utxo.output).to_owned(),
    }
}

impl XChainApi {
    /// One `Utxo` record.
    pub(crate) fn utxo_record(&self, u: &HistoryUtxo, assets: &Assets) -> XUtxo {
        utxo_record(u, assets, &self.x_addresses)
    }

    /// `XChainBalances` of summed balances.
    pub(crate) fn balances_record(&self, b: &XBalances, assets: &Assets) -> XChainBalances {
        let plain = |m: &BTreeMap<Id, AssetTotal>| {
            m.iter()
                .map(|(asset, t)| AggregatedAssetAmount {
                    asset: asset_amount(assets, asset, t.amount),
                    utxo_count: t.utxo_count,
                })
                .collect()
        };
        let shared = |m: &BTreeMap<(Id, Id), AssetTotal>| {
            m.iter()
                .map(|((chain, asset), t)| SharedAssetBalance {
                    asset: asset_amount(assets, asset, t.amount),
                    utxo_count: t.utxo_count,
                    shared_with_chain_id: chain.to_string(),
                })
                .collect()
        };
        XChainBalances {
            locked: plain(&b.locked),
            unlocked: plain(&b.unlocked),
            atomic_memory_unlocked: shared(&b.atomic_unlocked),
            atomic_memory_locked: shared(&b.atomic_locked),
        }
    }
}

fn hex_plain(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    s.push_str(&hex::encode(bytes));
    s
}
