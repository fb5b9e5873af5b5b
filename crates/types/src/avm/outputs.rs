//! What a tx produces and who owns an output: avalanchego's `utxoGetter`
//! (`vms/avm/txs/visitor.go`) and `Addressable.Addresses()` of each fx output.

use super::{FxOperation, Output, TransferableOut, Tx, UnsignedTx, Utxo};
use crate::components::UtxoId;
use crate::fx::nftfx;
use crate::{Id, ShortId};

/// The UTXOs `tx` (with id `tx_id`) creates on the X-Chain, in output-index order: the base
/// outputs, then `CreateAssetTx` initial-state outputs (asset = the tx id) or the outputs of each
/// operation (`op.Outs()`, asset = the operation's asset). `ExportTx` exported outputs go to the
/// destination chain's shared memory and are not included.
pub fn produced_utxos(tx: &Tx, tx_id: &Id) -> Vec<Utxo> {
    let base = tx.unsigned.base();
    let mut out: Vec<Utxo> = Vec::with_capacity(base.outputs.len());
    let push = |out: &mut Vec<Utxo>, asset_id: Id, output: Output| {
        let index = u32::try_from(out.len()).unwrap_or(u32::MAX);
        out.push(Utxo {
            utxo_id: UtxoId::new(*tx_id, index),
            asset_id,
            output,
        });
    };
    for o in &base.outputs {
        let output = match &o.output {
            TransferableOut::Secp256k1(t) => Output::Secp256k1Transfer(t.clone()),
        };
        push(&mut out, o.asset_id, output);
    }
    match &tx.unsigned {
        UnsignedTx::CreateAsset(c) => {
            for state in &c.states {
                for o in &state.outputs {
                    push(&mut out, *tx_id, o.clone());
                }
            }
        }
        UnsignedTx::Operation(t) => {
            for op in &t.operations {
                for o in operation_outputs(&op.op) {
                    push(&mut out, op.asset_id, o);
                }
            }
        }
        UnsignedTx::Base(_) | UnsignedTx::Import(_) | UnsignedTx::Export(_) => {}
    }
    out
}

/// `FxOperation.Outs()` of each fx (`secp256k1fx/mint_operation.go`, `nftfx/mint_operation.go`,
/// `nftfx/transfer_operation.go`, `propertyfx/{mint,burn}_operation.go`).
pub fn operation_outputs(op: &FxOperation) -> Vec<Output> {
    match op {
        FxOperation::Secp256k1Mint(m) => vec![
            Output::Secp256k1Mint(m.mint_output.clone()),
            Output::Secp256k1Transfer(m.transfer_output.clone()),
        ],
        FxOperation::NftMint(m) => m
            .outputs
            .iter()
            .map(|owners| {
                Output::NftTransfer(nftfx::TransferOutput {
                    group_id: m.group_id,
                    payload: m.payload.clone(),
                    owners: owners.clone(),
                })
            })
            .collect(),
        FxOperation::NftTransfer(t) => vec![Output::NftTransfer(t.output.clone())],
        FxOperation::PropertyMint(m) => vec![
            Output::PropertyMint(m.mint_output.clone()),
            Output::PropertyOwned(m.owned_output.clone()),
        ],
        FxOperation::PropertyBurn(_) => Vec::new(),
    }
}

/// The addresses an output is indexed under (`OutputOwners.Addrs`), without duplicates.
pub fn owners(output: &Output) -> Vec<ShortId> {
    let addrs: &[ShortId] = match output {
        Output::Secp256k1Mint(o) => &o.owners.addrs,
        Output::Secp256k1Transfer(o) => &o.owners.addrs,
        Output::NftMint(o) => &o.owners.addrs,
        Output::NftTransfer(o) => &o.owners.addrs,
        Output::PropertyMint(o) => &o.owners.addrs,
        Output::PropertyOwned(o) => &o.owners.addrs,
    };
    let mut v = addrs.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}
