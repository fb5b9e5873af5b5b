//! [`Journal`]: what a room's deriver did to UTXOs as it derived each container, told to a hook
//! riding the same batch after it (the webhooks'), which drains it per container. The P-Chain
//! and the X-Chain history each tell one; the P-Chain adds its own notes (`E`: stakers
//! settled, L1 validators changed). Nothing is kept when no one holds a journal.

use std::sync::{Arc, Mutex};

use snowline_types::{Id, ShortId};

/// One thing a deriver did, in the order it was derived: a UTXO move, or a room's own note `E`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note<E> {
    /// A UTXO was created or consumed by a tx of the container being derived.
    Utxo(UtxoNote),
    /// A UTXO an `ImportTx` consumed, learnt only now, when another chain's container with its
    /// export is derived after the import's container (the index followed that chain behind).
    LateImport {
        /// The consumption (`tx` the import).
        utxo: UtxoNote,
        /// The import's block or vertex height, when it had one.
        height: Option<u64>,
        /// The import's container time, Unix seconds.
        timestamp: u64,
    },
    /// What only the room that tells it knows.
    Room(E),
}

/// A UTXO a tx created (`created`) or consumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoNote {
    /// The chain whose tx it is (P, X, or C for the C-Chain's atomic txs).
    pub chain: Id,
    /// The tx.
    pub tx: Id,
    /// The UTXO.
    pub utxo: Id,
    /// Its asset.
    pub asset: Id,
    /// Its amount.
    pub amount: u64,
    /// Its owners.
    pub owners: Vec<ShortId>,
    /// Whether created (else consumed).
    pub created: bool,
    /// Whether staked (a staking tx's stake output).
    pub staked: bool,
    /// Whether in atomic memory: exported by the tx (created), or imported (consumed).
    pub shared: bool,
    /// Whether locked when created: a locktime (or a P-Chain stakeable lock) after the time of
    /// the tx that created it.
    pub locked: bool,
}

/// The notes of the container being derived, shared between the deriver, which adds them, and
/// a hook after it, which takes them.
#[derive(Debug)]
pub struct Journal<E>(Arc<Mutex<Vec<Note<E>>>>);

impl<E> Default for Journal<E> {
    fn default() -> Self {
        Self(Arc::default())
    }
}

impl<E> Clone for Journal<E> {
    fn clone(&self) -> Self {
        Self(Arc::clone(&self.0))
    }
}

impl<E> Journal<E> {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Note<E>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes the notes added since the last take.
    pub fn take(&self) -> Vec<Note<E>> {
        std::mem::take(&mut *self.lock())
    }

    /// Forgets the notes (a batch dropped).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Adds `note`.
    pub fn push(&self, note: Note<E>) {
        self.lock().push(note);
    }

    /// Adds the UTXO move `utxo`: a [`Note::Utxo`] when its tx's chain is `deriving` (the
    /// chain of the container being derived), else a [`Note::LateImport`] of the import at
    /// `height` and `timestamp` (another chain's export completed it).
    pub fn utxo(&self, utxo: UtxoNote, deriving: Id, height: Option<u64>, timestamp: u64) {
        let note = if utxo.chain == deriving {
            Note::Utxo(utxo)
        } else {
            Note::LateImport {
                utxo,
                height,
                timestamp,
            }
        };
        self.push(note);
    }
}
