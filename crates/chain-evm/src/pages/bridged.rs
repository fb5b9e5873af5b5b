//! A bridged token's net bridged amounts, for the metrics service's Looking Glass: a token a
//! bridge mints when value arrives and burns when it leaves (BTC.b on the Avalanche C-Chain)
//! has moved into an address on balance the amount minted to it less the amount burnt from
//! it. Read from the token's transfers (`ev_transfers_by_token`), within the Looking Glass's
//! row cap.

use std::collections::BTreeMap;

use snowline_store::{Direction, Linear, ReadView};
use snowline_types::evm::{Address, U256};

use super::composite::{Budget, LookingGlassError};
use super::holders::page_of;
use super::{EvmPages, EvmReadError, HolderPage, cursor_in};
use crate::rows::TransferKind;
use crate::tables::{Addr, EvTransfersByToken};

impl EvmPages {
    /// The addresses of `chain` whose net bridged amount of ERC-20 `token` (minted to them less
    /// burnt from them, over every indexed block) is at least `threshold`, by address strictly
    /// past `after`, each with that amount; reading at most `max_rows` rows.
    pub fn net_bridged(
        &self,
        target: (u64, Address),
        threshold: U256,
        page: (usize, Option<Address>),
        max_rows: u64,
    ) -> Result<HolderPage, LookingGlassError> {
        let mut budget = Budget::new(max_rows);
        if self.unsnapshotted() {
            net_bridged_in(&*self.store, target, threshold, page, &mut budget)
        } else {
            net_bridged_in(&self.store.snapshot(), target, threshold, page, &mut budget)
        }
    }
}

/// [`EvmPages::net_bridged`] over `view`.
fn net_bridged_in(
    view: &impl ReadView,
    (chain, token): (u64, Address),
    threshold: U256,
    (size, after): (usize, Option<Address>),
    budget: &mut Budget,
) -> Result<HolderPage, LookingGlassError> {
    let cursor = cursor_in(view, chain)?;
    if cursor.first != 0 {
        return Err(EvmReadError::PartialHistory {
            chain,
            first: cursor.first,
        }
        .into());
    }
    let t = token.0.0;
    // Per address: minted to it, burnt from it.
    let mut moved: BTreeMap<Addr, (U256, U256)> = BTreeMap::new();
    let low = (chain, t, 0u64, 0u64, 0u32);
    let high = (chain, t, u64::MAX, u64::MAX, u32::MAX);
    for row in view.scan::<EvTransfersByToken, _>(low..=high, Direction::Forward)? {
        budget.spend()?;
        let (_, Linear(r)) = row?;
        if r.kind != TransferKind::Erc20 || r.from == r.to {
            continue;
        }
        if r.from == Address::ZERO {
            let e = moved.entry(r.to.0.0).or_default();
            e.0 = e.0.saturating_add(r.value);
        } else if r.to == Address::ZERO {
            let e = moved.entry(r.from.0.0).or_default();
            e.1 = e.1.saturating_add(r.value);
        }
    }
    let after = after.map(|a| a.0.0);
    let net: BTreeMap<Addr, U256> = moved
        .into_iter()
        .filter(|(a, _)| after.is_none_or(|p| *a > p))
        .filter_map(|(a, (minted, burnt))| {
            let n = minted.checked_sub(burnt)?;
            (n >= threshold).then_some((a, n))
        })
        .collect();
    Ok(page_of(net, size))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use snowline_store::{Schema, Store, WriteBatch};
    use snowline_types::evm::B256;

    use super::*;
    use crate::rows::{CursorRow, TransferRow};
    use crate::tables::EvCursor;

    const CHAIN: u64 = 7;

    fn a(n: u8) -> Address {
        Address::new([n; 20])
    }

    /// A store holding `chain`'s cursor (from block `first`) and `moves` of `(token, kind, from,
    /// to, value)`, one per block; its directory (deleted on drop) and pages.
    fn pages(
        first: u64,
        moves: &[(Address, TransferKind, Address, Address, u64)],
    ) -> (tempfile::TempDir, EvmPages) {
        let dir = tempfile::tempdir().unwrap();
        let schema = crate::tables()
            .into_iter()
            .fold(Schema::new(1), Schema::with_spec);
        let store = Store::open(dir.path(), &schema).unwrap();
        let mut batch = WriteBatch::new();
        let cursor = CursorRow {
            first,
            next: first + moves.len() as u64,
            last_hash: B256::ZERO,
            cumulative_txs: 0,
            untraced_from: None,
        };
        batch.put::<EvCursor>(&CHAIN, &Linear(cursor));
        for (i, (token, kind, from, to, value)) in moves.iter().enumerate() {
            let row = TransferRow {
                kind: *kind,
                from: *from,
                to: *to,
                value: U256::from(*value),
                token_id: U256::ZERO,
                operator: None,
                tx_hash: B256::ZERO,
                tx_index: 0,
                timestamp: 0,
                block_hash: B256::ZERO,
            };
            let key = (CHAIN, token.0.0, first + i as u64, 0u64, 0u32);
            batch.put::<EvTransfersByToken>(&key, &Linear(row));
        }
        store.write(batch).unwrap();
        (dir, EvmPages::new(Arc::new(store)))
    }

    /// Mints count for the recipient, burns against the sender, moves between holders and other
    /// tokens' or standards' transfers not at all; a net below zero is not listed.
    #[test]
    fn net_bridged_is_minted_less_burnt() {
        let (token, other, zero) = (a(0xB7), a(0x0C), Address::ZERO);
        let (x, y, z, w) = (a(1), a(2), a(3), a(4));
        let erc20 = TransferKind::Erc20;
        let moves = [
            (token, erc20, zero, x, 100),
            (token, erc20, zero, y, 50),
            (token, erc20, x, y, 30),
            (token, erc20, x, zero, 40),
            (token, erc20, y, zero, 60),
            (token, erc20, zero, z, 5),
            (token, erc20, zero, zero, 9),
            (token, TransferKind::Erc721, zero, w, 1),
            (other, erc20, zero, w, 1_000),
        ];
        let (_dir, p) = pages(0, &moves);
        let net = |threshold: u64, size: usize, after: Option<Address>| {
            p.net_bridged((CHAIN, token), U256::from(threshold), (size, after), 100)
                .unwrap()
        };
        let all = net(0, 10, None);
        assert_eq!(
            all.holders,
            vec![(x, U256::from(60u8)), (z, U256::from(5u8))]
        );
        assert_eq!(all.next, None);
        assert_eq!(net(6, 10, None).holders, vec![(x, U256::from(60u8))]);
        assert!(net(61, 10, None).holders.is_empty());
        let first = net(0, 1, None);
        assert_eq!((first.holders.len(), first.next), (1, Some(x)));
        assert_eq!(net(0, 1, Some(x)).holders, vec![(z, U256::from(5u8))]);
        // The token's rows past the cap: refused.
        let capped = p.net_bridged((CHAIN, token), U256::ZERO, (10, None), 3);
        assert!(
            matches!(capped, Err(LookingGlassError::TooBroad { limit: 3 })),
            "{capped:?}"
        );
        // A chain indexed from a later block: its mints before it are unknown.
        let (_later, p5) = pages(5, &moves);
        let partial = p5.net_bridged((CHAIN, token), U256::ZERO, (10, None), 100);
        assert!(
            matches!(
                partial,
                Err(LookingGlassError::Read(EvmReadError::PartialHistory {
                    first: 5,
                    ..
                }))
            ),
            "{partial:?}"
        );
    }
}
