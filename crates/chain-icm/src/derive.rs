//! [`IcmDeriver`]: the EVM deriver's hook that reads each block's TeleporterMessenger v1 logs
//! and writes the side of each message that happened on this chain, in the block's own batch.
//! Every event's message id is checked against the id rule where the event carries what it
//! needs (a send, a delivery); an event that fails the rule, or a log that does not decode, is
//! skipped with a warning: a contract at the messenger's address that is not the messenger
//! must not stop the chain's indexing. The metrics' counts are decided when the batch is
//! finished, holding the [`Turn`] until it is written (see [`IcmDeriver::count`]).

use std::collections::{BTreeMap, HashSet};

use snowline_chain_metrics::Interval;

use snowline_chain_evm::parse::{Block, MessengerLog, Tx};
use snowline_chain_evm::{BlockHook, BlockHooks, EvmError};
use snowline_derive::{DeriveError, Staging};
use snowline_store::{Linear, ReadView, Store, WriteBatch};
use snowline_types::evm::B256;
use snowline_types::evm::teleporter::{
    TELEPORTER_MESSENGER_V1, TeleporterEvent, TeleporterFeeInfo, TeleporterMessage,
    blockchain_id_initialized, decode_teleporter_log, encode_teleporter_message, message_id,
};

use crate::metrics::counts::Shape;
use crate::rows::{
    ExecutionRow, Fee, FeeRow, IndexEntry, ReceiptRow, ReceivedRow, SentRow, TxAt, TxMessage, Word,
};
use crate::tables::{
    IcmByParty, IcmByTx, IcmChains, IcmCountedDeliveries, IcmCounts, IcmExecutions, IcmFees,
    IcmOrder, IcmReceipts, IcmReceived, IcmSent, party, role, side,
};
use crate::turn::Turn;

/// A side of a message staged in the batch, to be counted when the batch is finished.
#[derive(Debug, Clone, Copy)]
struct Counted {
    id: Word,
    /// The side's block time.
    timestamp: u64,
    source: Word,
    destination: Word,
    /// A send (else a delivery).
    send: bool,
}

/// The ICM deriver of one chain.
#[derive(Debug)]
pub struct IcmDeriver {
    chain: u64,
    /// This chain's blockchain id: read from its messenger, else configured.
    blockchain_id: Option<B256>,
    /// Whether the store holds `blockchain_id` (else it is written with the next block).
    id_stored: bool,
    /// Sends in the staged batch, and in the sealed one not yet written: a re-send in them is
    /// not the first.
    staged_sends: HashSet<B256>,
    sealed_sends: HashSet<B256>,
    /// Whether a message without a known blockchain id was already reported.
    warned_no_id: bool,
    /// First sends and deliveries staged, counted when the batch is finished.
    counted: Vec<Counted>,
    /// Held from counting a batch until it is written or dropped.
    turn: Option<Turn>,
}

impl IcmDeriver {
    /// The deriver of chain `chain` from where `store` stands; `configured` is the chain's
    /// blockchain id as its source describes it, if it does.
    pub fn open(store: &Store, chain: u64, configured: Option<B256>) -> Result<Self, EvmError> {
        let stored = store.get::<IcmChains>(&chain)?.map(B256::from);
        if let (Some(s), Some(c)) = (stored, configured) {
            if s != c {
                tracing::warn!(
                    chain, stored = %s, configured = %c,
                    "the chain's messenger initialized another blockchain id than configured: \
                     using the messenger's"
                );
            }
        }
        Ok(Self {
            chain,
            blockchain_id: stored.or(configured),
            id_stored: stored.is_some(),
            staged_sends: HashSet::new(),
            sealed_sends: HashSet::new(),
            warned_no_id: false,
            counted: Vec::new(),
            turn: None,
        })
    }

    /// The hooks that give every followed EVM chain its ICM messages; `ids` are the blockchain
    /// ids the chains' sources describe (a chain not in it learns its own from its messenger).
    pub fn hooks(ids: BTreeMap<u64, B256>) -> BlockHooks {
        BlockHooks::new().with(move |store, chain| {
            let hook: Box<dyn BlockHook> =
                Box::new(IcmDeriver::open(store, chain, ids.get(&chain).copied())?);
            Ok(hook)
        })
    }

