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
use super::{EvmPages, EvmReadError, HolderPage};
use crate::rows::TransferKind;
use crate::tables::{Addr, EvTransfersByToken};

impl EvmPages {
    /// The addresses of `chain` whose net bridged amount of ERC-20 `token` (minted to them less
    /// burnt from them, over every indexed block) is at least `threshold`, by address strictly
    /// past `after`, each with that amount; reading at most `max_rows` rows.
    pub fn net_bridged(
        &self,
        (chain, token): (u64, Address),
        threshold: U256,
        (size, after): (usize, Option<Address>),
        max_rows: u64,
    ) -> Result<HolderPage, LookingGlassError> {
        let (snapshot, cursor) = self.open(chain)?;
        if cursor.first != 0 {
            return Err(EvmReadError::PartialHistory {
                chain,
                first: cursor.first,
            }
            .into());
        }
        let t = token.0.0;
        let mut budget = Budget::new(max_rows);
        // Per address: minted to it, burnt from it.
        let mut moved: BTreeMap<Addr, (U256, U256)> = BTreeMap::new();
        let low = (chain, t, 0u64, 0u64, 0u32);
        let high = (chain, t, u64::MAX, u64::MAX, u32::MAX);
        for row in snapshot.scan::<EvTransfersByToken, _>(low..=high, Direction::Forward)? {
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
}
