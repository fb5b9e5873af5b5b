//! `getUTXOs`, `getBalance` and `getAllBalances` (avalanchego `vms/avm/service.go`,
//! `vms/components/avax/utxo_fetching.go`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;
use snowline_jsonrpc::{JsonU64, RequestContext, RpcError, Service};
use snowline_types::avm::{Output, Utxo};
use snowline_types::{Id, ShortId};

use super::args::{AllBalancesArgs, BalanceArgs, UtxosArgs};
use super::{Ctx, MAX_GET_UTXOS_ADDRS, MAX_PAGE_SIZE, NO_ADDRESSES, internal};
use crate::Compat;

#[derive(Debug, Serialize)]
struct EndIndex {
    address: String,
    utxo: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct UtxosReply {
    num_fetched: JsonU64,
    utxos: Vec<String>,
    end_index: EndIndex,
    #[serde(skip_serializing_if = "Option::is_none")]
    source_chain: Option<String>,
    encoding: &'static str,
}

#[derive(Debug, Serialize)]
struct UtxoIdJson {
    #[serde(rename = "txID")]
    tx_id: Id,
    #[serde(rename = "outputIndex")]
    output_index: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct BalanceReply {
    balance: JsonU64,
    #[serde(rename = "utxoIDs")]
    utxo_ids: Vec<UtxoIdJson>,
}

#[derive(Debug, Serialize)]
struct BalanceJson {
    asset: String,
    balance: JsonU64,
}

#[derive(Debug, Serialize)]
struct AllBalancesReply {
    balances: Vec<BalanceJson>,
}

/// Registers the three UTXO methods.
pub(crate) fn register(svc: Service, ctx: &Arc<Ctx>) -> Service {
    let (c1, c2, c3) = (Arc::clone(ctx), Arc::clone(ctx), Arc::clone(ctx));
    svc.method("getUTXOs", move |_: &RequestContext, a: UtxosArgs| {
        get_utxos(&c1, a)
    })
    .method("getBalance", move |_: &RequestContext, a: BalanceArgs| {
        get_balance(&c2, a)
    })
    .method(
        "getAllBalances",
        move |_: &RequestContext, a: AllBalancesArgs| get_all_balances(&c3, a),
    )
}

fn get_utxos(ctx: &Ctx, a: UtxosArgs) -> Result<UtxosReply, RpcError> {
    if a.addresses.is_empty() {
        return Err(RpcError::server(NO_ADDRESSES));
    }
    if a.addresses.len() > MAX_GET_UTXOS_ADDRS {
        return Err(RpcError::server(format!(
            "number of addresses given, {}, exceeds maximum, {MAX_GET_UTXOS_ADDRS}",
            a.addresses.len()
        )));
    }
    let x = ctx.cfg.network.x_chain_id;
    let source = if a.source_chain.is_empty() {
        x
    } else {
        ctx.lookup_chain(&a.source_chain)?
    };
    let mut addrs = BTreeSet::new();
    for s in &a.addresses {
        addrs.insert(ctx.addrs.parse_service(s).map_err(RpcError::server)?);
    }
    let (mut start_addr, mut start_utxo) = (ShortId::EMPTY, Id::EMPTY);
    if !a.start_index.address.is_empty() || !a.start_index.utxo.is_empty() {
        start_addr = ctx
            .addrs
            .parse_service(&a.start_index.address)
            .map_err(|e| {
                RpcError::server(format!(
                    "couldn't parse start index address {:?}: {e}",
                    a.start_index.address
                ))
            })?;
        start_utxo = a
            .start_index
            .utxo
            .parse()
            .map_err(|e| RpcError::server(format!("couldn't parse start index utxo: {e}")))?;
    }
    let limit = match usize::try_from(a.limit.0) {
        Ok(0) | Err(_) => MAX_PAGE_SIZE,
        Ok(n) => n.min(MAX_PAGE_SIZE),
    };
    let reader = ctx.state.reader();
    let page = if source == x {
        reader.paginate(&addrs, start_addr, start_utxo, limit)
    } else {
        reader.paginate_atomic(&source, &addrs, start_addr, start_utxo, limit)
    }
    .map_err(|e| RpcError::server(format!("problem retrieving UTXOs: {e}")))?;
    let mut utxos = Vec::with_capacity(page.utxos.len());
    for (id, bytes) in &page.utxos {
        utxos.push(
            a.encoding.encode_bytes(bytes).map_err(|e| {
                RpcError::server(format!("couldn't encode UTXO {id} as string: {e}"))
            })?,
        );
    }
    let source_chain = match ctx.cfg.compat {
        Compat::Spec if !a.source_chain.is_empty() => Some(a.source_chain.clone()),
        _ => None,
    };
    Ok(UtxosReply {
        num_fetched: JsonU64(u64::try_from(utxos.len()).unwrap_or(u64::MAX)),
        utxos,
        end_index: EndIndex {
            address: ctx.addrs.format(&page.end_address),
            utxo: page.end_utxo.to_string(),
        },
        source_chain,
        encoding: a.encoding.name(),
    })
}

/// avalanchego `lookupAssetID`: an alias, else a cb58 id, else `asset '…' not found`.
pub(crate) fn lookup_asset(ctx: &Ctx, s: &str) -> Result<Id, RpcError> {
    let reader = ctx.state.reader();
    if let Some(id) = reader.asset_by_alias(s).map_err(internal)? {
        return Ok(id);
    }
    s.parse::<Id>()
        .map_err(|_| RpcError::server(format!("asset '{s}' not found")))
}

/// The amount a UTXO counts for in a balance: secp256k1fx transfer outputs only, and without
/// `include_partial` only 1-of-1 owners whose locktime has passed.
fn counted(utxo: &Utxo, include_partial: bool, now: u64) -> Option<u64> {
    let Output::Secp256k1Transfer(t) = &utxo.output else {
        return None;
    };
    if !include_partial && (t.owners.addrs.len() != 1 || t.owners.locktime > now) {
        return None;
    }
    Some(t.amount)
}

fn get_balance(ctx: &Ctx, a: BalanceArgs) -> Result<BalanceReply, RpcError> {
    let addr = ctx
        .addrs
        .parse_service(&a.address)
        .map_err(|e| RpcError::server(format!("problem parsing address '{}': {e}", a.address)))?;
    let asset = lookup_asset(ctx, &a.asset_id)?;
    let utxos = ctx
        .state
        .reader()
        .all_utxos(&addr)
        .map_err(|e| RpcError::server(format!("problem retrieving UTXOs: {e}")))?;
    let now = (ctx.cfg.clock)();
    let mut balance = 0u64;
    let mut ids = Vec::new();
    for u in utxos.iter().filter(|u| u.asset_id == asset) {
        if let Some(amount) = counted(u, a.include_partial, now) {
            balance = balance
                .checked_add(amount)
                .ok_or_else(|| RpcError::server("overflow"))?;
            ids.push(UtxoIdJson {
                tx_id: u.utxo_id.tx_id,
                output_index: u.utxo_id.output_index,
            });
        }
    }
    Ok(BalanceReply {
        balance: JsonU64(balance),
        utxo_ids: ids,
    })
}

fn get_all_balances(ctx: &Ctx, a: AllBalancesArgs) -> Result<AllBalancesReply, RpcError> {
    let addr = ctx
        .addrs
        .parse_service(&a.address)
        .map_err(|e| RpcError::server(format!("problem parsing address '{}': {e}", a.address)))?;
    let reader = ctx.state.reader();
    let utxos = reader
        .all_utxos(&addr)
        .map_err(|e| RpcError::server(format!("couldn't get address's UTXOs: {e}")))?;
    let now = (ctx.cfg.clock)();
    let mut balances: BTreeMap<Id, u64> = BTreeMap::new();
    for u in &utxos {
        if let Some(amount) = counted(u, a.include_partial, now) {
            let b = balances.entry(u.asset_id).or_insert(0);
            *b = b.checked_add(amount).unwrap_or(u64::MAX);
        }
    }
    let mut out = Vec::with_capacity(balances.len());
    for (asset, balance) in balances {
        let name = reader
            .primary_alias(&asset)
            .map_err(internal)?
            .unwrap_or_else(|| asset.to_string());
        out.push(BalanceJson {
            asset: name,
            balance: JsonU64(balance),
        });
    }
    Ok(AllBalancesReply { balances: out })
}
