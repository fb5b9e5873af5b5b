//! Reading the X-Chain state: point lookups and avalanchego's `getUTXOs` pagination
//! (`vms/components/avax/utxo_fetching.go` `GetPaginatedUTXOs` for the chain's own UTXOs,
//! `chains/atomic/state.go` `getKeys` for shared memory).

use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use snowline_store::{Desc, Direction, ReadView, Store};
use snowline_types::avm::Utxo;
use snowline_types::{Id, ShortId};

use super::tables::{
    AssetRow, XAddrUtxoPos, XAddrUtxos, XAssetAliases, XAssetPrimaryAlias, XAssets, XAtomicAddrPos,
    XAtomicAddrUtxos, XAtomicUtxos, XBlockIds, XBlocks, XTxs, XUtxos,
};
use crate::error::XStateError;

/// One page of `getUTXOs`: the UTXOs (id and bytes) and the `endIndex` to resume from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UtxoPage {
    /// `(utxo id, utxo bytes)` in the order served.
    pub utxos: Vec<(Id, Vec<u8>)>,
    /// The last address searched (`endIndex.address`).
    pub end_address: ShortId,
    /// The last UTXO id searched (`endIndex.utxo`; the zero id when none).
    pub end_utxo: Id,
}

/// The X-Chain state of a shared store: what a service holds to read it (one [`XReader`] per
/// call) without depending on the store itself.
#[derive(Debug, Clone)]
pub struct XStateIndex {
    store: Arc<Store>,
}

impl XStateIndex {
    /// The state in `store` (which holds [`tables`](super::tables::tables())).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// A reader of the live store.
    pub fn reader(&self) -> XReader<'_, Store> {
        XReader::new(&self.store)
    }
}

/// Reads over any [`ReadView`] (the store or a snapshot).
#[derive(Debug, Clone, Copy)]
pub struct XReader<'a, V: ReadView> {
    view: &'a V,
}

/// UTXO rows read per batched lookup when listing an address's whole set.
const READ_CHUNK: usize = 1024;

impl<'a, V: ReadView> XReader<'a, V> {
    /// A reader over `view`.
    pub fn new(view: &'a V) -> Self {
        Self { view }
    }

    /// The signed bytes of an accepted tx.
    pub fn tx(&self, id: &Id) -> Result<Option<Vec<u8>>, XStateError> {
        self.view
            .get::<XTxs>(id)?
            .map(|stored| stored.resolve(self.view))
            .transpose()
    }

    /// The bytes of an unspent UTXO.
    pub fn utxo(&self, id: &Id) -> Result<Option<Vec<u8>>, XStateError> {
        Ok(self.view.get::<XUtxos>(id)?.map(|r| r.bytes))
    }

    /// An asset created by a `CreateAssetTx`.
    pub fn asset(&self, id: &Id) -> Result<Option<AssetRow>, XStateError> {
        Ok(self.view.get::<XAssets>(id)?)
    }

    /// The asset an alias names (`AVAX`).
    pub fn asset_by_alias(&self, alias: &str) -> Result<Option<Id>, XStateError> {
        Ok(self.view.get::<XAssetAliases>(&alias.to_owned())?)
    }

    /// The primary alias of an asset, if it has one.
    pub fn primary_alias(&self, id: &Id) -> Result<Option<String>, XStateError> {
        Ok(self.view.get::<XAssetPrimaryAlias>(id)?)
    }

    /// The height of an avm block.
    pub fn block_height(&self, id: &Id) -> Result<Option<u64>, XStateError> {
        Ok(self.view.get::<XBlockIds>(id)?)
    }

    /// The avm block bytes at `height`.
    pub fn block_at(&self, height: u64) -> Result<Option<Vec<u8>>, XStateError> {
        self.view
            .get::<XBlocks>(&height)?
            .map(|stored| stored.resolve(self.view))
            .transpose()
    }

    /// The height of the last accepted block.
    pub fn height(&self) -> Result<Option<u64>, XStateError> {
        let mut scan = self.view.scan::<XBlocks, _>(.., Direction::Reverse)?;
        Ok(scan.next().transpose()?.map(|(h, _)| h))
    }

    /// Every unspent UTXO of `addr`, newest first, as parsed UTXOs (for balances).
    pub fn all_utxos(&self, addr: &ShortId) -> Result<Vec<Utxo>, XStateError> {
        let mut uids = Vec::new();
        for entry in self
            .view
            .prefix_scan::<XAddrUtxos, _>(addr, None, Direction::Forward)?
        {
            let ((_, _, uid), ()) = entry?;
            uids.push(uid);
        }
        let mut out = Vec::with_capacity(uids.len());
        for chunk in uids.chunks(READ_CHUNK) {
            for (uid, row) in chunk.iter().zip(self.view.multi_get::<XUtxos>(chunk)?) {
                if let Some(row) = row {
                    let utxo = Utxo::parse(&row.bytes)
                        .map_err(|source| XStateError::StoredUtxo { id: *uid, source })?;
                    out.push(utxo);
                }
            }
        }
        Ok(out)
    }

