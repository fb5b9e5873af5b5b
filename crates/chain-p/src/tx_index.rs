//! The P-Chain's tx index, written by [`PChain`](crate::PChain) in the batch of the block it
//! derives: which UTXOs each tx consumed and emitted (`ph_tx_utxos`) and which txs each address
//! took part in (`ph_txs_by_address`), for the Data API's tx by hash and address histories.
//!
//! An address takes part in a tx when it owns a UTXO the tx consumes, emits (outputs, stakes,
//! exports, refunds, rewards) or returns from staking, or when the tx names it as a reward
//! owner or a subnet's owner. A tx sits at the height of the block holding it: a proposal's
//! effects are applied with its option, one block later, so the option's txs name the
//! proposal's height ([`TxIndex::begin`]).
//!
//! The L1 txs are indexed by the validations they name too (`ph_txs_by_l1_validation`), and a
//! staker tx by its addresses again in `ph_staking_by_address` until its staker is settled
//! ([`TxIndex::take_staking`]).

use snowline_store::WriteBatch;
use snowline_types::platformvm::txs::UnsignedTx;
use snowline_types::warp::l1::{L1Message, conversion_validation_id, registration_validation_id};
use snowline_types::{Id, ShortId};

use crate::l1_messages::{l1_message, register_message};
use crate::rows::Event;
use crate::staking::terms;
use crate::tables::{
    PhCTxsByAddress, PhTxUtxos, PhTxsByAddress, PhTxsByL1Validation, TX_CONSUMED, TX_EMITTED,
};

/// The P-Chain tx being applied, if any: UTXOs created while it is set are its emitted ones.
/// Unset for the genesis and for the X- and C-Chain's atomic txs (not P-Chain txs).
#[derive(Debug, Default)]
pub(crate) struct TxIndex {
    at: Option<(Id, u64)>,
    /// The addresses the applied tx took part through so far (repeats included).
    addresses: Vec<ShortId>,
    /// Whether the applied tx added a staker.
    adds_staker: bool,
}

impl TxIndex {
    /// Tx `tx` of the block at `height` is applied from now on.
    pub(crate) fn begin(&mut self, tx: Id, height: u64) {
        self.at = Some((tx, height));
        self.addresses.clear();
        self.adds_staker = false;
    }

    /// No P-Chain tx is applied any more.
    pub(crate) fn end(&mut self) {
        self.at = None;
        self.addresses.clear();
        self.adds_staker = false;
    }

    /// The applied tx added a staker.
    pub(crate) fn added_staker(&mut self) {
        self.adds_staker = true;
    }

    /// Once a tx is applied: when it added a staker (in a block), its id, the height it is
    /// indexed at and the addresses taking part in it (sorted, once each), which
    /// `ph_staking_by_address` lists it under until the staker is settled.
    pub(crate) fn take_staking(&mut self) -> Option<(Id, u64, Vec<ShortId>)> {
        let (tx, height) = self.at.filter(|(_, h)| self.adds_staker && *h > 0)?;
        self.adds_staker = false;
        let mut addresses = std::mem::take(&mut self.addresses);
        addresses.sort_unstable();
        addresses.dedup();
        Some((tx, height, addresses))
    }

    /// The height `ev`'s tx is indexed at: the applied tx's when it is that tx (a proposal
    /// applied with its option), else the event's own.
    fn height(&self, ev: &Event) -> u64 {
        match self.at {
            Some((tx, h)) if tx == ev.tx_id => h,
            _ => ev.height,
        }
    }

    /// The applied tx emitted UTXO `utxo`, owned by `owners`.
    pub(crate) fn emitted(&mut self, batch: &mut WriteBatch, utxo: Id, owners: &[ShortId]) {
        let Some((tx, height)) = self.at else { return };
        batch.put::<PhTxUtxos>(&(tx, TX_EMITTED, utxo), &());
        self.put_addresses(batch, tx, height, owners);
    }

    /// The P-Chain tx of `ev` consumed UTXO `utxo`, owned by `owners` (known: the UTXO was
    /// derived).
    pub(crate) fn consumed(
        &mut self,
        batch: &mut WriteBatch,
        ev: &Event,
        utxo: Id,
        owners: &[ShortId],
    ) {
        if ev.height == 0 {
            return;
        }
        batch.put::<PhTxUtxos>(&(ev.tx_id, TX_CONSUMED, utxo), &());
        self.put_addresses(batch, ev.tx_id, self.height(ev), owners);
    }

