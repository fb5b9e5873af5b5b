//! `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}` and
//! `.../transactions` for the X-Chain: the `XChainLinearTransaction` (a block's tx) or
//! `XChainNonLinearTransaction` (a DAG tx, with its vertices) of a tx, and the
//! `ListXChainTransactionsResponse` of an address history or of the chain's latest txs.

use std::collections::BTreeMap;

use snowline_chain_x::history::{Assets, HistoryUtxo, XTx, XTxPlace, XTxQuery, tx_type};
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::avm::UnsignedTx;
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::{
    AssetAmount, ListXChainTransactionsResponse, PrimaryChainInfo, TransactionVertexDetail,
    XChainTransaction,
};
use snowline_types::{Chain, Id};

use super::context::{XChainApi, page_error};
use super::render::asset_amount;
use crate::params::{bad, page_token};
use crate::primary::tx_params::TxListParams;

/// The X-Chain's values of `PrimaryNetworkTxType` (`XChainTransactionType`).
pub(crate) const X_TX_TYPES: [&str; 6] = [
    "BaseTx",
    "CreateAssetTx",
    "OperationTx",
    "ImportTx",
    "ExportTx",
    "UNKNOWN",
];

/// `getTxByHash` on the X-Chain.
pub(crate) fn by_hash(api: &XChainApi, req: &Request) -> Result<Reply, ApiError> {
    let id = cb58_id("txHash", req.required_param("txHash")?).map_err(bad)?;
    match api.pages.tx_details(&id).map_err(page_error)? {
        Some(tx) => Reply::json(&api.tx_record(&tx)),
        None => Err(ApiError::not_found(format!(
            "tx {id} is not an accepted X-Chain tx"
        ))),
    }
}

/// `listLatestPrimaryNetworkTransactions` on the X-Chain.
pub(crate) fn list(
    api: &XChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let params = TxListParams::parse(req, api.network, Chain::X, &X_TX_TYPES)?;
    let digest = params.digest("x-chain/transactions", api.network.name);
    let from = page_token(&api.tokens, req, &digest)?;
    let q = XTxQuery {
        addresses: params
            .addresses
            .as_ref()
            .map(|a| a.ids.clone())
            .unwrap_or_default(),
        asset: None,
        types: params.types.clone(),
        range: params.range,
        page_size: params.page_size,
        sort: params.sort,
    };
    let page = api.pages.txs(&q, from.as_deref()).map_err(page_error)?;
    Reply::json(&ListXChainTransactionsResponse {
        next_page_token: page.next.map(|p| api.tokens.encode(&digest, &p, None)),
        transactions: page.txs.iter().map(|t| api.tx_record(t)).collect(),
        chain_info,
    })
}

/// The amounts of `utxos` by asset.
fn sums(utxos: &[HistoryUtxo], assets: &Assets) -> Vec<AssetAmount> {
    let mut by_asset: BTreeMap<Id, u128> = BTreeMap::new();
    for u in utxos {
        *by_asset.entry(u.utxo.asset_id).or_default() += u128::from(u.record.amount);
    }
    by_asset
        .iter()
        .map(|(asset, amount)| asset_amount(assets, asset, *amount))
        .collect()
}

impl XChainApi {
    /// The record of `t`.
    pub(crate) fn tx_record(&self, t: &XTx) -> XChainTransaction {
        let (linear, block_height, block_hash, vertices) = match &t.place {
            XTxPlace::Block { height, id } => (true, Some(*height), Some(id.to_string()), None),
            XTxPlace::Vertices(vs) => (
                false,
                None,
                None,
                Some(
                    vs.iter()
                        .map(|(id, height, ts)| TransactionVertexDetail {
                            hash: id.to_string(),
                            height: *height,
                            timestamp: *ts,
                        })
                        .collect(),
                ),
            ),
        };
        XChainTransaction {
            tx_hash: t.id.to_string(),
            chain_format: if linear { "linear" } else { "non-linear" }.to_owned(),
            timestamp: t.row.timestamp,
            tx_type: tx_type(&t.tx).to_owned(),
            memo: encode_hex_plain(&t.tx.base().memo),
            consumed_utxos: t
                .consumed
                .iter()
                .map(|u| self.utxo_record(u, &t.assets))
                .collect(),
            emitted_utxos: t
                .emitted
                .iter()
                .map(|u| self.utxo_record(u, &t.assets))
                .collect(),
            amount_unlocked: sums(&t.consumed, &t.assets),
            amount_created: sums(&t.emitted, &t.assets),
            source_chain: match &t.tx {
                UnsignedTx::Import(i) => Some(i.source_chain.to_string()),
                _ => None,
            },
            destination_chain: match &t.tx {
                UnsignedTx::Export(e) => Some(e.destination_chain.to_string()),
                _ => None,
            },
            asset_created: t
                .created_asset
                .as_ref()
                .map(|a| super::render::details(&t.id, a)),
            block_height,
            block_hash,
            vertices,
        }
    }
}