    fn log(
        &mut self,
        store: &Store,
        block: &Block,
        tx: &Tx,
        log: &MessengerLog,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        if let Some(id) = blockchain_id_initialized(&log.topics) {
            if self.blockchain_id.is_some_and(|known| known != id) {
                tracing::warn!(
                    chain = self.chain, initialized = %id,
                    "the messenger initialized another blockchain id than configured: using it"
                );
            }
            self.blockchain_id = Some(id);
            batch.put::<IcmChains>(&self.chain, &id.0);
            self.id_stored = true;
            return Ok(());
        }
        let event = match decode_teleporter_log(&log.topics, &log.data) {
            Ok(Some(e)) => e,
            Ok(None) => return Ok(()),
            Err(e) => {
                tracing::warn!(chain = self.chain, tx = %tx.hash, log = log.log_index, error = %e, "undecodable messenger log skipped");
                return Ok(());
            }
        };
        let Some(this) = self.blockchain_id else {
            if !self.warned_no_id {
                tracing::warn!(
                    chain = self.chain,
                    "ICM events skipped: the chain's blockchain id is not known (configure \
                     `blockchainId` in its source, or index it from before its messenger's first \
                     use)"
                );
                self.warned_no_id = true;
            }
            return Ok(());
        };
        if !self.id_stored {
            batch.put::<IcmChains>(&self.chain, &this.0);
            self.id_stored = true;
        }
        let at = TxAt {
            chain: self.chain,
            block: block.number,
            timestamp: block.timestamp,
            tx_hash: tx.hash.0,
            from: tx.from.0.0,
            gas_used: tx.gas_used,
            log_index: log.log_index,
        };
        match event {
            TeleporterEvent::SendCrossChainMessage {
                message_id: id,
                destination_blockchain_id: destination,
                message,
                fee_info,
            } => {
                if !self.follows_rule(id, this, destination, &message, "send") {
                    return Ok(());
                }
                let first = !self.staged_sends.contains(&id)
                    && !self.sealed_sends.contains(&id)
                    && store.get::<IcmSent>(&id.0)?.is_none();
                if !first {
                    return Ok(());
                }
                self.staged_sends.insert(id);
                self.counted.push(Counted {
                    id: id.0,
                    timestamp: at.timestamp,
                    source: this.0,
                    destination: destination.0,
                    send: true,
                });
                let entry = entry(this, destination, &message);
                batch.put::<IcmSent>(
                    &id.0,
                    &Linear(SentRow {
                        tx: at,
                        source: this.0,
                        destination: destination.0,
                        fee: fee(&fee_info),
                        message: encode_teleporter_message(&message),
                    }),
                );
                index(batch, at.timestamp, id, side::SOURCE, &entry);
                by_tx(batch, &at, id, side::SOURCE);
            }
            TeleporterEvent::ReceiveCrossChainMessage {
                message_id: id,
                source_blockchain_id: source,
                deliverer: _,
                reward_redeemer,
                message,
            } => {
                if B256::from(message.destinationBlockchainID) != this
                    || !self.follows_rule(id, source, this, &message, "delivery")
                {
                    return Ok(());
                }
                self.counted.push(Counted {
                    id: id.0,
                    timestamp: at.timestamp,
                    source: source.0,
                    destination: this.0,
                    send: false,
                });
                let entry = entry(source, this, &message);
                batch.put::<IcmReceived>(
                    &id.0,
                    &Linear(ReceivedRow {
                        tx: at,
                        source: source.0,
                        destination: this.0,
                        reward_redeemer: reward_redeemer.0.0,
                        message: encode_teleporter_message(&message),
                    }),
                );
                index(batch, at.timestamp, id, side::DESTINATION, &entry);
                by_tx(batch, &at, id, side::DESTINATION);
            }
            TeleporterEvent::MessageExecuted { message_id: id, .. } => {
                batch.put::<IcmExecutions>(
                    &id.0,
                    &Linear(ExecutionRow {
                        tx: at,
                        executed: true,
                    }),
                );
            }
            TeleporterEvent::MessageExecutionFailed { message_id: id, .. } => {
                batch.put::<IcmExecutions>(
                    &id.0,
                    &Linear(ExecutionRow {
                        tx: at,
                        executed: false,
                    }),
                );
            }
            TeleporterEvent::ReceiptReceived {
                message_id: id,
                relayer_reward_address,
                fee_info,
                ..
            } => {
                batch.put::<IcmReceipts>(
                    &id.0,
                    &Linear(ReceiptRow {
                        tx: at,
                        relayer_reward_address: relayer_reward_address.0.0,
                        fee: fee(&fee_info),
                    }),
                );
            }
            TeleporterEvent::AddFeeAmount {
                message_id: id,
                updated_fee_info,
            } => {
                batch.put::<IcmFees>(
                    &id.0,
                    &Linear(FeeRow {
                        tx: at,
                        fee: fee(&updated_fee_info),
                    }),
                );
            }
        }
        Ok(())
    }