    /// avalanchego `utxoState.UTXOIDs`: up to `limit` UTXO ids of `addr`, newest first, starting
    /// after `start` when `start` is in the address's list, else from the newest.
    pub fn utxo_ids(
        &self,
        addr: &ShortId,
        start: &Id,
        limit: usize,
    ) -> Result<Vec<Id>, XStateError> {
        let after = self
            .view
            .get::<XAddrUtxoPos>(&(*addr, *start))?
            .map(|seq| (*addr, Desc(seq), *start));
        let mut out = Vec::new();
        if limit == 0 {
            return Ok(out);
        }
        for entry in
            self.view
                .prefix_scan::<XAddrUtxos, _>(addr, after.as_ref(), Direction::Forward)?
        {
            let ((_, _, uid), ()) = entry?;
            out.push(uid);
            if out.len() >= limit {
                break;
            }
        }
        Ok(out)
    }

    /// `GetPaginatedUTXOs`: addresses in byte order, those before `start_addr` skipped; for
    /// `start_addr` resume after `start_utxo`; at most `limit` UTXOs, each once.
    pub fn paginate(
        &self,
        addrs: &BTreeSet<ShortId>,
        start_addr: ShortId,
        start_utxo: Id,
        limit: usize,
    ) -> Result<UtxoPage, XStateError> {
        let search = limit;
        let mut remaining = limit;
        let mut page = UtxoPage {
            utxos: Vec::new(),
            end_address: start_addr,
            end_utxo: start_utxo,
        };
        let mut seen = HashSet::new();
        for addr in addrs {
            let start = match addr.cmp(&start_addr) {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Equal => start_utxo,
                std::cmp::Ordering::Greater => Id::EMPTY,
            };
            page.end_address = *addr;
            // The UTXOs this address adds, in order, each once, until the page is full; the
            // last one visited (a repeat included) is where the page ends. Their rows are then
            // read in one batched lookup.
            let mut take = Vec::new();
            for uid in self.utxo_ids(addr, &start, search)? {
                page.end_utxo = uid;
                if !seen.insert(uid) {
                    continue;
                }
                take.push(uid);
                if take.len() >= remaining {
                    break;
                }
            }
            let rows = self.view.multi_get::<XUtxos>(&take)?;
            for (uid, row) in take.iter().zip(rows) {
                let row = row.ok_or_else(|| {
                    XStateError::Corrupt(format!(
                        "address index names UTXO {uid}, which is not stored"
                    ))
                })?;
                page.utxos.push((*uid, row.bytes));
            }
            if !take.is_empty() {
                remaining = remaining.saturating_sub(take.len());
                if remaining == 0 {
                    return Ok(page);
                }
            }
        }
        Ok(page)
    }

    /// Shared-memory `getKeys` for UTXOs `chain` exported to this chain: addresses in byte
    /// order; the start address resumes *at* `start_utxo` when it is in the list (avalanchego's
    /// linked-list iterator includes its start key), else from the newest; later addresses from
    /// their newest. `end_utxo` is the zero id when the last address searched had no UTXO.
    pub fn paginate_atomic(
        &self,
        chain: &Id,
        addrs: &BTreeSet<ShortId>,
        start_addr: ShortId,
        start_utxo: Id,
        limit: usize,
    ) -> Result<UtxoPage, XStateError> {
        let mut remaining = limit;
        let mut page = UtxoPage {
            utxos: Vec::new(),
            end_address: start_addr,
            end_utxo: start_utxo,
        };
        let mut seen = HashSet::new();
        let mut start_key = Some(start_utxo);
        for addr in addrs {
            match addr.cmp(&start_addr) {
                std::cmp::Ordering::Less => continue,
                std::cmp::Ordering::Greater => start_key = None,
                std::cmp::Ordering::Equal => {}
            }
            page.end_address = *addr;
            page.end_utxo = start_key.unwrap_or(Id::EMPTY);
            // Resume at the start key itself when it is in this address's list.
            let from = match start_key {
                Some(k) => self
                    .view
                    .get::<XAtomicAddrPos>(&(*chain, *addr, k))?
                    .map(|seq| (*chain, *addr, Desc(seq), k)),
                None => None,
            };
            let scan = match &from {
                Some(key) => self
                    .view
                    .scan::<XAtomicAddrUtxos, _>(*key.., Direction::Forward)?,
                None => self.view.prefix_scan::<XAtomicAddrUtxos, _>(
                    &(*chain, *addr),
                    None,
                    Direction::Forward,
                )?,
            };
            for entry in scan {
                if remaining == 0 {
                    break;
                }
                let ((c, a, _, uid), ()) = entry?;
                if c != *chain || a != *addr {
                    break;
                }
                page.end_utxo = uid;
                if !seen.insert(uid) {
                    continue;
                }
                let row = self
                    .view
                    .get::<XAtomicUtxos>(&(*chain, uid))?
                    .ok_or_else(|| {
                        XStateError::Corrupt(format!(
                            "atomic index names UTXO {uid}, which is not stored"
                        ))
                    })?;
                page.utxos.push((uid, row.bytes));
                remaining = remaining.saturating_sub(1);
            }
            if remaining == 0 {
                break;
            }
        }
        Ok(page)
    }
}
