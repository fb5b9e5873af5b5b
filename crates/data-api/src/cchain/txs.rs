//! `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}` and
//! `.../transactions` for the C-Chain: its atomic `ImportTx`s and `ExportTx`s as
//! `CChainImportTransaction` / `CChainExportTransaction`, by id, newest (or oldest) first, or of
//! a set of addresses: bech32 owners of the UTXOs they move (the X-Chain history's side and the
//! P-Chain's, merged past one position as the C-Chain's UTXO listing is) and EVM addresses
//! (`0x…`) they credit or debit. Each tx's UTXOs come from the chain they moved through.

use std::collections::{BTreeMap, HashMap};

use snowline_chain_p::pages::PUtxo;
use snowline_chain_x::history::{CTx, CTxQuery, HistoryUtxo};
use snowline_query::merge_pages;
use snowline_query::params::cb58_id;
use snowline_rest_api::{ApiError, Reply, Request};
use snowline_types::coreth::{self, TransferableIn};
use snowline_types::formatting::encode_hex_plain;
use snowline_types::rest::{
    AssetAmount, CChainAtomicTransaction, EvmInputRecord, EvmOutputRecord,
    ListCChainAtomicTransactionsResponse, PrimaryChainInfo, UtxoCredential, XUtxo,
    evm_address_string,
};
use snowline_types::{Chain, Id};

use super::context::CChainApi;
use super::utxos::{SharedUtxo, read_position, write_position};
use crate::params::{bad, page_token};
use crate::primary::tx_params::TxListParams;
use crate::{pchain, xchain};

/// The C-Chain's values of `PrimaryNetworkTxType`: its atomic txs.
pub(crate) const C_TX_TYPES: [&str; 2] = ["ImportTx", "ExportTx"];

/// `getTxByHash` on the C-Chain.
pub(crate) fn by_hash(api: &CChainApi, req: &Request) -> Result<Reply, ApiError> {
    let id = cb58_id("txHash", req.required_param("txHash")?).map_err(bad)?;
    let Some(tx) = api.x.c_tx(&id).map_err(xchain::page_error)? else {
        return Err(ApiError::not_found(format!(
            "tx {id} is not an accepted C-Chain atomic tx"
        )));
    };
    let p = api.p_utxos(std::slice::from_ref(&tx))?;
    Reply::json(&api.c_tx_record(&tx, &p))
}

/// `listLatestPrimaryNetworkTransactions` on the C-Chain.
pub(crate) fn list(
    api: &CChainApi,
    req: &Request,
    chain_info: PrimaryChainInfo,
) -> Result<Reply, ApiError> {
    let params = TxListParams::parse(req, api.network, Chain::C, &C_TX_TYPES)?;
    let digest = params.digest("c-chain/transactions", api.network.name);
    let from = page_token(&api.tokens, req, &digest)?
        .map(|bytes| read_position(&bytes))
        .transpose()?;
    let owners = params
        .addresses
        .as_ref()
        .map(|a| a.ids.clone())
        .unwrap_or_default();
    let q = CTxQuery {
        owners: owners.clone(),
        evm: params.evm.clone(),
        all: params.addresses.is_none() && params.evm.is_empty(),
        types: params.types.clone(),
        range: params.range,
        page_size: params.page_size,
        sort: params.sort,
    };
    let mut halves = vec![api.x.c_tx_positions(&q, from).map_err(xchain::page_error)?];
    if !owners.is_empty() {
        let kinds = (
            q.types.is_empty() || q.types.contains("ImportTx"),
            q.types.is_empty() || q.types.contains("ExportTx"),
        );
        let p = api
            .p
            .c_tx_positions(&owners, kinds, q.range, q.sort, q.page_size, from)
            .map_err(pchain::page_error)?;
        halves.push(p);
    }
    let page = merge_pages(halves, q.page_size, q.sort);
    let ids: Vec<Id> = page.items.iter().map(|((_, id), ())| *id).collect();
    let txs = api.x.c_txs(&ids).map_err(xchain::page_error)?;
    let p = api.p_utxos(&txs)?;
    Reply::json(&ListCChainAtomicTransactionsResponse {
        next_page_token: page
            .next
            .map(|at| api.tokens.encode(&digest, &write_position(at), None)),
        transactions: txs.iter().map(|t| api.c_tx_record(t, &p)).collect(),
        chain_info,
    })
}

/// The amounts of `(asset, amount)` pairs, summed by asset.
fn sums(api: &CChainApi, tx: &CTx, amounts: impl Iterator<Item = (Id, u64)>) -> Vec<AssetAmount> {
    let mut by_asset: BTreeMap<Id, u128> = BTreeMap::new();
    for (asset, amount) in amounts {
        *by_asset.entry(asset).or_default() += u128::from(amount);
    }
    by_asset
        .into_iter()
        .map(|(asset, amount)| api.asset_amount(&tx.assets, &asset, amount))
        .collect()
}