    /// The applied tx concerns `owners` without a UTXO of theirs (owners it names, the owners
    /// of a stake it returns).
    pub(crate) fn touched(&mut self, batch: &mut WriteBatch, owners: &[ShortId]) {
        if let Some((tx, height)) = self.at {
            self.put_addresses(batch, tx, height, owners);
        }
    }

    /// `owners` take part in tx `tx`, indexed at `height`; noted for the applied tx.
    fn put_addresses(&mut self, batch: &mut WriteBatch, tx: Id, height: u64, owners: &[ShortId]) {
        if height == 0 {
            return;
        }
        for addr in owners {
            batch.put::<PhTxsByAddress>(&(*addr, height, tx), &());
        }
        if self.at.is_some_and(|(at, _)| at == tx) {
            self.addresses.extend_from_slice(owners);
        }
    }

    /// The applied tx names the L1 validations `validations` ([`l1_validations`]).
    pub(crate) fn validations(&self, batch: &mut WriteBatch, validations: &[Id]) {
        let Some((tx, height)) = self.at else { return };
        for vid in validations {
            batch.put::<PhTxsByL1Validation>(&(*vid, height, tx), &());
        }
    }
}

/// The C-Chain atomic tx of `ev` moved a UTXO of `owners` through the P-Chain's shared memory
/// (`kind`: [`C_ATOMIC_IMPORT`](crate::tables::C_ATOMIC_IMPORT) or
/// [`C_ATOMIC_EXPORT`](crate::tables::C_ATOMIC_EXPORT)), for the C-Chain's address listings.
pub(crate) fn c_atomic_owners(batch: &mut WriteBatch, ev: &Event, kind: u8, owners: &[ShortId]) {
    for a in owners {
        batch.put::<PhCTxsByAddress>(&((*a, kind), ev.timestamp, ev.tx_id), &());
    }
}

/// The addresses `tx` names as owners rather than through UTXOs: a staker's reward owners
/// (both of a permissionless validator), a subnet's owners as created or transferred.
pub(crate) fn named_owners(tx: &UnsignedTx) -> Vec<ShortId> {
    let mut owners = terms(tx).map(|t| t.reward_owners).unwrap_or_default();
    match tx {
        UnsignedTx::AddPermissionlessValidatorTx(t) => {
            owners.extend_from_slice(&t.delegator_rewards_owner.owners().addrs);
        }
        UnsignedTx::CreateSubnetTx(t) => owners.extend_from_slice(&t.owner.owners().addrs),
        UnsignedTx::TransferSubnetOwnershipTx(t) => {
            owners.extend_from_slice(&t.owner.owners().addrs);
        }
        _ => {}
    }
    owners
}

/// The L1 validations `tx` names, in its order: a conversion's validators (by
/// `sha256(subnet ‖ u32 index)`), a registration's (the hash of its `RegisterL1Validator`
/// message), the one a weight change's `L1ValidatorWeight` message, a top-up or a disable
/// names (avalanchego `vms/platformvm/txs`); none for any other tx or a message that does not
/// parse.
pub(crate) fn l1_validations(tx: &UnsignedTx) -> Vec<Id> {
    match tx {
        UnsignedTx::ConvertSubnetToL1Tx(t) => (0..t.validators.len())
            .map(|i| conversion_validation_id(&t.subnet_id, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect(),
        UnsignedTx::RegisterL1ValidatorTx(t) => register_message(&t.message)
            .map(|(_, payload)| registration_validation_id(&payload))
            .into_iter()
            .collect(),
        UnsignedTx::SetL1ValidatorWeightTx(t) => match l1_message(&t.message) {
            Some(L1Message::L1ValidatorWeight(w)) => vec![w.validation_id],
            _ => Vec::new(),
        },
        UnsignedTx::IncreaseL1ValidatorBalanceTx(t) => vec![t.validation_id],
        UnsignedTx::DisableL1ValidatorTx(t) => vec![t.validation_id],
        _ => Vec::new(),
    }
}
