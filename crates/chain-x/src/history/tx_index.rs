//! The X-Chain's tx index, written by [`XHistory`](super::XHistory) in the batch of the
//! container it derives: which UTXOs each tx consumed and emitted (`xh_tx_utxos`) and which txs
//! each address took part in (`xh_txs_by_address`, by the tx's first acceptance time), for the
//! Data API's tx by hash and address histories. An address takes part in a tx when it owns a
//! UTXO the tx consumes or emits (outputs, exports); the genesis txs are not indexed.

use snowline_store::WriteBatch;
use snowline_types::{Id, ShortId};

use super::rows::Event;
use super::tables::{TX_CONSUMED, TX_EMITTED, XhTxUtxos, XhTxsByAddress};

/// The X-Chain tx of `ev` emitted UTXO `utxo`, owned by `owners`.
pub(super) fn emitted(batch: &mut WriteBatch, ev: &Event, utxo: Id, owners: &[ShortId]) {
    put(batch, ev, TX_EMITTED, utxo, owners);
}

/// The X-Chain tx of `ev` consumed UTXO `utxo`, owned by `owners`.
pub(super) fn consumed(batch: &mut WriteBatch, ev: &Event, utxo: Id, owners: &[ShortId]) {
    put(batch, ev, TX_CONSUMED, utxo, owners);
}

fn put(batch: &mut WriteBatch, ev: &Event, role: u8, utxo: Id, owners: &[ShortId]) {
    batch.put::<XhTxUtxos>(&(ev.tx_id, role, utxo), &());
    for a in owners {
        batch.put::<XhTxsByAddress>(&(*a, ev.timestamp, ev.tx_id), &());
    }
}