    /// Whether `id` is the messenger's id for `message` from `source` to `destination`.
    fn follows_rule(
        &self,
        id: B256,
        source: B256,
        destination: B256,
        message: &TeleporterMessage,
        what: &str,
    ) -> bool {
        let want = message_id(
            TELEPORTER_MESSENGER_V1,
            source,
            destination,
            message.messageNonce,
        );
        if want != id {
            tracing::warn!(
                chain = self.chain, %id, expected = %want,
                "a {what} whose message id does not follow the messenger's rule: skipped"
            );
        }
        want == id
    }
}

fn fee(info: &TeleporterFeeInfo) -> Fee {
    Fee {
        token: info.feeTokenAddress.0.0,
        amount: info.amount.to_be_bytes(),
    }
}

fn entry(source: B256, destination: B256, message: &TeleporterMessage) -> IndexEntry {
    IndexEntry {
        source: source.0,
        destination: destination.0,
        from: message.originSenderAddress.0.0,
        to: message.destinationAddress.0.0,
    }
}

/// Notes that the transaction at `at` is side `written_by` of message `id`.
fn by_tx(batch: &mut WriteBatch, at: &TxAt, id: B256, written_by: u8) {
    batch.put::<IcmByTx>(
        &(at.chain, at.tx_hash, at.log_index),
        &Linear(TxMessage {
            id: id.0,
            side: written_by,
        }),
    );
}

/// A 20-byte address left-padded to a key word.
pub(crate) fn address_word(address: &[u8; 20]) -> Word {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(address);
    w
}

/// Writes one side's listing entries: by time, and under each party in each role (either end
/// once when both ends are the same party).
fn index(batch: &mut WriteBatch, timestamp: u64, id: B256, written_by: u8, e: &IndexEntry) {
    let value = Linear(*e);
    batch.put::<IcmOrder>(&(timestamp, id.0, written_by), &value);
    let parties = [
        (party::CHAIN, e.source, e.destination),
        (party::ADDRESS, address_word(&e.from), address_word(&e.to)),
    ];
    for (kind, source, destination) in parties {
        for (who, r) in [(source, role::SOURCE), (destination, role::DESTINATION)] {
            batch.put::<IcmByParty>(&(kind, who, r, timestamp, id.0, written_by), &value);
        }
        batch.put::<IcmByParty>(
            &(kind, source, role::EITHER, timestamp, id.0, written_by),
            &value,
        );
        if destination != source {
            batch.put::<IcmByParty>(
                &(kind, destination, role::EITHER, timestamp, id.0, written_by),
                &value,
            );
        }
    }
}

impl BlockHook for IcmDeriver {
    fn block(
        &mut self,
        store: &Store,
        chain: u64,
        block: &Block,
        batch: &mut WriteBatch,
    ) -> Result<(), EvmError> {
        if chain != self.chain {
            return Err(EvmError::Corrupt(format!(
                "the ICM deriver of chain {} was given a block of chain {chain}",
                self.chain
            )));
        }
        for tx in &block.txs {
            for log in &tx.messenger_logs {
                self.log(store, block, tx, log, batch)?;
            }
        }
        Ok(())
    }
}

impl Staging for IcmDeriver {
    fn finish(&mut self, batch: &mut WriteBatch, view: &Store) -> Result<(), DeriveError> {
        if self.counted.is_empty() {
            return Ok(());
        }
        // Until this batch is written (`committed`) or dropped (`discard`).
        if self.turn.is_none() {
            self.turn = Some(Turn::take());
        }
        let counted = std::mem::take(&mut self.counted);
        Ok(self.count(&counted, batch, view)?)
    }

