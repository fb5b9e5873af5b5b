//! The followed node's view of the primary network's current validators: each one's uptime and
//! whether the node is connected to it, as its `platform.getCurrentValidators` gave them
//! (avalanchego `vms/platformvm/service.md`). None of it is in the chain's data; a poller beside
//! the follower reads it and [`record_uptimes`] replaces the stored view whole, in one batch, so
//! a reader sees one poll or the next, never a mix.

use std::collections::BTreeSet;

use snowline_store::{Direction, Linear, ReadView, Store, WriteBatch};
use snowline_types::Id;
use snowline_types::platformvm::current_validators::CurrentValidator;

use crate::error::PChainError;
use crate::rows::UptimeRow;
use crate::tables::{PhUptimes, PhUptimesAt};

/// Replaces the stored uptimes with those of `validators` (those the node gave an uptime for),
/// observed at `observed_at` (Unix seconds); returns how many were stored. An answer without
/// any uptime (a node that does not measure them) leaves the store as it was.
pub fn record_uptimes(
    store: &Store,
    validators: &[CurrentValidator],
    observed_at: u64,
) -> Result<usize, PChainError> {
    let rows: Vec<(Id, UptimeRow)> = validators
        .iter()
        .filter_map(|v| {
            v.uptime.map(|u| {
                let row = UptimeRow {
                    uptime: u.0,
                    connected: v.connected.unwrap_or(false),
                    observed_at,
                };
                (v.tx_id, row)
            })
        })
        .collect();
    if rows.is_empty() {
        return Ok(0);
    }
    let kept: BTreeSet<Id> = rows.iter().map(|(id, _)| *id).collect();
    let mut batch = WriteBatch::new();
    let snapshot = store.snapshot();
    for r in snapshot.scan::<PhUptimes, _>(.., Direction::Forward)? {
        let (id, _) = r?;
        if !kept.contains(&id) {
            batch.delete::<PhUptimes>(&id);
        }
    }
    drop(snapshot);
    for (id, row) in &rows {
        batch.put::<PhUptimes>(id, &Linear(*row));
    }
    batch.put::<PhUptimesAt>(&0, &observed_at);
    store.write(&batch)?;
    Ok(rows.len())
}

/// When the followed node last gave uptimes (`None`: never, so none are known).
pub(crate) fn uptimes_at(view: &impl ReadView) -> Result<Option<u64>, PChainError> {
    Ok(view.get::<PhUptimesAt>(&0)?)
}

/// The uptimes the followed node last gave for the validations of staker txs `ids`, in their
/// order, read in one batch.
pub(crate) fn uptimes_of(
    view: &impl ReadView,
    ids: &[Id],
) -> Result<Vec<Option<UptimeRow>>, PChainError> {
    Ok(view
        .multi_get::<PhUptimes>(ids)?
        .into_iter()
        .map(|r| r.map(|Linear(r)| r))
        .collect())
}
