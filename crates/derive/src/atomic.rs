//! The shared-memory rule: how a room that keeps atomic UTXOs (the X-Chain history, the P-Chain)
//! derives the exports that put a UTXO in a chain pair's shared memory and the imports that take
//! it out, whatever order the two chains' containers reach the index in.
//!
//! AvalancheGo's `chains/atomic` (commit `1cf1fc3d1711a09fde7319d2b48609c8cba93680`):
//! `shared_memory.go` `Apply` puts an export's UTXOs in the destination's inbound state and
//! removes an import's from the importer's; `state.go` `SetValue` / `RemoveValue` make a key
//! present once and removed once: a remove of an absent key leaves a tombstone, a put on a
//! tombstone cancels both (bootstrapping may accept the import first), and a second put or a
//! second remove is an error (`errDuplicatePut`, `errDuplicateRemove`), so no accepted history
//! holds one. The index keeps what shared memory forgets (who consumed a UTXO, when), and it may
//! read one accepted tx in more than one container (a DAG tx in `X/tx` and its vertex): the same
//! tx read again is not a second operation and changes nothing. Which UTXOs an export creates is
//! `snowline_types::atomic`'s; this module only decides what each derived operation does.

use snowline_types::Id;

/// Where an atomic UTXO stands in a room's rows, as the unwritten batches leave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stand<S> {
    /// Neither its export nor an import of it was derived. `stored`: whether the store holds
    /// its early-spend key once the unwritten batches are written (what
    /// [`PendingRows`](super::PendingRows) needs to remember one).
    Unknown {
        /// Whether the store holds its early-spend key once the unwritten batches are written.
        stored: bool,
    },
    /// Its export was derived; `consumed_by` is the import that took it, if one did.
    Exported {
        /// The importing tx.
        consumed_by: Option<Id>,
    },
    /// An import took it before its export was derived (a tombstone in `state.go`): `spend` is
    /// that import's consumption; `stored` as for [`Stand::Unknown`].
    SpentEarly {
        /// The remembered consumption.
        spend: S,
        /// Whether the store holds it once the unwritten batches are written.
        stored: bool,
    },
}

/// What a room keeps of the atomic UTXOs it shares with other chains; the rule reads and
/// changes them only through this.
pub trait SharedRows {
    /// An import's consumption as the room records it (the importing tx, its height and time).
    type Spend: Copy;
    /// The room's error.
    type Error;

    /// The importing tx of `spend`.
    fn spender(spend: &Self::Spend) -> Id;
    /// Where UTXO `id` stands.
    fn stand(&mut self, id: Id) -> Result<Stand<Self::Spend>, Self::Error>;
    /// Marks UTXO `id`, exported and unspent, consumed by `spend`.
    fn consume(&mut self, id: Id, spend: Self::Spend) -> Result<(), Self::Error>;
    /// Remembers that `spend` took UTXO `id` before its export was derived.
    fn remember_early(&mut self, id: Id, spend: Self::Spend, stored: bool);
    /// Forgets the early consumption of `id` (its export has come).
    fn forget_early(&mut self, id: Id, stored: bool);
}

/// What deriving an export did to one of its UTXOs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exported {
    /// Created, waiting in shared memory.
    Created,
    /// Created already consumed by the import derived before it.
    CreatedSpent,
    /// Already recorded: the export was read again; nothing changed.
    Again,
}

/// What deriving an import did to one of the UTXOs it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Imported {
    /// Consumed.
    Consumed,
    /// Its export is not derived yet: the consumption is remembered for the export to apply.
    Early,
    /// The same import read again: nothing changed.
    Again,
    /// Another import already took it (a second remove, which no accepted history holds):
    /// nothing changed; the room counts it as a missing input.
    Duplicate,
}

/// Derives one UTXO `id` an export puts in shared memory: `create` records it unspent unless it
/// is already recorded; an import derived before it then consumes it at once.
pub fn export<R: SharedRows>(
    rows: &mut R,
    id: Id,
    create: impl FnOnce(&mut R) -> Result<(), R::Error>,
) -> Result<Exported, R::Error> {
    match rows.stand(id)? {
        Stand::Exported { .. } => Ok(Exported::Again),
        Stand::Unknown { .. } => {
            create(rows)?;
            Ok(Exported::Created)
        }
        Stand::SpentEarly { spend, stored } => {
            rows.forget_early(id, stored);
            create(rows)?;
            rows.consume(id, spend)?;
            Ok(Exported::CreatedSpent)
        }
    }
}