/// The credential of input `i` of `tx`, as `UtxoCredential`s.
fn credentials(tx: &CTx, unsigned: &[u8], i: usize) -> Vec<UtxoCredential> {
    match tx.tx.credentials.get(i) {
        Some(coreth::Credential::Secp256k1(c)) => c
            .sigs
            .iter()
            .map(|sig| UtxoCredential::of_signature(unsigned, sig))
            .collect(),
        None => Vec::new(),
    }
}

impl CChainApi {
    /// The UTXOs the P-Chain holds among those `txs` moved through its shared memory.
    fn p_utxos(&self, txs: &[CTx]) -> Result<HashMap<Id, PUtxo>, ApiError> {
        let p_chain = self.network.p_chain_id;
        let ids: Vec<Id> = txs
            .iter()
            .filter(|t| match &t.tx.unsigned {
                coreth::UnsignedTx::Import(i) => i.source_chain == p_chain,
                coreth::UnsignedTx::Export(e) => e.destination_chain == p_chain,
            })
            .flat_map(CTx::utxo_ids)
            .collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        Ok(self
            .p
            .utxos_by_id(&ids)
            .map_err(pchain::page_error)?
            .into_iter()
            .map(|u| (u.id, u))
            .collect())
    }

    /// The `Utxo` records of the UTXOs `ids` of `tx`, in order, from the chain holding each
    /// (an import derived before its export has none yet).
    fn moved_utxos(&self, tx: &CTx, p: &HashMap<Id, PUtxo>) -> Vec<XUtxo> {
        let x: HashMap<Id, &HistoryUtxo> = tx.x_utxos.iter().map(|u| (u.id, u)).collect();
        tx.utxo_ids()
            .iter()
            .filter_map(|id| match (x.get(id), p.get(id)) {
                (Some(u), _) => Some(SharedUtxo::X((*u).clone())),
                (None, Some(u)) => Some(SharedUtxo::P(u.clone())),
                (None, None) => None,
            })
            .map(|u| self.utxo_record(&u, &tx.assets))
            .collect()
    }

    /// The `CChainImportTransaction` or `CChainExportTransaction` of `tx`; `p` holds the UTXOs
    /// the P-Chain keeps of it.
    fn c_tx_record(&self, tx: &CTx, p: &HashMap<Id, PUtxo>) -> CChainAtomicTransaction {
        let unsigned = tx.tx.unsigned_bytes();
        let c_chain = self.network.c_chain_id.to_string();
        let mut record = CChainAtomicTransaction {
            tx_hash: tx.id.to_string(),
            block_height: tx.block_number,
            block_hash: encode_hex_plain(&tx.block_hash),
            timestamp: tx.timestamp,
            memo: encode_hex_plain(&[]),
            amount_unlocked: Vec::new(),
            amount_created: Vec::new(),
            source_chain: c_chain.clone(),
            destination_chain: c_chain,
            tx_type: String::new(),
            evm_inputs: None,
            emitted_utxos: None,
            evm_outputs: None,
            consumed_utxos: None,
        };
        match &tx.tx.unsigned {
            coreth::UnsignedTx::Import(i) => {
                record.tx_type = "ImportTx".to_owned();
                record.source_chain = i.source_chain.to_string();
                record.amount_unlocked = sums(
                    self,
                    tx,
                    i.imported_inputs.iter().map(|t| {
                        let TransferableIn::Secp256k1(input) = &t.input;
                        (t.asset_id, input.amount)
                    }),
                );
                record.amount_created =
                    sums(self, tx, i.outs.iter().map(|o| (o.asset_id, o.amount)));
                record.evm_outputs = Some(
                    i.outs
                        .iter()
                        .map(|o| EvmOutputRecord {
                            to_address: evm_address_string(&o.address),
                            asset: self.asset_amount(&tx.assets, &o.asset_id, o.amount.into()),
                        })
                        .collect(),
                );
                let mut consumed = self.moved_utxos(tx, p);
                for u in &mut consumed {
                    let input = i
                        .imported_inputs
                        .iter()
                        .position(|t| t.utxo_id.id().to_string() == u.utxo_id);
                    if let Some(at) = input {
                        u.credentials = Some(credentials(tx, &unsigned, at));
                    }
                }
                record.consumed_utxos = Some(consumed);
            }
            coreth::UnsignedTx::Export(e) => {
                record.tx_type = "ExportTx".to_owned();
                record.destination_chain = e.destination_chain.to_string();
                record.amount_unlocked =
                    sums(self, tx, e.ins.iter().map(|t| (t.asset_id, t.amount)));
                record.amount_created = sums(
                    self,
                    tx,
                    e.exported_outputs.iter().map(|o| {
                        let coreth::TransferableOut::Secp256k1(out) = &o.output;
                        (o.asset_id, out.amount)
                    }),
                );
                record.evm_inputs = Some(
                    e.ins
                        .iter()
                        .enumerate()
                        .map(|(at, t)| EvmInputRecord {
                            from_address: evm_address_string(&t.address),
                            asset: self.asset_amount(&tx.assets, &t.asset_id, t.amount.into()),
                            credentials: credentials(tx, &unsigned, at),
                        })
                        .collect(),
                );
                record.emitted_utxos = Some(self.moved_utxos(tx, p));
            }
        }
        record
    }
}
