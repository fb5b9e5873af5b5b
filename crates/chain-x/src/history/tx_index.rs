//! The X-Chain's tx index, written by [`XHistory`](super::XHistory) in the batch of the
//! container it derives: which UTXOs each tx consumed and emitted (`xh_tx_utxos`), which txs
//! each address (`xh_txs_by_address`) and each asset (`xh_txs_by_asset`) took part in, by the
//! tx's first acceptance time, for the Data API's tx by hash, address histories and an asset's
//! txs. An address or asset takes part in a tx when it owns or is held by a UTXO the tx consumes
//! or emits (outputs, exports); the genesis txs are not indexed.

use snowline_store::WriteBatch;
use snowline_types::atomic::{AtomicTx, AtomicTxs};
use snowline_types::container::TxPlace;
use snowline_types::{Id, ShortId};

use super::rows::{CTxRow, Event};
use super::tables::{
    C_EVM_EXPORT, C_EVM_IMPORT, C_EXPORT, C_IMPORT, TX_CONSUMED, TX_EMITTED, XhCTxs,
    XhCTxsByAddress, XhCTxsByTime, XhTxUtxos, XhTxsByAddress, XhTxsByAsset,
};

/// A UTXO a tx consumed or emitted: its id, asset and owners.
pub(super) struct Moved<'a> {
    pub(super) id: Id,
    pub(super) asset: Id,
    pub(super) owners: &'a [ShortId],
}

/// The X-Chain tx of `ev` emitted `utxo`.
pub(super) fn emitted(batch: &mut WriteBatch, ev: &Event, utxo: Moved<'_>) {
    put(batch, ev, TX_EMITTED, utxo);
}

/// The X-Chain tx of `ev` consumed `utxo`.
pub(super) fn consumed(batch: &mut WriteBatch, ev: &Event, utxo: Moved<'_>) {
    put(batch, ev, TX_CONSUMED, utxo);
}

fn put(batch: &mut WriteBatch, ev: &Event, role: u8, utxo: Moved<'_>) {
    batch.put::<XhTxUtxos>(&(ev.tx_id, role, utxo.id), &());
    batch.put::<XhTxsByAsset>(&(utxo.asset, ev.timestamp, ev.tx_id), &());
    let owners = utxo.owners;
    for a in owners {
        batch.put::<XhTxsByAddress>(&(*a, ev.timestamp, ev.tx_id), &());
    }
}

/// Indexes the atomic txs of the `C/block` container `container` (its block's hash `hash`):
/// where each is (its block, and `places[i]`, where tx `i`'s bytes lie in the container), when,
/// and the EVM addresses `evm[i]` of tx `i`.
pub(super) fn c_block(
    batch: &mut WriteBatch,
    (container, hash): (Id, [u8; 32]),
    block: &AtomicTxs<impl Sized>,
    evm: &[Vec<ShortId>],
    places: &[Option<TxPlace>],
) {
    for (i, (tx, evm)) in block.txs.iter().zip(evm).enumerate() {
        let (tx_id, kind, role) = match tx {
            AtomicTx::Import { tx_id, .. } => (*tx_id, C_IMPORT, C_EVM_IMPORT),
            AtomicTx::Export { tx_id, .. } => (*tx_id, C_EXPORT, C_EVM_EXPORT),
        };
        let row = CTxRow {
            container,
            number: block.height,
            hash,
            timestamp: block.timestamp,
            place: places.get(i).copied().flatten(),
        };
        batch.put::<XhCTxs>(&tx_id, &row);
        batch.put::<XhCTxsByTime>(&(kind, block.timestamp, tx_id), &());
        for a in evm {
            batch.put::<XhCTxsByAddress>(&((*a, role), block.timestamp, tx_id), &());
        }
    }
}

/// The C-Chain tx of `ev` moved a UTXO of `owners` through the X-Chain's shared memory
/// (`role`: [`C_OWNER_IMPORT`] or [`C_OWNER_EXPORT`]).
pub(super) fn c_owners(batch: &mut WriteBatch, ev: &Event, role: u8, owners: &[ShortId]) {
    for a in owners {
        batch.put::<XhCTxsByAddress>(&((*a, role), ev.timestamp, ev.tx_id), &());
    }
}
