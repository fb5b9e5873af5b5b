//! [`PChain`]: the node-index [`Derive`] hook that fills the P-Chain tables from accepted
//! `P/block` containers, in the same atomic batch as the containers. Blocks arrive in height
//! order; a proposal's effect is applied with the option (commit or abort) accepted after it,
//! and the proposal waits in the store meanwhile, so a batch may end between the two. X-Chain
//! vertices and blocks give it what X exports to and imports from P's atomic memory, in
//! whatever order the two chains' containers arrive.

use snowline_derive::atomic::{self, Imported, SharedRows, Stand};
use snowline_derive::{
    Derive, DeriveError, PendingRows, Staging, StagingParts, drop_batch, write_batch,
};
use snowline_store::{Direction, Linear, ReadView, Store, WriteBatch};
use snowline_types::atomic::{AtomicTxs, SharedMove, p_block_time, p_exported};
use snowline_types::codec::{Writer, marshal};
use snowline_types::components::UtxoId;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::{OutputOwners, TransferOutput};
use snowline_types::platformvm::reward::{Config as RewardConfig, split};
use snowline_types::platformvm::reward_utxos::{
    RewardBranch, RewardUtxoKind, defers_delegatee_reward, delegator_reward_utxos,
    validator_reward_utxos,
};
use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::platformvm::{Block, PChainBlock, PGenesisState, TransferableOut, Utxo};
use snowline_types::warp::l1::{
    L1Message, PChainOwner, conversion_validation_id, registration_validation_id,
};
use snowline_types::{Id, ShortId};

use crate::container::{P_DERIVE_PATHS, PContainer};
use crate::error::PChainError;
use crate::journal::{Journal, L1Change, L1Note, PNote, Payout, RewardNote};
use crate::l1_fee::{FeeConfig, FeeState};
use crate::l1_messages::{l1_message, register_message};
use crate::metrics::l1_usage::L1Usage;
use crate::metrics::staking_days::StakingDays;
use crate::pending::{load, upsert};
use crate::rows::{
    BlockRow, CBlockRow, ChainRow, Conversion, Event, Holding, L1ValidatorRow, L1ValidatorState,
    Origin, Settled, StakerAddresses, StakerKind, StakerRow, SubnetRow, TxPlace, TxRow, UtxoRow,
    ValidatorPeriod,
};
use crate::staking::{starts_at_acceptance, terms};
use crate::tables::*;
use crate::tx_index::{TxIndex, c_atomic_owners, l1_validations, named_owners};
use crate::validator_orders;
use snowline_derive::UtxoNote;

/// Counters of what [`PChain`] applied since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PChainStats {
    /// Blocks applied.
    pub blocks: u64,
    /// Txs applied (a proposal counts when its option is accepted).
    pub txs: u64,
    /// UTXOs created (outputs, stakes, rewards, refunds, exports, genesis).
    pub utxos_created: u64,
    /// UTXOs consumed.
    pub utxos_consumed: u64,
    /// Inputs whose UTXO is unknown (imported from a chain not indexed) or already consumed.
    pub missing_inputs: u64,
    /// Imports between X and P derived before the export that creates their UTXO (the other
    /// chain's containers came later): remembered until the export creates it consumed.
    pub early_spends: u64,
    /// Stakers added.
    pub stakers: u64,
    /// Stakers settled by a `RewardValidatorTx`.
    pub settled: u64,
    /// L1 validators registered (conversions included).
    pub l1_validators: u64,
    /// Txs the index does not derive from (Helicon auto-renewed validators, unscheduled).
    pub skipped: u64,
    /// Reward proposals for a staker the index never saw (history followed without the
    /// P-Chain genesis, or from a later height): nothing to settle, skipped.
    pub unknown_stakers: u64,
}

/// The P-Chain deriver for the Data API. Keeps what the unwritten batches changed, because
/// reads through the store do not see it yet.
#[derive(Debug)]
pub struct PChain {
    network_id: u32,
    p_chain: Id,
    x_chain: Id,
    c_chain: Id,
    avax: Id,
    reward: RewardConfig,
    fee: FeeConfig,
    utxos: PendingRows<PhUtxos>,
    early: PendingRows<PhEarlySpends>,
    stakers: PendingRows<PhStakers>,
    staker_addresses: PendingRows<PhStakerAddresses>,
    delegations: PendingRows<PhDelegations>,
    validators: PendingRows<PhCurrentValidators>,
    subnets: PendingRows<PhSubnets>,
    l1: PendingRows<PhL1Validators>,
    l1_active: PendingRows<PhL1Active>,
    meta: PendingRows<PhMeta>,
    balances: PendingRows<PhBalances>,
    stake_sums: PendingRows<PhStakeSums>,
    stakeable_locked: PendingRows<PhStakeableLocked>,
    proposal: PendingRows<PhPendingProposal>,
    spans: PendingRows<PhValidatorSpans>,
    usage: L1Usage,
    staking: StakingDays,
    txs: TxIndex,
    stats: PChainStats,
    /// Told what each P-Chain block did, when a hook after this one asked (`with_journal`).
    journal: Option<Journal>,
    /// The chain of the container being applied (none for the genesis): a UTXO move of
    /// another chain's tx is told late ([`Journal::utxo`]).
    deriving: Option<Id>,
}

/// Whether `utxo` is locked at `time` (Unix seconds): a locktime, or a stakeable lock, after it.
pub(crate) fn locked_at(utxo: &Utxo, time: u64) -> bool {
    utxo.output.owners().locktime > time || utxo.output.stakeable_locktime() > time
}

