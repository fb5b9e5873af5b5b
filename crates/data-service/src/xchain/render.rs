//! From the history's rows to the Data API's X-Chain records: assets with their descriptions,
//! UTXOs with owners as `X-` addresses, balances split as `XChainBalances`.

use std::collections::HashMap;

use snowline_indexer::history::rows::output_owners;
use snowline_indexer::history::{AssetInfo, AssetTotal, HistoryUtxo, XBalances, XHistoryReader};
use snowline_rest_api::ApiError;
use snowline_store::ReadView;
use snowline_types::Id;
use snowline_types::avm::Output;
use snowline_types::formatting::encode_hex_checksum;
use snowline_types::rest::{
    AggregatedAssetAmount, AssetAmount, AssetType, SharedAssetBalance, XChainBalances, XUtxo,
};

use super::context::{XChainApi, internal};

/// Asset descriptions looked up once per request.
pub(crate) struct Assets<'r, 'v, V: ReadView> {
    reader: &'r XHistoryReader<'v, V>,
    known: HashMap<Id, Option<AssetInfo>>,
}

impl<'r, 'v, V: ReadView> Assets<'r, 'v, V> {
    pub(crate) fn new(reader: &'r XHistoryReader<'v, V>) -> Self {
        Self {
            reader,
            known: HashMap::new(),
        }
    }

    /// `AssetAmount` of `amount` units of `asset`. An asset the index has no `CreateAssetTx`
    /// for (possible only when the chain's genesis was not loaded) is shown with empty name and
    /// symbol and denomination 0, rather than failing the whole answer.
    pub(crate) fn amount(&mut self, asset: &Id, amount: u128) -> Result<AssetAmount, ApiError> {
        if !self.known.contains_key(asset) {
            let info = self.reader.asset(asset).map_err(internal)?;
            self.known.insert(*asset, info);
        }
        let info = self.known.get(asset).and_then(Option::as_ref);
        Ok(AssetAmount {
            asset_id: asset.to_string(),
            name: info.map(|i| i.name.clone()).unwrap_or_default(),
            symbol: info.map(|i| i.symbol.clone()).unwrap_or_default(),
            denomination: info.map_or(0, |i| i.denomination),
            asset_type: match info.map(|i| i.asset_type) {
                Some(snowline_indexer::history::AssetType::Nft) => AssetType::Nft,
                _ => AssetType::Secp256k1,
            },
            amount: amount.to_string(),
        })
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

impl XChainApi {
    /// One `Utxo` record.
    pub(crate) fn utxo_record<V: ReadView>(
        &self,
        u: &HistoryUtxo,
        assets: &mut Assets<'_, '_, V>,
    ) -> Result<XUtxo, ApiError> {
        let owners = output_owners(&u.utxo.output);
        let (group_id, payload) = match &u.utxo.output {
            Output::NftMint(o) => (Some(o.group_id), None),
            Output::NftTransfer(o) => (Some(o.group_id), Some(hex_plain(&o.payload))),
            _ => (None, None),
        };
        let consumed = u.record.consumed.as_ref();
        Ok(XUtxo {
            addresses: owners
                .addrs
                .iter()
                .map(|a| self.x_addresses.format(a))
                .collect(),
            asset: assets.amount(&u.utxo.asset_id, u128::from(u.record.amount))?,
            consumed_on_chain_id: u.record.consumed_on.to_string(),
            consuming_tx_hash: consumed.map(|c| c.tx_id.to_string()),
            created_on_chain_id: u.record.created_on.to_string(),
            utxo_id: u.id.to_string(),
            utxo_bytes: Some(encode_hex_checksum(&u.record.bytes)),
            consuming_tx_timestamp: consumed.map(|c| c.timestamp),
            creation_tx_hash: u.record.created.tx_id.to_string(),
            credentials: None,
            group_id,
            locktime: owners.locktime,
            output_index: u.utxo.utxo_id.output_index.to_string(),
            payload,
            threshold: owners.threshold,
            timestamp: u.record.created.timestamp,
            utxo_type: utxo_type(&u.utxo.output).to_owned(),
        })
    }

    /// `XChainBalances` of summed balances.
    pub(crate) fn balances_record<V: ReadView>(
        &self,
        b: &XBalances,
        assets: &mut Assets<'_, '_, V>,
    ) -> Result<XChainBalances, ApiError> {
        let mut plain = |m: &std::collections::BTreeMap<Id, AssetTotal>| {
            m.iter()
                .map(|(asset, t)| {
                    Ok(AggregatedAssetAmount {
                        asset: assets.amount(asset, t.amount)?,
                        utxo_count: t.utxo_count,
                    })
                })
                .collect::<Result<Vec<_>, ApiError>>()
        };
        let unlocked = plain(&b.unlocked)?;
        let locked = plain(&b.locked)?;
        let mut shared = |m: &std::collections::BTreeMap<(Id, Id), AssetTotal>| {
            m.iter()
                .map(|((chain, asset), t)| {
                    Ok(SharedAssetBalance {
                        asset: assets.amount(asset, t.amount)?,
                        utxo_count: t.utxo_count,
                        shared_with_chain_id: chain.to_string(),
                    })
                })
                .collect::<Result<Vec<_>, ApiError>>()
        };
        Ok(XChainBalances {
            locked,
            unlocked,
            atomic_memory_unlocked: shared(&b.atomic_unlocked)?,
            atomic_memory_locked: shared(&b.atomic_locked)?,
        })
    }
}

fn hex_plain(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 + bytes.len() * 2);
    s.push_str("0x");
    s.push_str(&hex::encode(bytes));
    s
}
