//! `getTx`, `getTxStatus`, `getAssetDescription`, `getTxFee`, `getBlock`, `getBlockByHeight`
//! and `getHeight` (avalanchego `vms/avm/service.go`).

use std::sync::Arc;

use serde::Serialize;
use snowline_jsonrpc::{JsonU64, Params, Reply, RequestContext, RpcError, Service};
use snowline_types::Id;
use snowline_types::avm::{StandardBlock, Tx};
use snowline_types::components::JsonWriter;
use snowline_types::components::json::WriteJson;

use super::args::{AssetArgs, BlockArgs, HeightArgs, NoArgs, TxArgs};
use super::utxos::lookup_asset;
use super::{Ctx, NIL_TX_ID, NOT_CREATE_ASSET, NOT_LINEARIZED, internal};
use crate::index::{Encoding, NOT_FOUND};

#[derive(Debug, Serialize)]
struct StatusReply {
    status: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FeeReply {
    tx_fee: JsonU64,
    create_asset_tx_fee: JsonU64,
}

#[derive(Debug, Serialize)]
struct HeightReply {
    height: JsonU64,
}

#[derive(Debug, Serialize)]
struct AssetReply {
    #[serde(rename = "assetID")]
    asset_id: Id,
    name: String,
    symbol: String,
    denomination: String,
}

/// Registers the seven methods.
pub(crate) fn register(svc: Service, ctx: &Arc<Ctx>) -> Service {
    let c = |f: fn(&Ctx, &Params) -> Result<Reply, RpcError>| {
        let ctx = Arc::clone(ctx);
        move |_: &RequestContext, p: &Params| f(&ctx, p)
    };
    svc.raw_method("getTx", c(get_tx))
        .raw_method("getTxStatus", c(get_tx_status))
        .raw_method("getAssetDescription", c(get_asset_description))
        .raw_method("getTxFee", c(get_tx_fee))
        .raw_method("getBlock", c(get_block))
        .raw_method("getBlockByHeight", c(get_block_by_height))
        .raw_method("getHeight", c(get_height))
}

/// `{"<key>": <value JSON>, "encoding": "<name>"}`.
fn wrap(key: &str, value: &str, encoding: Encoding) -> Reply {
    Reply::from_raw_json(
        format!("{{\"{key}\":{value},\"encoding\":\"{}\"}}", encoding.name()).into_bytes(),
    )
}

fn hex_value(encoding: Encoding, bytes: &[u8]) -> Result<String, RpcError> {
    let s = encoding.encode_bytes(bytes).map_err(RpcError::server)?;
    serde_json::to_string(&s).map_err(RpcError::server)
}

fn get_tx(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let a: TxArgs = p.parse()?;
    let id = a.tx_id.unwrap_or(Id::EMPTY);
    if id == Id::EMPTY {
        return Err(RpcError::server(NIL_TX_ID));
    }
    let bytes = ctx
        .state
        .reader()
        .tx(&id)
        .map_err(internal)?
        .ok_or_else(|| RpcError::server(NOT_FOUND))?;
    let value = if a.encoding == Encoding::Json {
        let tx = Tx::parse(&bytes).map_err(internal)?;
        let mut w = JsonWriter::with_capacity(2048);
        tx.write_json(&mut w, &ctx.json);
        w.into_string()
    } else {
        hex_value(a.encoding, &bytes)?
    };
    Ok(wrap("tx", &value, a.encoding))
}

fn get_tx_status(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let a: TxArgs = p.parse()?;
    let id = a.tx_id.unwrap_or(Id::EMPTY);
    if id == Id::EMPTY {
        return Err(RpcError::server(NIL_TX_ID));
    }
    let known = ctx.state.reader().tx(&id).map_err(internal)?.is_some();
    Reply::json(&StatusReply {
        status: if known { "Accepted" } else { "Unknown" },
    })
}

fn get_asset_description(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let a: AssetArgs = p.parse()?;
    let id = lookup_asset(ctx, &a.asset_id)?;
    let reader = ctx.state.reader();
    let Some(asset) = reader.asset(&id).map_err(internal)? else {
        return Err(match reader.tx(&id).map_err(internal)? {
            Some(_) => RpcError::server(NOT_CREATE_ASSET),
            None => RpcError::server(NOT_FOUND),
        });
    };
    Reply::json(&AssetReply {
        asset_id: id,
        name: asset.name,
        symbol: asset.symbol,
        denomination: asset.denomination.to_string(),
    })
}

fn get_tx_fee(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let _: NoArgs = p.parse()?;
    let fees = ctx.cfg.network.x_fees;
    Reply::json(&FeeReply {
        tx_fee: JsonU64(fees.tx_fee),
        create_asset_tx_fee: JsonU64(fees.create_asset_tx_fee),
    })
}

fn last_height(ctx: &Ctx) -> Result<u64, RpcError> {
    ctx.state
        .reader()
        .height()
        .map_err(internal)?
        .ok_or_else(|| RpcError::server(NOT_LINEARIZED))
}

fn block_reply(ctx: &Ctx, bytes: &[u8], encoding: Encoding) -> Result<Reply, RpcError> {
    let value = if encoding == Encoding::Json {
        let block = StandardBlock::parse(bytes).map_err(internal)?;
        let mut w = JsonWriter::with_capacity(4096);
        block.write_json(&mut w, &ctx.json);
        w.into_string()
    } else {
        hex_value(encoding, bytes)?
    };
    Ok(wrap("block", &value, encoding))
}

fn get_block(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let a: BlockArgs = p.parse()?;
    last_height(ctx)?;
    let id = a.block_id.unwrap_or(Id::EMPTY);
    let reader = ctx.state.reader();
    let not_found = || RpcError::server(format!("couldn't get block with id {id}: {NOT_FOUND}"));
    let height = reader
        .block_height(&id)
        .map_err(internal)?
        .ok_or_else(not_found)?;
    let bytes = reader
        .block_at(height)
        .map_err(internal)?
        .ok_or_else(not_found)?;
    block_reply(ctx, &bytes, a.encoding)
}

fn get_block_by_height(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let a: HeightArgs = p.parse()?;
    last_height(ctx)?;
    let h = a.height.0;
    let bytes = ctx
        .state
        .reader()
        .block_at(h)
        .map_err(internal)?
        .ok_or_else(|| {
            RpcError::server(format!("couldn't get block at height {h}: {NOT_FOUND}"))
        })?;
    block_reply(ctx, &bytes, a.encoding)
}

fn get_height(ctx: &Ctx, p: &Params) -> Result<Reply, RpcError> {
    let _: NoArgs = p.parse()?;
    Reply::json(&HeightReply {
        height: JsonU64(last_height(ctx)?),
    })
}
