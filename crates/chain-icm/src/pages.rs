//! [`IcmPages`]: the Data API's ICM reads, each from one store snapshot. A message is joined
//! from the rows each side wrote; a listing is a keyset page over one of the time-ordered
//! indexes (the most selective the query allows), filtered by the rest of the query from the
//! index entries themselves. A message both of whose sides are indexed has two entries; it is
//! listed once, at its send.

use std::sync::Arc;

use snowline_query::{FilterLimits, decode_position, encode_position, filtered_page};
use snowline_store::{Direction, Linear, ReadView, Snapshot, Store, StoreError};
use snowline_types::evm::teleporter::{TeleporterMessage, decode_teleporter_message};
use snowline_types::evm::{Address, B256};

use crate::derive::address_word;
use crate::error::IcmError;
use crate::rows::{ExecutionRow, FeeRow, IndexEntry, ReceiptRow, ReceivedRow, SentRow, Word};
use crate::tables::{
    IcmByParty, IcmByTx, IcmChains, IcmExecutions, IcmFees, IcmOrder, IcmReceipts, IcmReceived,
    IcmSent, party, role, side,
};

/// Why a page could not be read: the store's one page error, reading the ICM tables.
pub type IcmPageError = snowline_store::PageError<IcmError>;

/// What a listing keeps; every filter given must hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IcmQuery {
    /// The source blockchain id.
    pub source: Option<B256>,
    /// The destination blockchain id.
    pub destination: Option<B256>,
    /// Either end's blockchain id.
    pub chain: Option<B256>,
    /// The sender (`originSenderAddress`).
    pub from: Option<Address>,
    /// The recipient (`destinationAddress`).
    pub to: Option<Address>,
    /// The sender or the recipient.
    pub address: Option<Address>,
}

impl IcmQuery {
    fn keeps(&self, e: &IndexEntry) -> bool {
        let chain = |id: &Option<B256>, f: &dyn Fn(&Word) -> bool| id.is_none_or(|id| f(&id.0));
        let addr = |a: &Option<Address>, f: &dyn Fn(&[u8; 20]) -> bool| a.is_none_or(|a| f(&a.0.0));
        chain(&self.source, &|w| *w == e.source)
            && chain(&self.destination, &|w| *w == e.destination)
            && chain(&self.chain, &|w| *w == e.source || *w == e.destination)
            && addr(&self.from, &|a| *a == e.from)
            && addr(&self.to, &|a| *a == e.to)
            && addr(&self.address, &|a| *a == e.from || *a == e.to)
    }

    /// The index a listing scans: an address before a chain (far fewer messages each), else
    /// every message by time.
    fn driver(&self) -> Option<(u8, Word, u8)> {
        let a = |a: &Address| address_word(&a.0.0);
        if let Some(x) = &self.from {
            Some((party::ADDRESS, a(x), role::SOURCE))
        } else if let Some(x) = &self.to {
            Some((party::ADDRESS, a(x), role::DESTINATION))
        } else if let Some(x) = &self.address {
            Some((party::ADDRESS, a(x), role::EITHER))
        } else if let Some(x) = self.source {
            Some((party::CHAIN, x.0, role::SOURCE))
        } else if let Some(x) = self.destination {
            Some((party::CHAIN, x.0, role::DESTINATION))
        } else {
            self.chain.map(|x| (party::CHAIN, x.0, role::EITHER))
        }
    }
}

/// One message as the index knows it: each side's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmView {
    /// The message id.
    pub id: B256,
    /// The message (from the send, else the delivery).
    pub message: TeleporterMessage,
    /// The source blockchain id.
    pub source: B256,
    /// The destination blockchain id.
    pub destination: B256,
    /// The send, when its chain is indexed (from the block it happened in).
    pub sent: Option<SentRow>,
    /// The fee after the last addition.
    pub fee_added: Option<FeeRow>,
    /// The receipt back on the source chain.
    pub receipt: Option<ReceiptRow>,
    /// The delivery, when its chain is indexed.
    pub received: Option<ReceivedRow>,
    /// The last execution outcome.
    pub execution: Option<ExecutionRow>,
}

/// One page of messages, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmPage {
    /// The messages.
    pub messages: Vec<IcmView>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

/// The Data API's view of the ICM messages.
#[derive(Debug, Clone)]
pub struct IcmPages {
    store: Arc<Store>,
}

/// A listing position: the entry's time, message id and side.
type Position = (u64, Word, u8);