    fn seal(&mut self) {
        let staged = std::mem::take(&mut self.staged_sends);
        self.sealed_sends.extend(staged);
    }

    fn committed(&mut self) {
        self.sealed_sends.clear();
        self.turn = None;
    }

    fn discard(&mut self) {
        self.staged_sends.clear();
        self.sealed_sends.clear();
        self.counted.clear();
        self.turn = None;
        // The id may have been staged in a dropped batch: write it again with the next block.
        self.id_stored = false;
    }
}

impl IcmDeriver {
    /// Counts the batch's first sends and deliveries, holding the turn, in this chain's own
    /// counter rows. A message counts once: a send at its time, moving the count of a delivery
    /// counted before it (`icm_counted_deliveries`) to itself; a delivery at its time only when
    /// its send is not in the store or this batch, nor the delivery counted already. Every
    /// other chain's batch that counted was written before the turn came here, so the second
    /// side to be written always sees the first, whichever chain is indexed first.
    fn count(
        &mut self,
        counted: &[Counted],
        batch: &mut WriteBatch,
        view: &Store,
    ) -> Result<(), snowline_store::StoreError> {
        let (sends, deliveries): (Vec<&Counted>, Vec<&Counted>) =
            counted.iter().partition(|c| c.send);
        // (hour, source, destination) -> change.
        let mut deltas: BTreeMap<(u64, Word, Word), i64> = BTreeMap::new();
        let mut add = |t: u64, c: &Counted, n: i64| {
            *deltas
                .entry((Interval::Hour.start(t), c.source, c.destination))
                .or_insert(0) += n;
        };
        let ids: Vec<Word> = sends.iter().map(|c| c.id).collect();
        let earlier = view.multi_get::<IcmCountedDeliveries>(&ids)?;
        for (c, delivered) in sends.iter().zip(earlier) {
            add(c.timestamp, c, 1);
            if let Some(t) = delivered {
                add(t, c, -1);
            }
        }
        let sent_here: HashSet<Word> = ids.into_iter().collect();
        let ids: Vec<Word> = deliveries.iter().map(|c| c.id).collect();
        let sent = view.multi_get::<IcmSent>(&ids)?;
        let before = view.multi_get::<IcmCountedDeliveries>(&ids)?;
        let mut counted_here = HashSet::new();
        for ((c, sent), before) in deliveries.iter().zip(sent).zip(before) {
            if sent.is_some()
                || before.is_some()
                || sent_here.contains(&c.id)
                || !counted_here.insert(c.id)
            {
                continue;
            }
            add(c.timestamp, c, 1);
            batch.put::<IcmCountedDeliveries>(&c.id, &c.timestamp);
        }
        self.add_counts(&deltas, batch, view)
    }

    /// Adds `deltas` (by hour, source and destination) to this chain's counter rows of every
    /// interval and shape. Only this chain writes rows keyed by its id, and its previous batch
    /// is written, so the store's values are current.
    fn add_counts(
        &self,
        deltas: &BTreeMap<(u64, Word, Word), i64>,
        batch: &mut WriteBatch,
        view: &Store,
    ) -> Result<(), snowline_store::StoreError> {
        type Key = <IcmCounts as snowline_store::Table>::Key;
        let mut rows: BTreeMap<Key, i64> = BTreeMap::new();
        for (&(hour, source, destination), &n) in deltas {
            if n == 0 {
                continue;
            }
            for interval in Interval::ALL {
                let start = interval.start(hour);
                for shape in Shape::all() {
                    let key = (
                        shape.code(interval),
                        shape.fixed(&source, &destination),
                        start,
                        shape.grouped(&source, &destination),
                        self.chain,
                    );
                    *rows.entry(key).or_insert(0) += n;
                }
            }
        }
        let keys: Vec<Key> = rows.keys().copied().collect();
        let stored = view.multi_get::<IcmCounts>(&keys)?;
        for ((key, n), old) in rows.iter().zip(stored) {
            match old.unwrap_or(0).saturating_add(*n) {
                0 => {
                    batch.delete::<IcmCounts>(key);
                }
                total => {
                    batch.put::<IcmCounts>(key, &total);
                }
            }
        }
        Ok(())
    }
}