fn index(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Where a tx sits while it is applied.
#[derive(Debug, Clone, Copy)]
struct At {
    event: Event,
    index: u32,
    /// Where the tx's bytes lie in its block's stored container; `None` off a block (genesis).
    place: Option<TxPlace>,
}

impl PChain {
    /// A deriver for network `network_id`, whose P-Chain is `p_chain`, sharing atomic memory
    /// with the X-Chain `x_chain`, and whose AVAX asset is `avax` (L1 balances are refunded in
    /// it).
    /// The C-Chain it shares atomic memory with is the known network's (`with_c_chain` sets
    /// another).
    pub fn new(network_id: u32, p_chain: Id, x_chain: Id, avax: Id) -> Self {
        Self {
            network_id,
            p_chain,
            x_chain,
            c_chain: snowline_types::NetworkInfo::lookup(network_id)
                .map_or(Id::EMPTY, |n| n.c_chain_id),
            avax,
            reward: RewardConfig::for_network(network_id),
            fee: FeeConfig::for_network(network_id),
            utxos: PendingRows::default(),
            early: PendingRows::default(),
            stakers: PendingRows::default(),
            staker_addresses: PendingRows::default(),
            delegations: PendingRows::default(),
            validators: PendingRows::default(),
            subnets: PendingRows::default(),
            l1: PendingRows::default(),
            l1_active: PendingRows::default(),
            meta: PendingRows::default(),
            balances: PendingRows::default(),
            stake_sums: PendingRows::default(),
            stakeable_locked: PendingRows::default(),
            proposal: PendingRows::default(),
            spans: PendingRows::default(),
            usage: L1Usage::default(),
            staking: StakingDays::default(),
            txs: TxIndex::default(),
            stats: PChainStats::default(),
            journal: None,
            deriving: None,
        }
    }

    /// The same deriver telling `journal` what each P-Chain block did ([`Note`]s), for a hook
    /// that rides the same batch after this one.
    pub fn with_journal(mut self, journal: Journal) -> Self {
        self.journal = Some(journal);
        self
    }

    /// Whether a P-Chain block (not another chain's atomic txs) is being applied.
    fn noting(&self) -> bool {
        self.journal.is_some() && self.deriving == Some(self.p_chain)
    }

    /// Adds `note()` to the journal while a P-Chain block is applied and a journal is held.
    fn note(&self, note: impl FnOnce() -> PNote) {
        if let Some(j) = self.journal.as_ref().filter(|_| self.noting()) {
            j.push(snowline_derive::Note::Room(note()));
        }
    }

    /// Tells the journal (when held) that `ev`'s tx, of chain `chain`, created or consumed a
    /// UTXO: a P-Chain tx's, or a C-Chain atomic tx's with P's atomic memory (the X-Chain
    /// history tells the X-Chain's).
    fn tell(&self, chain: Id, ev: &Event, note: impl FnOnce(Id) -> UtxoNote) {
        if let (Some(j), Some(deriving)) = (&self.journal, self.deriving) {
            j.utxo(note(chain), deriving, Some(ev.height), ev.timestamp);
        }
    }

    /// The same deriver sharing atomic memory with the C-Chain `c_chain`.
    pub fn with_c_chain(mut self, c_chain: Id) -> Self {
        self.c_chain = c_chain;
        self
    }

    /// The same deriver charging L1 validators by `fee` rather than the network's configuration
    /// (tests run a devnet's history at another price).
    pub fn with_fee_config(mut self, fee: FeeConfig) -> Self {
        self.fee = fee;
        self
    }

    /// What was applied so far.
    pub fn stats(&self) -> PChainStats {
        self.stats
    }

    fn meta(&self, view: &impl ReadView, key: u8) -> Result<u64, PChainError> {
        Ok(load(&self.meta, view, &key)?.0.unwrap_or(0))
    }

    fn set_meta(&mut self, view: &impl ReadView, key: u8, value: u64) -> Result<(), PChainError> {
        upsert(&mut self.meta, view, key, value)
    }

    /// Adds `amount` to the burned-AVAX counter `key` (`META_P_BURNED`, `META_C_BURNED`).
    fn add_burned(
        &mut self,
        view: &impl ReadView,
        key: u8,
        amount: u64,
    ) -> Result<(), PChainError> {
        if amount == 0 {
            return Ok(());
        }
        let sum = self.meta(view, key)?.saturating_add(amount);
        self.set_meta(view, key, sum)
    }

    /// Adds (`enters`) or takes away a primary-network staker's potential reward and stake in
    /// the counters of the stakers not settled (`META_UNSETTLED_*`).
    fn count_unsettled(
        &mut self,
        view: &impl ReadView,
        row: &StakerRow,
        enters: bool,
    ) -> Result<(), PChainError> {
        if !matches!(row.kind, StakerKind::Validator | StakerKind::Delegator) {
            return Ok(());
        }
        for (key, amount) in [
            (META_UNSETTLED_REWARDS, row.potential_reward),
            (META_UNSETTLED_STAKE, row.weight),
        ] {
            let sum = self.meta(view, key)?;
            let sum = if enters {
                sum.saturating_add(amount)
            } else {
                sum.saturating_sub(amount)
            };
            self.set_meta(view, key, sum)?;
        }
        Ok(())
    }

    /// A delegator (`row`) of validator `validator` is accepted (`enters`) or settled (its fee
    /// paid when `rewarded`): the validator's delegations and, while it is current, its
    /// delegation capacity's place in the validator orders.
    fn delegate(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        validator: Id,
        row: &StakerRow,
        (enters, rewarded): (bool, bool),
    ) -> Result<(), PChainError> {
        let Some(Linear(vrow)) = load(&self.stakers, view, &validator)?.0 else {
            return Ok(());
        };
        let (old, stored) = load(&self.delegations, view, &validator)?;
        let old = old.map(|Linear(d)| d).unwrap_or_default();
        let mut new = old;
        let fee = split(row.potential_reward, vrow.delegation_shares).0;
        new.apply(row.weight, fee, enters, rewarded);
        if vrow.settled.is_none() {
            validator_orders::reweigh(batch, validator, &vrow, (&old, &new));
        }
        self.delegations.put(validator, Linear(new), stored);
        Ok(())
    }

    /// Applies `genesis` once, in its own batch: its UTXOs, validators (with their potential
    /// rewards, the supply growing by each as avalanchego's `syncGenesis` does), chains and the
    /// atomic UTXOs waiting for the P-Chain. Returns `false` (and writes nothing) when already
    /// applied.
    pub fn apply_genesis(
        &mut self,
        store: &Store,
        genesis: &PGenesisState,
    ) -> Result<bool, PChainError> {
        if store.get::<PhMeta>(&META_GENESIS_TIME)?.is_some() {
            return Ok(false);
        }
        let mut batch = WriteBatch::new();
        if let Err(e) = self.stage_genesis(&mut batch, store, genesis) {
            drop_batch(self, &mut batch);
            return Err(e);
        }
        write_batch(store, self, &mut batch)?;
        Ok(true)
    }

    fn stage_genesis(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        genesis: &PGenesisState,
    ) -> Result<(), PChainError> {
        let ts = genesis.timestamp;
        let event = |tx_id: Id| Event {
            tx_id,
            height: 0,
            timestamp: ts,
        };
        self.set_meta(view, META_CURRENT_SUPPLY, genesis.initial_supply)?;
        self.set_meta(view, META_INITIAL_SUPPLY, genesis.initial_supply)?;
        for utxo in &genesis.utxos {
            let event = event(utxo.utxo_id.tx_id);
            let chains = (self.p_chain, self.p_chain);
            self.create(
                batch,
                view,
                utxo,
                Holding::Native,
                Origin::Output,
                chains,
                event,
            )?;
        }
        for (i, tx) in genesis.validators.iter().enumerate() {
            let at = At {
                event: event(tx.id),
                index: index(i),
                place: None,
            };
            self.put_tx(batch, &tx.tx.unsigned, at);
            // Genesis stakers start when they say (`syncGenesis`: pre-Durango by definition).
            self.add_staker(batch, view, &tx.tx.unsigned, at.event, true)?;
        }
        for (i, tx) in genesis.chains.iter().enumerate() {
            let at = At {
                event: event(tx.id),
                index: index(i),
                place: None,
            };
            self.apply_tx(batch, view, &tx.tx.unsigned, at)?;
        }
        for (source, utxo) in &genesis.atomic_utxos {
            let event = event(utxo.utxo_id.tx_id);
            let chains = (*source, self.p_chain);
            self.create(
                batch,
                view,
                utxo,
                Holding::ExportedToP,
                Origin::Output,
                chains,
                event,
            )?;
        }
        self.set_meta(view, META_CHAIN_TIME, ts)?;
        self.set_meta(view, META_GENESIS_TIME, ts)?;
        Ok(())
    }

    /// Applies one accepted container (`container` is `record` decoded) to `batch`: a
    /// `P/block`, or an X-Chain vertex or block's traffic with P's atomic memory; `view` is the
    /// committed store.
    pub fn apply_parsed(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        container: &PContainer,
    ) -> Result<(), PChainError> {
        self.txs.end();
        match container {
            PContainer::Block(block) => {
                self.deriving = Some(self.p_chain);
                let applied = self.apply_block(batch, view, record, block);
                self.deriving = None;
                applied
            }
            PContainer::X(txs) => {
                self.deriving = Some(self.x_chain);
                let applied = self.apply_shared(batch, view, txs, self.x_chain);
                self.deriving = None;
                applied
            }
            PContainer::C(txs, atomic, block) => {
                let burned = atomic
                    .iter()
                    .fold(0u64, |b, t| b.saturating_add(t.burned(&self.avax)));
                self.add_burned(view, META_C_BURNED, burned)?;
                put_c_block(batch, txs.height, block);
                self.deriving = Some(self.c_chain);
                let applied = self.apply_shared(batch, view, txs, self.c_chain);
                self.deriving = None;
                applied
            }
            PContainer::Other => Ok(()),
        }
    }

    /// Applies an X-Chain vertex or block's or a C-Chain block's atomic txs (`source` its chain):
    /// an export to P creates its UTXOs in P's atomic memory (created on `source`, at the
    /// container's height and time); an import from P consumes the P exports it takes
    /// (consumed on `source`, their destination). A tx seen again (in
    /// another container) changes nothing.
    fn apply_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        txs: &AtomicTxs<Utxo>,
        source: Id,
    ) -> Result<(), PChainError> {
        let event = |tx_id: &Id| Event {
            tx_id: *tx_id,
            height: txs.height,
            timestamp: txs.timestamp,
        };
        let chains = (source, self.p_chain);
        for m in txs.moves_for(self.p_chain) {
            match m {
                SharedMove::Arrives { tx_id, utxo } => {
                    let ev = event(&tx_id);
                    self.create_shared(batch, view, utxo, Holding::ExportedToP, chains, ev)?;
                }
                SharedMove::Leaves { tx_id, utxo_id } => {
                    self.consume_shared(batch, view, utxo_id, event(&tx_id))?;
                }
            }
        }
        Ok(())
    }

    /// Applies one accepted `P/block`.
    fn apply_block(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        record: &ContainerRecord,
        container: &PChainBlock,
    ) -> Result<(), PChainError> {
        let parsed = &container.block;
        let block = &parsed.block;
        let height = block.height();
        let ts = p_block_time(container, record.timestamp_ns);
        self.advance_time(batch, view, ts)?;
        let event = |tx_id: Id| Event {
            tx_id,
            height,
            timestamp: ts,
        };
        let txs = block.txs();
        let ids = &parsed.tx_ids;
        let place = |i: usize| container.tx_range(i).and_then(TxPlace::of);
        match block {
            Block::ApricotProposal { tx, .. } | Block::BanffProposal { tx, .. } => {
                let decisions = txs.len().saturating_sub(1);
                for (i, (t, id)) in txs.iter().zip(ids).take(decisions).enumerate() {
                    let at = At {
                        event: event(*id),
                        index: index(i),
                        place: place(i),
                    };
                    self.txs.begin(*id, height);
                    self.apply_tx(batch, view, &t.unsigned, at)?;
                    self.index_staking(batch, view)?;
                }
                self.txs.end();
                let id = ids.get(decisions).copied().unwrap_or_default();
                self.put_tx(
                    batch,
                    &tx.unsigned,
                    At {
                        event: event(id),
                        index: index(decisions),
                        place: place(decisions),
                    },
                );
                let mut w = Writer::new();
                w.raw(&id.0);
                w.raw(&marshal(&tx.unsigned));
                upsert(&mut self.proposal, view, 0, w.into_bytes())?;
            }
            Block::ApricotCommit { .. }
            | Block::BanffCommit { .. }
            | Block::ApricotAbort { .. }
            | Block::BanffAbort { .. } => {
                let commit = matches!(
                    block,
                    Block::ApricotCommit { .. } | Block::BanffCommit { .. }
                );
                let (pending, stored) = load(&self.proposal, view, &0)?;
                let Some(bytes) = pending else {
                    return Err(PChainError::Inconsistent {
                        height,
                        reason: "an option block without a proposal before it".into(),
                    });
                };
                self.proposal.delete(0, stored);
                let (id, unsigned) = decode_proposal(&bytes)?;
                // An option block is the child of its proposal block, one height below.
                self.txs.begin(id, height.saturating_sub(1));
                self.apply_proposal(batch, view, &unsigned, event(id), commit)?;
                self.index_staking(batch, view)?;
                self.txs.end();
            }
            _ => {
                for (i, (t, id)) in txs.iter().zip(ids).enumerate() {
                    let at = At {
                        event: event(*id),
                        index: index(i),
                        place: place(i),
                    };
                    self.txs.begin(*id, height);
                    self.apply_tx(batch, view, &t.unsigned, at)?;
                    self.index_staking(batch, view)?;
                }
                self.txs.end();
            }
        }
        let row = BlockRow {
            id: container.id(),
            parent_id: container
                .proposer
                .map_or(block.parent_id(), |p| p.parent_id),
            timestamp: ts,
            block_type: block.type_name().to_owned(),
            tx_ids: ids.clone(),
            size: u32::try_from(record.bytes.len()).unwrap_or(u32::MAX),
            current_supply: self.meta(view, META_CURRENT_SUPPLY)?,
            active_l1_validators: u32::try_from(self.meta(view, META_L1_ACTIVE)?)
                .unwrap_or(u32::MAX),
            l1_accrued_fees: self.meta(view, META_L1_ACCRUED_FEES)?,
            proposer: container.proposer,
        };
        batch.put::<PhBlocks>(&height, &Linear(row));
        if let Some(node) = container.proposer.and_then(|p| p.node_id) {
            batch.put::<PhBlocksByProposer>(&(node, ts, height), &());
        }
        self.set_meta(view, META_HEIGHT, height)?;
        self.stats.blocks += 1;
        Ok(())
    }

    /// Moves the chain time to `ts`: L1 validators pay their fees for the elapsed seconds and
    /// those whose balance is used up are deactivated (`advanceValidatorFeeState`).
    fn advance_time(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        ts: u64,
    ) -> Result<(), PChainError> {
        let now = self.meta(view, META_CHAIN_TIME)?;
        if ts <= now {
            return Ok(());
        }
        self.set_meta(view, META_CHAIN_TIME, ts)?;
        self.staking.advance(batch, view, ts)?;
        // From Etna on, every second costs each L1 validator the current price, whether any is
        // active or not (`advanceValidatorFeeState`).
        if !crate::upgrades::etna(self.network_id, ts) {
            return Ok(());
        }
        let state = FeeState {
            current: self.meta(view, META_L1_ACTIVE)?,
            excess: self.meta(view, META_L1_FEE_EXCESS)?,
        };
        let seconds = ts - now;
        let before = self.meta(view, META_L1_ACCRUED_FEES)?;
        let accrued = before.saturating_add(state.cost_of(&self.fee, seconds));
        self.set_meta(view, META_L1_ACCRUED_FEES, accrued)?;
        let excess = state.advance(self.fee.target, seconds).excess;
        self.set_meta(view, META_L1_FEE_EXCESS, excess)?;
        if let Some(start) = L1Usage::days(batch, &self.fee, state, (now, before), (ts, accrued)) {
            self.set_meta(view, META_L1_DAY_START, start)?;
        }
        // A validator whose balance ran out within the gap paid up to its end level (the
        // accrued fee went on with it counted in the state until this block, as avalanchego's).
        for (end, vid) in self.exhausted(view, accrued)? {
            self.deactivate(batch, view, (vid, end), ts)?;
        }
        Ok(())
    }

    /// The active L1 validators whose end accumulated fee is at most `accrued`.
    fn exhausted(&self, view: &impl ReadView, accrued: u64) -> Result<Vec<(u64, Id)>, PChainError> {
        let mut out: Vec<(u64, Id)> = Vec::new();
        for entry in view.scan::<PhL1Active, _>(..=(accrued, Id([0xff; 32])), Direction::Forward)? {
            let (key, ()) = entry?;
            if !matches!(self.l1_active.get(&key), Some((None, _))) {
                out.push(key);
            }
        }
        // Keys the unwritten batches added (a key both stored and re-added comes twice).
        out.extend(
            self.l1_active
                .changes()
                .filter(|(key, value)| value.is_some() && key.0 <= accrued)
                .map(|(key, _)| *key),
        );
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    /// Marks an active L1 validator inactive (its balance used up).
    /// `ts`: the chain time that used it up.
    fn deactivate(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        (vid, end): (Id, u64),
        ts: u64,
    ) -> Result<(), PChainError> {
        self.leave_active(view, vid, end)?;
        let (row, stored) = load(&self.l1, view, &vid)?;
        if let Some(Linear(mut row)) = row {
            self.usage.stop(batch, view, vid, row.subnet_id, end)?;
            self.l1_counts(batch, view, &row, ts, false)?;
            self.note(|| {
                PNote::L1(L1Note {
                    tx: None,
                    validation_id: vid,
                    subnet: row.subnet_id,
                    node: row.node_id.clone(),
                    change: L1Change::Exhausted,
                    balance: 0,
                    refunded: 0,
                })
            });
            row.end_accumulated_fee = 0;
            self.l1.put(vid, Linear(row), stored);
        }
        Ok(())
    }

    /// Marks an L1 validator active until `end` accrued fees.
    fn activate(&mut self, view: &impl ReadView, vid: Id, end: u64) -> Result<(), PChainError> {
        upsert(&mut self.l1_active, view, (end, vid), ())?;
        let active = self.meta(view, META_L1_ACTIVE)?.saturating_add(1);
        self.set_meta(view, META_L1_ACTIVE, active)
    }

    /// Takes an L1 validator active until `end` out of the active set (its row is the
    /// caller's to change).
    fn leave_active(&mut self, view: &impl ReadView, vid: Id, end: u64) -> Result<(), PChainError> {
        let (_, stored) = load(&self.l1_active, view, &(end, vid))?;
        self.l1_active.delete((end, vid), stored);
        let active = self.meta(view, META_L1_ACTIVE)?.saturating_sub(1);
        self.set_meta(view, META_L1_ACTIVE, active)
    }

    fn put_tx(&mut self, batch: &mut WriteBatch, tx: &UnsignedTx, at: At) {
        let row = TxRow {
            event: at.event,
            index: at.index,
            type_id: tx.type_id(),
            place: at.place,
        };
        batch.put::<PhTxs>(&at.event.tx_id, &Linear(row));
        self.stats.txs += 1;
    }

    /// Applies a decision tx: consumes its inputs, creates its outputs, and does what its type
    /// does to stakers, subnets, chains and L1 validators.
    fn apply_tx(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        tx: &UnsignedTx,
        at: At,
    ) -> Result<(), PChainError> {
        let ev = at.event;
        self.put_tx(batch, tx, at);
        self.add_burned(view, META_P_BURNED, tx.burned(&self.avax))?;
        if let Some(base) = tx.base() {
            for input in &base.inputs {
                self.consume(batch, view, input.utxo_id.id(), ev)?;
            }
        }
        if let UnsignedTx::ImportTx(t) = tx {
            for input in &t.imported_inputs {
                if t.source_chain == self.x_chain || t.source_chain == self.c_chain {
                    self.consume_shared(batch, view, input.utxo_id.id(), ev)?;
                } else {
                    self.consume(batch, view, input.utxo_id.id(), ev)?;
                }
            }
        }
        let chains = (self.p_chain, self.p_chain);
        for (i, out) in tx.outputs().iter().enumerate() {
            let utxo = Utxo {
                utxo_id: UtxoId::new(ev.tx_id, index(i)),
                asset_id: out.asset_id,
                output: out.output.clone(),
            };
            self.create(
                batch,
                view,
                &utxo,
                Holding::Native,
                Origin::Output,
                chains,
                ev,
            )?;
        }
        match tx {
            UnsignedTx::ExportTx(t) => {
                let chains = (self.p_chain, t.destination_chain);
                let holding = Holding::ExportedFromP;
                for utxo in p_exported(t, ev.tx_id) {
                    if t.destination_chain == self.x_chain || t.destination_chain == self.c_chain {
                        self.create_shared(batch, view, &utxo, holding, chains, ev)?;
                    } else {
                        self.create(batch, view, &utxo, holding, Origin::Output, chains, ev)?;
                    }
                }
            }
            UnsignedTx::AddValidatorTx(_)
            | UnsignedTx::AddDelegatorTx(_)
            | UnsignedTx::AddSubnetValidatorTx(_)
            | UnsignedTx::AddPermissionlessValidatorTx(_)
            | UnsignedTx::AddPermissionlessDelegatorTx(_) => {
                self.add_staker(batch, view, tx, ev, false)?;
            }
            UnsignedTx::RemoveSubnetValidatorTx(t) => {
                let key = (t.subnet_id, t.node_id);
                let (current, stored) = load(&self.validators, view, &key)?;
                if let Some(staker) = current {
                    self.validators.delete(key, stored);
                    self.close_staker(
                        batch,
                        view,
                        staker,
                        Settled {
                            event: ev,
                            rewarded: false,
                        },
                    )?;
                }
            }
            UnsignedTx::CreateSubnetTx(t) => {
                let row = SubnetRow {
                    created: ev,
                    owner: t.owner.owners().clone(),
                    conversion: None,
                };
                upsert(&mut self.subnets, view, ev.tx_id, Linear(row))?;
                batch.put::<PhOrders>(&(ORDER_SUBNETS, ev.height, ev.tx_id), &());
            }
            UnsignedTx::TransferSubnetOwnershipTx(t) => {
                let (row, stored) = load(&self.subnets, view, &t.subnet_id)?;
                if let Some(Linear(mut row)) = row {
                    row.owner = t.owner.owners().clone();
                    self.subnets.put(t.subnet_id, Linear(row), stored);
                }
            }
            UnsignedTx::CreateChainTx(t) => {
                let row = ChainRow {
                    subnet_id: t.subnet_id,
                    name: t.chain_name.clone(),
                    vm_id: t.vm_id,
                    fx_ids: t.fx_ids.clone(),
                    genesis: t.genesis_data.clone(),
                    created: ev,
                };
                batch.put::<PhChains>(&ev.tx_id, &Linear(row));
            }
            UnsignedTx::ConvertSubnetToL1Tx(t) => {
                let (row, stored) = load(&self.subnets, view, &t.subnet_id)?;
                if let Some(Linear(mut row)) = row {
                    row.conversion = Some(Conversion {
                        event: ev,
                        chain_id: t.chain_id,
                        address: t.address.clone(),
                    });
                    self.subnets.put(t.subnet_id, Linear(row), stored);
                }
                if self.meta(view, META_L1_SINCE)? == 0 {
                    self.set_meta(view, META_L1_SINCE, ev.timestamp)?;
                }
                let accrued = self.meta(view, META_L1_ACCRUED_FEES)?;
                for (i, v) in t.validators.iter().enumerate() {
                    let vid = conversion_validation_id(&t.subnet_id, index(i));
                    let row = L1ValidatorRow {
                        subnet_id: t.subnet_id,
                        node_id: v.node_id.clone(),
                        public_key: v.signer.public_key,
                        proof_of_possession: v.signer.proof_of_possession,
                        weight: v.weight,
                        end_accumulated_fee: if v.balance == 0 {
                            0
                        } else {
                            accrued.saturating_add(v.balance)
                        },
                        remaining_balance_owner: v.remaining_balance_owner.clone(),
                        deactivation_owner: v.deactivation_owner.clone(),
                        created: ev,
                        min_nonce: 0,
                    };
                    self.register_l1(batch, view, vid, row)?;
                }
            }
            UnsignedTx::RegisterL1ValidatorTx(t) => {
                let (message, payload) =
                    register_message(&t.message).ok_or_else(|| PChainError::Inconsistent {
                        height: ev.height,
                        reason: format!(
                            "RegisterL1ValidatorTx {} carries no RegisterL1Validator message",
                            ev.tx_id
                        ),
                    })?;
                let accrued = self.meta(view, META_L1_ACCRUED_FEES)?;
                let row = L1ValidatorRow {
                    subnet_id: message.subnet_id,
                    node_id: message.node_id,
                    public_key: message.bls_public_key,
                    proof_of_possession: t.proof_of_possession,
                    weight: message.weight,
                    end_accumulated_fee: if t.balance == 0 {
                        0
                    } else {
                        accrued.saturating_add(t.balance)
                    },
                    remaining_balance_owner: message.remaining_balance_owner,
                    deactivation_owner: message.disable_owner,
                    created: ev,
                    min_nonce: 0,
                };
                self.register_l1(batch, view, registration_validation_id(&payload), row)?;
            }
            UnsignedTx::SetL1ValidatorWeightTx(t) => {
                let Some(L1Message::L1ValidatorWeight(w)) = l1_message(&t.message) else {
                    return Err(PChainError::Inconsistent {
                        height: ev.height,
                        reason: format!(
                            "SetL1ValidatorWeightTx {} carries no L1ValidatorWeight message",
                            ev.tx_id
                        ),
                    });
                };
                let (row, stored) = load(&self.l1, view, &w.validation_id)?;
                if let Some(Linear(mut row)) = row {
                    row.min_nonce = w.nonce.saturating_add(1);
                    if w.weight == 0 {
                        let refunded =
                            self.withdraw(batch, view, w.validation_id, &mut row, tx, ev)?;
                        self.note(|| {
                            PNote::L1(L1Note {
                                tx: Some(ev.tx_id),
                                validation_id: w.validation_id,
                                subnet: row.subnet_id,
                                node: row.node_id.clone(),
                                change: L1Change::Removed,
                                balance: 0,
                                refunded,
                            })
                        });
                    } else if row.end_accumulated_fee > 0 {
                        let weights = (row.weight, w.weight);
                        self.staking
                            .reweigh(batch, view, row.subnet_id, ev.timestamp, weights)?;
                    }
                    row.weight = w.weight;
                    record_l1(batch, w.validation_id, ev.height, &row);
                    self.l1.put(w.validation_id, Linear(row), stored);
                }
            }
            UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => {
                let (row, stored) = load(&self.l1, view, &t.validation_id)?;
                if let Some(Linear(mut row)) = row {
                    if row.end_accumulated_fee == 0 {
                        let accrued = self.meta(view, META_L1_ACCRUED_FEES)?;
                        row.end_accumulated_fee = accrued;
                        let levels = (accrued, self.meta(view, META_L1_DAY_START)?);
                        self.usage
                            .start(view, t.validation_id, row.subnet_id, levels)?;
                        self.l1_counts(batch, view, &row, ev.timestamp, true)?;
                    } else {
                        self.leave_active(view, t.validation_id, row.end_accumulated_fee)?;
                    }
                    row.end_accumulated_fee = row.end_accumulated_fee.saturating_add(t.balance);
                    self.activate(view, t.validation_id, row.end_accumulated_fee)?;
                    let accrued = self.meta(view, META_L1_ACCRUED_FEES)?;
                    self.note(|| {
                        PNote::L1(L1Note {
                            tx: Some(ev.tx_id),
                            validation_id: t.validation_id,
                            subnet: row.subnet_id,
                            node: row.node_id.clone(),
                            change: L1Change::BalanceIncreased { amount: t.balance },
                            balance: row.remaining_balance(accrued),
                            refunded: 0,
                        })
                    });
                    record_l1(batch, t.validation_id, ev.height, &row);
                    self.l1.put(t.validation_id, Linear(row), stored);
                }
            }
            UnsignedTx::DisableL1ValidatorTx(t) => {
                let (row, stored) = load(&self.l1, view, &t.validation_id)?;
                if let Some(Linear(mut row)) = row {
                    let refunded = self.withdraw(batch, view, t.validation_id, &mut row, tx, ev)?;
                    self.note(|| {
                        PNote::L1(L1Note {
                            tx: Some(ev.tx_id),
                            validation_id: t.validation_id,
                            subnet: row.subnet_id,
                            node: row.node_id.clone(),
                            change: L1Change::Disabled,
                            balance: 0,
                            refunded,
                        })
                    });
                    record_l1(batch, t.validation_id, ev.height, &row);
                    self.l1.put(t.validation_id, Linear(row), stored);
                }
            }
            UnsignedTx::AddAutoRenewedValidatorTx(_)
            | UnsignedTx::SetAutoRenewedValidatorConfigTx(_) => self.stats.skipped += 1,
            _ => {}
        }
        self.txs.touched(batch, &named_owners(tx));
        self.txs.validations(batch, &l1_validations(tx));
        Ok(())
    }

    /// Records a new L1 validator (active when it has a balance).
    fn register_l1(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        vid: Id,
        row: L1ValidatorRow,
    ) -> Result<(), PChainError> {
        if row.end_accumulated_fee > 0 {
            self.activate(view, vid, row.end_accumulated_fee)?;
            let levels = (
                self.meta(view, META_L1_ACCRUED_FEES)?,
                self.meta(view, META_L1_DAY_START)?,
            );
            self.usage.start(view, vid, row.subnet_id, levels)?;
            self.l1_counts(batch, view, &row, row.created.timestamp, true)?;
        }
        record_l1(batch, vid, row.created.height, &row);
        batch.put::<PhL1BySubnet>(&(row.subnet_id, vid), &());
        batch.put::<PhL1ByNode>(&(row.node_id.clone(), vid), &());
        upsert(&mut self.l1, view, vid, Linear(row))?;
        self.stats.l1_validators += 1;
        Ok(())
    }

    /// An L1 validator becomes active (`enters`) or inactive at `time`: its L1's validator count
    /// and weight change (a validator of weight 0 is removed and counts nowhere).
    fn l1_counts(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        row: &L1ValidatorRow,
        time: u64,
        enters: bool,
    ) -> Result<(), PChainError> {
        if row.weight == 0 {
            return Ok(());
        }
        let change = (true, u128::from(row.weight), enters);
        self.staking
            .change(batch, view, row.subnet_id, time, change)
    }

    /// Ends an active L1 validator's balance: the balance left goes to its remaining balance
    /// owner as a UTXO at the first index after the tx's outputs (`DisableL1ValidatorTx`, and
    /// `SetL1ValidatorWeightTx` to weight 0).
    fn withdraw(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        vid: Id,
        row: &mut L1ValidatorRow,
        tx: &UnsignedTx,
        ev: Event,
    ) -> Result<u64, PChainError> {
        if row.end_accumulated_fee == 0 {
            return Ok(0);
        }
        let accrued = self.meta(view, META_L1_ACCRUED_FEES)?;
        let balance = row.remaining_balance(accrued);
        self.leave_active(view, vid, row.end_accumulated_fee)?;
        self.usage.stop(batch, view, vid, row.subnet_id, accrued)?;
        self.l1_counts(batch, view, row, ev.timestamp, false)?;
        row.end_accumulated_fee = 0;
        let owner: &PChainOwner = &row.remaining_balance_owner;
        let utxo = Utxo {
            utxo_id: UtxoId::new(ev.tx_id, index(tx.outputs().len())),
            asset_id: self.avax,
            output: TransferableOut::Secp256k1(TransferOutput {
                amount: balance,
                owners: OutputOwners {
                    locktime: 0,
                    threshold: owner.threshold,
                    addrs: owner.addresses.clone(),
                },
            }),
        };
        let chains = (self.p_chain, self.p_chain);
        self.create(
            batch,
            view,
            &utxo,
            Holding::Native,
            Origin::Output,
            chains,
            ev,
        )?;
        Ok(balance)
    }

    /// Adds the staker `tx` starts: its stake (staked UTXOs from now), its potential reward
    /// (added to the supply, as avalanchego does when the staker becomes current) and its
    /// index rows. `stated_start`: the staker starts when the tx says, not at `ev`.
    fn add_staker(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        tx: &UnsignedTx,
        ev: Event,
        stated_start: bool,
    ) -> Result<(), PChainError> {
        let Some(t) = terms(tx) else {
            return Ok(());
        };
        let start = if !stated_start && starts_at_acceptance(self.network_id, ev.timestamp) {
            ev.timestamp
        } else {
            t.stated_start
        };
        let primary = matches!(t.kind, StakerKind::Validator | StakerKind::Delegator);
        let potential_reward = if primary {
            let supply = self.meta(view, META_CURRENT_SUPPLY)?;
            let nanos = t.end.saturating_sub(start).saturating_mul(1_000_000_000);
            let reward = self
                .reward
                .calculate_primary_network(None, start, nanos, t.weight, supply);
            self.set_meta(view, META_CURRENT_SUPPLY, supply.saturating_add(reward))?;
            reward
        } else {
            0
        };
        let validator_tx = if t.kind.validates() {
            None
        } else {
            load(&self.validators, view, &(t.subnet_id, t.node_id))?.0
        };
        let first = tx.outputs().len();
        for (i, out) in t.stake.iter().enumerate() {
            let utxo = Utxo {
                utxo_id: UtxoId::new(ev.tx_id, index(first + i)),
                asset_id: out.asset_id,
                output: out.output.clone(),
            };
            let chains = (self.p_chain, self.p_chain);
            self.create_with(
                batch,
                view,
                &utxo,
                (Holding::Native, Origin::Stake),
                chains,
                ev,
                Some((ev.tx_id, start, t.end)),
            )?;
        }
        let row = StakerRow {
            kind: t.kind,
            node_id: t.node_id,
            subnet_id: t.subnet_id,
            start,
            end: t.end,
            weight: t.weight,
            delegation_shares: t.delegation_shares,
            potential_reward,
            delegatee_reward: 0,
            accepted: ev,
            reward_owners: t.reward_owners.clone(),
            validator_tx,
            bls_public_key: t.bls_public_key,
            settled: None,
            unsigned_tx: marshal(tx),
        };
        batch.put::<PhStakersByNode>(&(t.node_id, start, ev.tx_id), &());
        for addr in &t.reward_owners {
            batch.put::<PhStakersByOwner>(&(*addr, start, ev.tx_id), &());
        }
        batch.put::<PhCurrentStakers>(&(t.end, ev.tx_id), &());
        self.txs.added_staker();
        if ev.height > 0 {
            batch.put::<PhOrders>(&(ORDER_CURRENT_STAKING, ev.height, ev.tx_id), &());
        }
        if t.kind.validates() {
            batch.put::<PhValidatorsByNode>(&(t.node_id, start, ev.tx_id), &());
            validator_orders::add(batch, ev.tx_id, &row);
        } else if let Some(v) = validator_tx {
            self.delegate(batch, view, v, &row, (true, false))?;
        }
        self.count_unsettled(view, &row, true)?;
        let order = if t.kind.validates() {
            (ORDER_VALIDATORS, ev.height)
        } else {
            (ORDER_DELEGATORS, start)
        };
        batch.put::<PhOrders>(&(order.0, order.1, ev.tx_id), &());
        self.staking
            .add_staker(batch, view, ev.tx_id, &row, ev.timestamp)?;
        if t.kind.validates() {
            let key = (t.subnet_id, t.node_id);
            upsert(&mut self.validators, view, key, ev.tx_id)?;
            let period = ValidatorPeriod {
                start,
                end: t.end,
                reward_owners: t.reward_owners.clone(),
            };
            let by_subnet = (t.subnet_id, ev.timestamp, ev.tx_id);
            batch.put::<PhValidatorsBySubnet>(&by_subnet, &Linear(period));
            let span = t.end.saturating_sub(ev.timestamp);
            let (longest, stored) = load(&self.spans, view, &t.subnet_id)?;
            if longest.is_none_or(|l| l < span) {
                self.spans.put(t.subnet_id, span, stored);
            }
        }
        upsert(&mut self.stakers, view, ev.tx_id, Linear(row))?;
        self.stats.stakers += 1;
        Ok(())
    }

    /// Applies a proposal tx with its accepted option (`commit`): a `RewardValidatorTx`
    /// settles its staker; an Apricot staker tx is applied on commit; `AdvanceTimeTx` moved the
    /// time already (through the option's own time).
    fn apply_proposal(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        tx: &UnsignedTx,
        ev: Event,
        commit: bool,
    ) -> Result<(), PChainError> {
        match tx {
            UnsignedTx::RewardValidatorTx(r) => self.reward(batch, view, r.tx_id, ev, commit),
            UnsignedTx::AdvanceTimeTx(a) => self.advance_time(batch, view, a.time),
            UnsignedTx::RewardAutoRenewedValidatorTx(_) => {
                self.stats.skipped += 1;
                Ok(())
            }
            other if commit => self.apply_tx(
                batch,
                view,
                other,
                At {
                    event: ev,
                    index: 0,
                    place: None,
                },
            ),
            _ => Ok(()),
        }
    }

    /// Settles staker `staker_id` (`RewardValidatorTx` accepted with `commit` or abort): its
    /// stake comes back, its rewards are paid (`reward_utxos`), the supply gives back an
    /// unpaid potential reward.
    fn reward(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        staker_id: Id,
        ev: Event,
        commit: bool,
    ) -> Result<(), PChainError> {
        let inconsistent = |reason: String| PChainError::Inconsistent {
            height: ev.height,
            reason,
        };
        let (row, _) = load(&self.stakers, view, &staker_id)?;
        let Some(Linear(staker)) = row else {
            return Err(inconsistent(format!(
                "RewardValidatorTx {} settles unknown staker {staker_id}",
                ev.tx_id
            )));
        };
        if staker.settled.is_some() {
            return Err(inconsistent(format!("staker {staker_id} is settled twice")));
        }
        let branch = if commit {
            RewardBranch::Commit
        } else {
            RewardBranch::Abort
        };
        let unsigned = decode_unsigned(&staker.unsigned_tx)?;
        let utxos = match staker.kind {
            StakerKind::Validator | StakerKind::SubnetValidator => validator_reward_utxos(
                staker_id,
                &unsigned,
                branch,
                staker.potential_reward,
                staker.delegatee_reward,
            ),
            StakerKind::Delegator | StakerKind::SubnetDelegator => {
                let validator = match staker.validator_tx {
                    Some(v) => load(&self.stakers, view, &v)?,
                    None => (None, false),
                };
                let Some(Linear(mut vrow)) = validator.0 else {
                    return Err(inconsistent(format!(
                        "delegator {staker_id} has no known validator"
                    )));
                };
                let vtx = decode_unsigned(&vrow.unsigned_tx)?;
                let defers = defers_delegatee_reward(self.network_id, vrow.start);
                let out = delegator_reward_utxos(
                    staker_id,
                    &unsigned,
                    branch,
                    staker.potential_reward,
                    &vtx,
                    defers,
                )
                .map_err(|e| inconsistent(e.to_string()))?;
                if out.deferred_delegatee_reward > 0 {
                    vrow.delegatee_reward = vrow
                        .delegatee_reward
                        .saturating_add(out.deferred_delegatee_reward);
                    if let Some(v) = staker.validator_tx {
                        self.stakers.put(v, Linear(vrow), validator.1);
                    }
                }
                Ok(out.utxos)
            }
        }
        .map_err(|e| inconsistent(e.to_string()))?;
        let period = Some((staker_id, staker.start, staker.end));
        let mut payouts = Vec::new();
        for r in utxos {
            let id = r.id();
            let origin = match r.kind {
                RewardUtxoKind::Stake => {
                    self.return_stake(batch, view, id, ev)?;
                    continue;
                }
                RewardUtxoKind::ValidationReward => Origin::ValidationReward,
                RewardUtxoKind::DelegationReward => Origin::DelegationReward,
                RewardUtxoKind::DelegateeReward => Origin::DelegateeReward,
            };
            let chains = (self.p_chain, self.p_chain);
            self.create_with(
                batch,
                view,
                &r.utxo,
                (Holding::Native, origin),
                chains,
                ev,
                period,
            )?;
            for addr in &r.utxo.output.owners().addrs {
                batch.put::<PhRewardsByOwner>(&(*addr, ev.timestamp, id), &());
            }
            if self.noting() {
                payouts.push(Payout {
                    utxo: id,
                    kind: match origin {
                        Origin::DelegationReward => "delegation",
                        Origin::DelegateeReward => "delegatee",
                        _ => "validation",
                    },
                    amount: r.utxo.output.amount(),
                    owners: r.utxo.output.owners().addrs.clone(),
                });
            }
            batch.put::<PhRewardsByNode>(&(staker.node_id, ev.timestamp, id), &());
        }
        self.note(|| {
            PNote::Reward(RewardNote {
                tx: ev.tx_id,
                staker_tx: staker_id,
                kind: staker.kind,
                node: staker.node_id,
                subnet: staker.subnet_id,
                start: staker.start,
                end: staker.end,
                weight: staker.weight,
                rewarded: commit,
                payouts,
            })
        });
        if !commit {
            let supply = self.meta(view, META_CURRENT_SUPPLY)?;
            self.set_meta(
                view,
                META_CURRENT_SUPPLY,
                supply.saturating_sub(staker.potential_reward),
            )?;
        }
        if staker.kind.validates() {
            let key = (staker.subnet_id, staker.node_id);
            let (current, stored) = load(&self.validators, view, &key)?;
            if current == Some(staker_id) {
                self.validators.delete(key, stored);
            }
        }
        self.close_staker(
            batch,
            view,
            staker_id,
            Settled {
                event: ev,
                rewarded: commit,
            },
        )?;
        self.stats.settled += 1;
        Ok(())
    }

    /// Lists the tx just applied under its addresses in `ph_staking_by_address` when it added
    /// a staker, noting where for the staker's settlement.
    fn index_staking(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
    ) -> Result<(), PChainError> {
        let Some((tx, height, addresses)) = self.txs.take_staking() else {
            return Ok(());
        };
        for a in &addresses {
            batch.put::<PhStakingByAddress>(&(*a, height, tx), &());
        }
        let listed = StakerAddresses { height, addresses };
        upsert(&mut self.staker_addresses, view, tx, Linear(listed))
    }

    /// Marks a staker settled and no longer current.
    fn close_staker(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        staker_id: Id,
        settled: Settled,
    ) -> Result<(), PChainError> {
        let (row, stored) = load(&self.stakers, view, &staker_id)?;
        if let Some(Linear(mut row)) = row {
            batch.delete::<PhCurrentStakers>(&(row.end, staker_id));
            let (listed, listed_stored) = load(&self.staker_addresses, view, &staker_id)?;
            if let Some(Linear(listed)) = listed {
                for a in &listed.addresses {
                    batch.delete::<PhStakingByAddress>(&(*a, listed.height, staker_id));
                }
                self.staker_addresses.delete(staker_id, listed_stored);
            }
            if row.accepted.height > 0 {
                let order = (ORDER_CURRENT_STAKING, row.accepted.height, staker_id);
                batch.delete::<PhOrders>(&order);
            }
            if row.kind.validates() {
                let d = load(&self.delegations, view, &staker_id)?.0;
                let d = d.map(|Linear(d)| d).unwrap_or_default();
                validator_orders::settle(batch, staker_id, &row, &d);
            } else if let Some(v) = row.validator_tx {
                self.delegate(batch, view, v, &row, (false, settled.rewarded))?;
            }
            self.count_unsettled(view, &row, false)?;
            let time = settled.event.timestamp;
            self.staking.settle(batch, view, staker_id, &row, time)?;
            if row.kind.validates() && time < row.end {
                let period = ValidatorPeriod {
                    start: row.start,
                    end: time,
                    reward_owners: row.reward_owners.clone(),
                };
                let by_subnet = (row.subnet_id, row.accepted.timestamp, staker_id);
                batch.put::<PhValidatorsBySubnet>(&by_subnet, &Linear(period));
            }
            row.settled = Some(settled);
            self.stakers.put(staker_id, Linear(row), stored);
        }
        Ok(())
    }

    /// A staked UTXO comes back: unspent still, no longer staked from `ev` on.
    fn return_stake(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: Id,
        ev: Event,
    ) -> Result<(), PChainError> {
        let (row, stored) = load(&self.utxos, view, &id)?;
        match row {
            Some(Linear(mut row)) => {
                let utxo = row.utxo().ok();
                if let Some(utxo) = &utxo {
                    self.txs.touched(batch, &utxo.output.owners().addrs);
                }
                // An unspent stake moves from its staked sum to the returned one.
                let summed = utxo
                    .filter(|u| row.consumed.is_none() && row.stake_summed(u))
                    .and_then(|u| Some((*u.output.owners().addrs.first()?, u)));
                if let Some((addr, u)) = &summed {
                    self.stake_sum(view, *addr, &row, u, false)?;
                }
                row.returned = Some(ev);
                if let Some((addr, u)) = &summed {
                    self.stake_sum(view, *addr, &row, u, true)?;
                }
                self.utxos.put(id, Linear(row), stored);
                Ok(())
            }
            None => Err(PChainError::Inconsistent {
                height: ev.height,
                reason: format!("returned stake {id} was never staked"),
            }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn create(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        utxo: &Utxo,
        holding: Holding,
        origin: Origin,
        chains: (Id, Id),
        ev: Event,
    ) -> Result<(), PChainError> {
        self.create_with(batch, view, utxo, (holding, origin), chains, ev, None)
    }

    /// Records a new UTXO and its per-owner orders (unspent and all).
    #[allow(clippy::too_many_arguments)]
    fn create_with(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        utxo: &Utxo,
        (holding, origin): (Holding, Origin),
        (created_on, consumed_on): (Id, Id),
        ev: Event,
        staker: Option<(Id, u64, u64)>,
    ) -> Result<(), PChainError> {
        let id = utxo.id();
        let amount = utxo.output.amount();
        for addr in &utxo.output.owners().addrs {
            batch.put::<PhAllByTime>(&(*addr, ev.timestamp, id), &());
            batch.put::<PhAllByAmount>(&(*addr, amount, id), &());
            batch.put::<PhUnspentByTime>(&(*addr, ev.timestamp, id), &());
            batch.put::<PhUnspentByAmount>(&(*addr, amount, id), &());
        }
        let row = UtxoRow {
            holding,
            origin,
            amount,
            created_on,
            consumed_on,
            created: ev,
            consumed: None,
            staker,
            returned: None,
            bytes: utxo.to_bytes(),
        };
        if holding != Holding::ExportedToP {
            self.txs.emitted(batch, id, &utxo.output.owners().addrs);
        } else if created_on == self.c_chain {
            c_atomic_owners(batch, &ev, C_ATOMIC_EXPORT, &utxo.output.owners().addrs);
        }
        self.count_unspent(batch, view, &row, utxo, true)?;
        // A P-Chain tx's output or export, or a C-Chain export to P; the X-Chain's exports
        // are the X-Chain history's to tell.
        let chain = if holding != Holding::ExportedToP {
            Some(self.p_chain)
        } else {
            (created_on == self.c_chain).then_some(self.c_chain)
        };
        if let Some(chain) = chain {
            self.tell(chain, &ev, |chain| UtxoNote {
                chain,
                tx: ev.tx_id,
                utxo: id,
                asset: utxo.asset_id,
                amount,
                owners: utxo.output.owners().addrs.clone(),
                created: true,
                staked: origin == Origin::Stake,
                shared: holding != Holding::Native,
                locked: locked_at(utxo, ev.timestamp),
            });
        }
        upsert(&mut self.utxos, view, id, Linear(row))?;
        self.stats.utxos_created += 1;
        Ok(())
    }

    /// Records a UTXO an export puts in atomic memory between P and the X- or C-Chain
    /// (`holding` says which way), by the shared-memory rule ([`atomic::export`]): created
    /// unspent, or already consumed by its import when that was derived first (the other
    /// chain's containers arrived earlier); a UTXO already recorded is left as it is.
    fn create_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        utxo: &Utxo,
        holding: Holding,
        chains: (Id, Id),
        ev: Event,
    ) -> Result<(), PChainError> {
        let mut rows = SharedP {
            p: self,
            batch,
            view,
        };
        atomic::export(&mut rows, utxo.id(), |r| {
            r.p.create(r.batch, r.view, utxo, holding, Origin::Output, chains, ev)
        })?;
        Ok(())
    }

    /// Consumes a UTXO an import takes from atomic memory between P and the X- or C-Chain, by
    /// the shared-memory rule ([`atomic::import`]): when its export is not derived yet the
    /// consumption is remembered (`ph_early_spends`) for the export to apply; the same import
    /// read again changes nothing; another import of the same UTXO is a missing input.
    fn consume_shared(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: Id,
        ev: Event,
    ) -> Result<(), PChainError> {
        let mut rows = SharedP {
            p: self,
            batch,
            view,
        };
        match atomic::import(&mut rows, id, ev)? {
            Imported::Early => self.stats.early_spends += 1,
            Imported::Duplicate => self.stats.missing_inputs += 1,
            Imported::Consumed | Imported::Again => {}
        }
        Ok(())
    }

    /// Spends a UTXO: consumed at `ev`, out of its owners' unspent orders.
    fn consume(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        id: Id,
        ev: Event,
    ) -> Result<(), PChainError> {
        let (row, stored) = load(&self.utxos, view, &id)?;
        let Some(Linear(mut row)) = row.filter(|r| r.0.consumed.is_none()) else {
            self.stats.missing_inputs += 1;
            return Ok(());
        };
        let utxo = row
            .utxo()
            .map_err(|e| PChainError::Corrupt(format!("UTXO {id}: {e}")))?;
        for addr in &utxo.output.owners().addrs {
            batch.delete::<PhUnspentByTime>(&(*addr, row.created.timestamp, id));
            batch.delete::<PhUnspentByAmount>(&(*addr, row.amount, id));
        }
        if row.holding != Holding::ExportedFromP {
            self.txs
                .consumed(batch, &ev, id, &utxo.output.owners().addrs);
        } else if row.consumed_on == self.c_chain {
            c_atomic_owners(batch, &ev, C_ATOMIC_IMPORT, &utxo.output.owners().addrs);
        }
        self.count_unspent(batch, view, &row, &utxo, false)?;
        // A P-Chain tx's input or import, or a C-Chain import of a P-Chain export; an X-Chain
        // import is the X-Chain history's to tell. An import derived before the export it
        // spends (that chain followed behind) is completed here, by the export's container:
        // told late.
        let chain = if row.holding != Holding::ExportedFromP {
            Some(self.p_chain)
        } else {
            (row.consumed_on == self.c_chain).then_some(self.c_chain)
        };
        if let Some(chain) = chain {
            self.tell(chain, &ev, |chain| UtxoNote {
                chain,
                tx: ev.tx_id,
                utxo: id,
                asset: utxo.asset_id,
                amount: row.amount,
                owners: utxo.output.owners().addrs.clone(),
                created: false,
                staked: false,
                shared: row.holding != Holding::Native,
                locked: locked_at(&utxo, row.created.timestamp),
            });
        }
        row.consumed = Some(ev);
        if row.holding != Holding::ExportedFromP {
            row.consumed_on = self.p_chain;
        }
        self.utxos.put(id, Linear(row), stored);
        self.stats.utxos_consumed += 1;
        Ok(())
    }

    /// Adds an unspent UTXO to (`unspent`) or takes it out of what current balances read: its
    /// owner's sum when [`UtxoRow::summed`], else its owners' [`PhUnspentSpecial`] entries, and
    /// its owner's stake sum when [`UtxoRow::stake_summed`].
    fn count_unspent(
        &mut self,
        batch: &mut WriteBatch,
        view: &impl ReadView,
        row: &UtxoRow,
        utxo: &Utxo,
        unspent: bool,
    ) -> Result<(), PChainError> {
        let owners = utxo.output.owners();
        if !row.summed(utxo) {
            let id = utxo.id();
            let lock = utxo.output.stakeable_locktime();
            if row.holding == Holding::Native
                && row.origin != Origin::Stake
                && utxo.asset_id == self.avax
                && lock > 0
            {
                self.stakeable_locked
                    .adjust_total(view, lock, row.amount, unspent)?;
            }
            let in_sums = row.stake_summed(utxo);
            for addr in &owners.addrs {
                if unspent {
                    batch.put::<PhUnspentSpecial>(&(*addr, id), &u8::from(in_sums));
                } else {
                    batch.delete::<PhUnspentSpecial>(&(*addr, id));
                }
                if in_sums {
                    self.stake_sum(view, *addr, row, utxo, unspent)?;
                }
            }
            return Ok(());
        }
        for addr in &owners.addrs {
            let chain = row.shared_with().unwrap_or(Id::EMPTY);
            let key = (
                *addr,
                utxo.asset_id,
                row.holding.code(),
                chain,
                owners.locktime,
            );
            self.balances.adjust_total(view, key, row.amount, unspent)?;
        }
        Ok(())
    }
}

impl PChain {
    /// Adds `row` (of `utxo`, owned by `addr` alone) to (`add`) or takes it out of its class's
    /// stake sum ([`UtxoRow::stake_class`], as the row stands).
    fn stake_sum(
        &mut self,
        view: &impl ReadView,
        addr: ShortId,
        row: &UtxoRow,
        utxo: &Utxo,
        add: bool,
    ) -> Result<(), PChainError> {
        let (staked, start, locktime, stakeable) = row.stake_class(utxo);
        let key = (addr, utxo.asset_id, staked, start, locktime, stakeable);
        self.stake_sums.adjust_total(view, key, row.amount, add)?;
        Ok(())
    }
}

/// P's atomic UTXO rows (`ph_utxos`, `ph_early_spends`) as the shared-memory rule reads and
/// changes them, within the batch being staged.
struct SharedP<'a, V> {
    p: &'a mut PChain,
    batch: &'a mut WriteBatch,
    view: &'a V,
}

impl<V: ReadView> SharedRows for SharedP<'_, V> {
    type Spend = Event;
    type Error = PChainError;

    fn spender(spend: &Event) -> Id {
        spend.tx_id
    }

    fn stand(&mut self, id: Id) -> Result<Stand<Event>, PChainError> {
        if let (Some(Linear(row)), _) = load(&self.p.utxos, self.view, &id)? {
            return Ok(Stand::Exported {
                consumed_by: row.consumed.map(|c| c.tx_id),
            });
        }
        Ok(match load(&self.p.early, self.view, &id)? {
            (Some(Linear(spend)), stored) => Stand::SpentEarly { spend, stored },
            (None, stored) => Stand::Unknown { stored },
        })
    }

    fn consume(&mut self, id: Id, spend: Event) -> Result<(), PChainError> {
        self.p.consume(self.batch, self.view, id, spend)
    }

    fn remember_early(&mut self, id: Id, spend: Event, stored: bool) {
        self.p.early.put(id, Linear(spend), stored);
    }

    fn forget_early(&mut self, id: Id, stored: bool) {
        self.p.early.delete(id, stored);
    }
}

/// Records the C-Chain block `number`: by number, by hash, and by proposer when it names one.
fn put_c_block(batch: &mut WriteBatch, number: u64, block: &CBlockRow) {
    batch.put::<PhCBlocks>(&number, &Linear(block.clone()));
    batch.put::<PhCBlockHashes>(&Id(block.hash), &number);
    if let Some(node) = block.proposer.and_then(|p| p.node_id) {
        batch.put::<PhCBlocksByProposer>(&(node, block.timestamp, number), &());
    }
}

/// Records an L1 validator's weight and end fee as a tx of block `height` left them
/// (`ph_l1_history`, what its L1's validator set at a past height is rebuilt from).
fn record_l1(batch: &mut WriteBatch, vid: Id, height: u64, row: &L1ValidatorRow) {
    let state = L1ValidatorState {
        weight: row.weight,
        end_accumulated_fee: row.end_accumulated_fee,
    };
    batch.put::<PhL1History>(&(vid, height), &Linear(state));
}

fn decode_unsigned(bytes: &[u8]) -> Result<UnsignedTx, PChainError> {
    snowline_types::codec::unmarshal_with_max(bytes, usize::MAX)
        .map_err(|e| PChainError::Corrupt(format!("stored staker tx: {e}")))
}

/// The pending proposal as [`PChain::apply_parsed`] stores it: `tx id ‖ unsigned tx`.
fn decode_proposal(bytes: &[u8]) -> Result<(Id, UnsignedTx), PChainError> {
    let corrupt = |e: String| PChainError::Corrupt(format!("pending proposal: {e}"));
    let (id, rest) = bytes
        .split_at_checked(32)
        .ok_or_else(|| corrupt("cut short".into()))?;
    let id = Id::from_slice(id).map_err(|e| corrupt(e.to_string()))?;
    Ok((id, decode_unsigned(rest)?))
}

impl StagingParts for PChain {
    /// Every generation of unwritten rows, for the batch protocol to drive together.
    fn parts(&mut self) -> impl Staging + '_ {
        [
            &mut self.utxos as &mut dyn Staging,
            &mut self.early,
            &mut self.stakers,
            &mut self.staker_addresses,
            &mut self.delegations,
            &mut self.validators,
            &mut self.subnets,
            &mut self.l1,
            &mut self.l1_active,
            &mut self.meta,
            &mut self.balances,
            &mut self.stake_sums,
            &mut self.stakeable_locked,
            &mut self.proposal,
            &mut self.spans,
            &mut self.usage,
            &mut self.staking,
        ]
    }
}

impl Derive for PChain {
    const PATHS: &'static [IndexPath] = &P_DERIVE_PATHS;
    type Prepared = PContainer;

    fn derive(
        &mut self,
        batch: &mut WriteBatch,
        view: &Store,
        record: &ContainerRecord,
        _index: u64,
        prepared: &PContainer,
    ) -> Result<(), DeriveError> {
        self.apply_parsed(batch, view, record, prepared)
            .map_err(DeriveError::from)
    }
}