impl IcmPages {
    /// Pages over `store` (which holds the ICM tables).
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }

    /// The message of id `id`, when either side of it is indexed.
    pub fn message(&self, id: B256) -> Result<Option<IcmView>, IcmPageError> {
        let snapshot = self.store.snapshot();
        Ok(view(&snapshot, &[id])?.pop().flatten())
    }

    /// The blockchain id indexed EVM chain `chain` has, as its messenger (or its source) says.
    pub fn blockchain_of(&self, chain: u64) -> Result<Option<B256>, IcmPageError> {
        Ok(self.store.get::<IcmChains>(&chain)?.map(B256::from))
    }

    /// The indexed EVM chain whose blockchain id is `id`.
    pub fn evm_chain_of(&self, id: B256) -> Result<Option<u64>, IcmPageError> {
        // One row per indexed chain: a scan is a handful of entries.
        for r in self.store.scan::<IcmChains, _>(.., Direction::Forward)? {
            let (chain, word) = r?;
            if word == id.0 {
                return Ok(Some(chain));
            }
        }
        Ok(None)
    }

    /// The first message transaction `tx` of chain `chain` sent or delivered, with the side the
    /// transaction is (`tables::side`).
    pub fn of_tx(&self, chain: u64, tx: B256) -> Result<Option<(IcmView, u8)>, IcmPageError> {
        let snapshot = self.store.snapshot();
        let first = snapshot
            .prefix_scan::<IcmByTx, _>(&(chain, tx.0), None, Direction::Forward)?
            .next()
            .transpose()?;
        let Some((_, Linear(m))) = first else {
            return Ok(None);
        };
        Ok(view(&snapshot, &[B256::from(m.id)])?
            .pop()
            .flatten()
            .map(|v| (v, m.side)))
    }

    /// One page of the messages `q` keeps, newest first, resuming strictly past `from`.
    pub fn list(
        &self,
        q: &IcmQuery,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<IcmPage, IcmPageError> {
        let driver = q.driver();
        let after = from
            .map(|b| read_position(b, driver.is_some()))
            .transpose()?;
        let snapshot = self.store.snapshot();
        let entries: Box<dyn Iterator<Item = Result<(Position, IndexEntry), StoreError>>> =
            match driver {
                None => {
                    let scan = match after {
                        Some(p) => snapshot.scan::<IcmOrder, _>(..p, Direction::Reverse)?,
                        None => snapshot.scan::<IcmOrder, _>(.., Direction::Reverse)?,
                    };
                    Box::new(scan.map(|r| r.map(|(k, Linear(e))| (k, e))))
                }
                Some((kind, who, r)) => {
                    let after = after.map(|(t, id, s)| (kind, who, r, t, id, s));
                    let scan = snapshot.prefix_scan::<IcmByParty, _>(
                        &(kind, who, r),
                        after.as_ref(),
                        Direction::Reverse,
                    )?;
                    Box::new(
                        scan.map(|r| r.map(|((_, _, _, t, id, s), Linear(e))| ((t, id, s), e))),
                    )
                }
            };
        let limits = FilterLimits::page(page_size as usize);
        let page = filtered_page(
            entries,
            limits,
            |chunk: &[(Position, IndexEntry)]| {
                // A delivery's entry is shadowed by its send's when the send is indexed.
                let delivered: Vec<Word> = chunk
                    .iter()
                    .filter(|((_, _, s), _)| *s == side::DESTINATION)
                    .map(|((_, id, _), _)| *id)
                    .collect();
                let sent = snapshot.multi_get::<IcmSent>(&delivered)?;
                let mut sent = sent.into_iter();
                Ok(chunk
                    .iter()
                    .map(|((_, _, s), _)| *s == side::SOURCE || sent.next().flatten().is_none())
                    .collect::<Vec<bool>>())
            },
            |(_, e), listed| *listed && q.keeps(e),
            |_| false,
        )?;
        let ids: Vec<B256> = page
            .items
            .iter()
            .map(|(((_, id, _), _), _)| B256::from(*id))
            .collect();
        let messages = view(&snapshot, &ids)?.into_iter().flatten().collect();
        Ok(IcmPage {
            messages,
            next: page
                .next
                .map(|((t, id, s), _)| write_position((t, id, s), driver.is_some())),
        })
    }
}

/// Each of `ids` joined from the rows its sides wrote (`None`: neither side is indexed).
fn view(snapshot: &Snapshot<'_>, ids: &[B256]) -> Result<Vec<Option<IcmView>>, IcmPageError> {
    let keys: Vec<Word> = ids.iter().map(|id| id.0).collect();
    let sent = snapshot.multi_get::<IcmSent>(&keys)?;
    let received = snapshot.multi_get::<IcmReceived>(&keys)?;
    let fees = snapshot.multi_get::<IcmFees>(&keys)?;
    let receipts = snapshot.multi_get::<IcmReceipts>(&keys)?;
    let executions = snapshot.multi_get::<IcmExecutions>(&keys)?;
    let mut out = Vec::with_capacity(ids.len());
    let rows = sent
        .into_iter()
        .zip(received)
        .zip(fees.into_iter().zip(receipts).zip(executions));
    for (id, ((sent, received), ((fee, receipt), execution))) in ids.iter().zip(rows) {
        let sent = sent.map(|Linear(r)| r);
        let received = received.map(|Linear(r)| r);
        let (bytes, source, destination) = match (&sent, &received) {
            (Some(s), _) => (&s.message, s.source, s.destination),
            (None, Some(r)) => (&r.message, r.source, r.destination),
            (None, None) => {
                out.push(None);
                continue;
            }
        };
        let message = decode_teleporter_message(bytes)
            .map_err(|e| IcmError::Corrupt(format!("message {id}: {e}")))?;
        out.push(Some(IcmView {
            id: *id,
            message,
            source: B256::from(source),
            destination: B256::from(destination),
            sent,
            fee_added: fee.map(|Linear(r)| r),
            receipt: receipt.map(|Linear(r)| r),
            received,
            execution: execution.map(|Linear(r)| r),
        }));
    }
    Ok(out)
}

/// Tags a position with the kind of index it is in, so a token of another listing is refused.
fn write_position((t, id, s): Position, by_party: bool) -> Vec<u8> {
    encode_position(&(u64::from(by_party), t, id, s))
}

fn read_position(bytes: &[u8], by_party: bool) -> Result<Position, IcmPageError> {
    match decode_position::<(u64, u64, Word, u8)>(bytes) {
        Some((tag, t, id, s)) if tag == u64::from(by_party) && s <= side::DESTINATION => {
            Ok((t, id, s))
        }
        _ => Err(IcmPageError::BadPosition),
    }
}