/// Derives one UTXO `id` an import takes out of shared memory with `spend`: consumes it once,
/// remembers the consumption when its export is not derived yet, and leaves a UTXO another
/// import already took as it is.
pub fn import<R: SharedRows>(rows: &mut R, id: Id, spend: R::Spend) -> Result<Imported, R::Error> {
    let by = R::spender(&spend);
    match rows.stand(id)? {
        Stand::Exported { consumed_by: None } => {
            rows.consume(id, spend)?;
            Ok(Imported::Consumed)
        }
        Stand::Exported {
            consumed_by: Some(tx),
        } => Ok(if tx == by {
            Imported::Again
        } else {
            Imported::Duplicate
        }),
        Stand::SpentEarly { spend: early, .. } => Ok(if R::spender(&early) == by {
            Imported::Again
        } else {
            Imported::Duplicate
        }),
        Stand::Unknown { stored } => {
            rows.remember_early(id, spend, stored);
            Ok(Imported::Early)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::collections::BTreeMap;
    use std::convert::Infallible;

    use super::*;

    /// A room's rows in memory: each UTXO's creation and consumer, and the early spends.
    #[derive(Default)]
    struct Rows {
        utxos: BTreeMap<Id, Option<Id>>,
        early: BTreeMap<Id, Id>,
    }

    impl SharedRows for Rows {
        type Spend = Id;
        type Error = Infallible;
        fn spender(spend: &Id) -> Id {
            *spend
        }
        fn stand(&mut self, id: Id) -> Result<Stand<Id>, Infallible> {
            Ok(match (self.utxos.get(&id), self.early.get(&id)) {
                (Some(by), _) => Stand::Exported { consumed_by: *by },
                (None, Some(by)) => Stand::SpentEarly {
                    spend: *by,
                    stored: false,
                },
                (None, None) => Stand::Unknown { stored: false },
            })
        }
        fn consume(&mut self, id: Id, spend: Id) -> Result<(), Infallible> {
            let row = self.utxos.get_mut(&id).unwrap();
            assert_eq!(*row, None, "consumed once");
            *row = Some(spend);
            Ok(())
        }
        fn remember_early(&mut self, id: Id, spend: Id, _: bool) {
            self.early.insert(id, spend);
        }
        fn forget_early(&mut self, id: Id, _: bool) {
            self.early.remove(&id);
        }
    }

    fn exp(rows: &mut Rows, id: Id) -> Exported {
        export(rows, id, |r| {
            r.utxos.insert(id, None);
            Ok(())
        })
        .unwrap()
    }

    #[test]
    fn an_export_and_its_import_end_the_same_in_either_order() {
        let (utxo, tx) = (Id([1; 32]), Id([2; 32]));
        let mut first = Rows::default();
        assert_eq!(exp(&mut first, utxo), Exported::Created);
        assert_eq!(import(&mut first, utxo, tx).unwrap(), Imported::Consumed);
        let mut early = Rows::default();
        assert_eq!(import(&mut early, utxo, tx).unwrap(), Imported::Early);
        assert_eq!(exp(&mut early, utxo), Exported::CreatedSpent);
        for rows in [&first, &early] {
            assert_eq!(rows.utxos, BTreeMap::from([(utxo, Some(tx))]));
            assert!(rows.early.is_empty());
        }
    }

    #[test]
    fn a_tx_read_again_is_no_second_operation_and_another_import_is_a_duplicate() {
        let (utxo, tx, other) = (Id([1; 32]), Id([2; 32]), Id([3; 32]));
        // Import first: read again before and after the export.
        let mut rows = Rows::default();
        assert_eq!(import(&mut rows, utxo, tx).unwrap(), Imported::Early);
        assert_eq!(import(&mut rows, utxo, tx).unwrap(), Imported::Again);
        assert_eq!(import(&mut rows, utxo, other).unwrap(), Imported::Duplicate);
        assert_eq!(exp(&mut rows, utxo), Exported::CreatedSpent);
        assert_eq!(exp(&mut rows, utxo), Exported::Again);
        assert_eq!(import(&mut rows, utxo, tx).unwrap(), Imported::Again);
        assert_eq!(import(&mut rows, utxo, other).unwrap(), Imported::Duplicate);
        assert_eq!(rows.utxos, BTreeMap::from([(utxo, Some(tx))]));
        assert!(rows.early.is_empty());
    }
}
