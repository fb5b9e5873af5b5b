//! The values of the P-Chain tables: a UTXO with its creation, consumption and staking, a
//! staker with its reward, a block with its proposer, a tx's place, a subnet, a chain, an L1
//! validator. Each is stored in the linear codec (`store::Linear`), fields in declaration order.

use snowline_store::row::{bad_code, get_bytes, get_opt, get_string, put_opt};
use snowline_types::codec::{CodecError, Decode, Encode, Reader, Writer};
use snowline_types::fx::secp256k1fx::OutputOwners;
use snowline_types::platformvm::{ProposerDetails, TransferableOut, Utxo};
use snowline_types::warp::l1::PChainOwner;
use snowline_types::{Id, NodeId, ShortId};

/// When and by what a UTXO, staker or chain came to be or ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Event {
    /// The tx.
    pub tx_id: Id,
    /// Height of its block (0 for genesis).
    pub height: u64,
    /// Its block's time, Unix seconds.
    pub timestamp: u64,
}

impl Encode for Event {
    fn encode(&self, w: &mut Writer) {
        self.tx_id.encode(w);
        w.u64(self.height);
        w.u64(self.timestamp);
    }
}

impl Decode for Event {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            tx_id: Id::decode(r)?,
            height: r.u64()?,
            timestamp: r.u64()?,
        })
    }
}

/// Where a UTXO lives relative to the P-Chain, which decides the balance it counts in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Holding {
    /// Created and consumed on the P-Chain.
    Native,
    /// Exported by a P-Chain `ExportTx`: in the destination's atomic memory until imported there.
    ExportedFromP,
    /// Exported to the P-Chain by another chain, in P's atomic memory until a P `ImportTx`.
    ExportedToP,
}

impl Holding {
    const ALL: [Holding; 3] = [
        Holding::Native,
        Holding::ExportedFromP,
        Holding::ExportedToP,
    ];

    /// The stable one-byte code (never renumber: it is on disk).
    pub const fn code(self) -> u8 {
        match self {
            Holding::Native => 0,
            Holding::ExportedFromP => 1,
            Holding::ExportedToP => 2,
        }
    }

    /// The holding of `code`.
    pub fn from_code(code: u8) -> Result<Self, CodecError> {
        Self::ALL
            .into_iter()
            .find(|h| h.code() == code)
            .ok_or_else(|| bad_code("P-Chain UTXO holding", code))
    }
}

/// Why a UTXO exists: a tx output, a staked output, or a reward.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A plain output of a tx (or genesis, or an export).
    Output,
    /// A staker tx's staked output: staked until its staker is settled, then returned as is.
    Stake,
    /// A validator's own staking reward.
    ValidationReward,
    /// A delegator's part of its reward.
    DelegationReward,
    /// A validator's fee on its delegators' rewards.
    DelegateeReward,
}

impl Origin {
    const ALL: [Origin; 5] = [
        Origin::Output,
        Origin::Stake,
        Origin::ValidationReward,
        Origin::DelegationReward,
        Origin::DelegateeReward,
    ];

    /// The stable one-byte code (never renumber: it is on disk).
    pub const fn code(self) -> u8 {
        match self {
            Origin::Output => 0,
            Origin::Stake => 1,
            Origin::ValidationReward => 2,
            Origin::DelegationReward => 3,
            Origin::DelegateeReward => 4,
        }
    }

    fn from_code(code: u8) -> Result<Self, CodecError> {
        Self::ALL
            .into_iter()
            .find(|o| o.code() == code)
            .ok_or_else(|| bad_code("P-Chain UTXO origin", code))
    }

    /// The Data API `rewardType` (`VALIDATOR`, `DELEGATOR`, `VALIDATOR_FEE`) of a reward.
    pub fn reward_type(self) -> Option<&'static str> {
        match self {
            Origin::ValidationReward => Some("VALIDATOR"),
            Origin::DelegationReward => Some("DELEGATOR"),
            Origin::DelegateeReward => Some("VALIDATOR_FEE"),
            Origin::Output | Origin::Stake => None,
        }
    }

    /// The Data API `utxoType`: `STAKE` for staked outputs, `TRANSFER` otherwise.
    pub fn utxo_type(self) -> &'static str {
        match self {
            Origin::Stake => "STAKE",
            _ => "TRANSFER",
        }
    }
}

/// One UTXO as the Data API shows it: the chain's bytes plus its history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UtxoRow {
    /// Native, exported from P, or exported to P.
    pub holding: Holding,
    /// Output, stake or reward.
    pub origin: Origin,
    /// The amount (locked or not).
    pub amount: u64,
    /// `createdOnChainId`.
    pub created_on: Id,
    /// `consumedOnChainId`.
    pub consumed_on: Id,
    /// The creating tx, its height and time (for a stake: the staker tx).
    pub created: Event,
    /// The consuming tx, once spent.
    pub consumed: Option<Event>,
    /// For stakes and rewards: the staker tx, with its period (`utxoStartTimestamp`,
    /// `utxoEndTimestamp`).
    pub staker: Option<(Id, u64, u64)>,
    /// For a stake: when its staker was settled and the stake returned (staked until then).
    pub returned: Option<Event>,
    /// The UTXO as `platform.getUTXOs` serves it (codec version 0 ‖ utxo).
    pub bytes: Vec<u8>,
}

impl UtxoRow {
    /// Parses the stored UTXO bytes.
    pub fn utxo(&self) -> Result<Utxo, CodecError> {
        Utxo::parse(&self.bytes)
    }

    /// Whether it is staked at `t` (a stake whose staker was not settled by then).
    pub fn staked_at(&self, t: u64) -> bool {
        self.origin == Origin::Stake && self.returned.is_none_or(|r| r.timestamp > t)
    }

    /// Whether it exists and is unspent at `t`.
    pub fn live_at(&self, t: u64) -> bool {
        self.created.timestamp <= t && self.consumed.is_none_or(|c| c.timestamp > t)
    }

    /// Whether current balances count it in its owner's sum ([`crate::tables::PhBalances`]):
    /// an output of one owner, neither staked nor stakeable-locked, whose bucket then depends
    /// only on its holding, shared chain and locktime. Fixed at creation, so the sum it joined
    /// is the one it leaves.
    pub fn summed(&self, utxo: &Utxo) -> bool {
        self.origin != Origin::Stake
            && self.staker.is_none()
            && matches!(utxo.output, TransferableOut::Secp256k1(_))
            && utxo.output.owners().addrs.len() == 1
    }

    /// Whether current balances count it in its owner's stake sums
    /// ([`crate::tables::PhStakeSums`]): a native output of one owner that is not
    /// [`Self::summed`] (a stake, a reward, a stakeable-locked output).
    pub fn stake_summed(&self, utxo: &Utxo) -> bool {
        self.holding == Holding::Native
            && utxo.output.owners().addrs.len() == 1
            && !self.summed(utxo)
    }

    /// What its bucket depends on at a time no earlier than its return (for a stake):
    /// `(staked, staker start, locktime, stakeable locktime)`, `staked` 1 for a stake not
    /// returned yet (with its staker's start), else 0 (start 0).
    pub fn stake_class(&self, utxo: &Utxo) -> (u8, u64, u64, u64) {
        let staked = self.origin == Origin::Stake && self.returned.is_none();
        let start = match self.staker {
            Some((_, start, _)) if staked => start,
            _ => 0,
        };
        (
            u8::from(staked),
            start,
            utxo.output.owners().locktime,
            utxo.output.stakeable_locktime(),
        )
    }

    /// The chain whose atomic memory holds it (`sharedWithChainId`), for atomic UTXOs.
    pub fn shared_with(&self) -> Option<Id> {
        match self.holding {
            Holding::Native => None,
            Holding::ExportedFromP => Some(self.consumed_on),
            Holding::ExportedToP => Some(self.created_on),
        }
    }
}

impl Encode for UtxoRow {
    fn encode(&self, w: &mut Writer) {
        w.u8(self.holding.code());
        w.u8(self.origin.code());
        w.u64(self.amount);
        self.created_on.encode(w);
        self.consumed_on.encode(w);
        self.created.encode(w);
        put_opt(w, &self.consumed, |w, e| e.encode(w));
        put_opt(w, &self.staker, |w, (id, start, end)| {
            id.encode(w);
            w.u64(*start);
            w.u64(*end);
        });
        put_opt(w, &self.returned, |w, e| e.encode(w));
        w.bytes(&self.bytes);
    }
}

impl Decode for UtxoRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            holding: Holding::from_code(r.u8()?)?,
            origin: Origin::from_code(r.u8()?)?,
            amount: r.u64()?,
            created_on: Id::decode(r)?,
            consumed_on: Id::decode(r)?,
            created: Event::decode(r)?,
            consumed: get_opt(r, Event::decode)?,
            staker: get_opt(r, |r| Ok((Id::decode(r)?, r.u64()?, r.u64()?)))?,
            returned: get_opt(r, Event::decode)?,
            bytes: get_bytes(r)?,
        })
    }
}

/// What a staker stakes for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StakerKind {
    /// A primary-network validator (`AddValidatorTx`, `AddPermissionlessValidatorTx`).
    Validator,
    /// A primary-network delegator (`AddDelegatorTx`, `AddPermissionlessDelegatorTx`).
    Delegator,
    /// A validator of a (permissioned or permissionless) subnet.
    SubnetValidator,
    /// A delegator of a permissionless subnet.
    SubnetDelegator,
}

impl StakerKind {
    const ALL: [StakerKind; 4] = [
        StakerKind::Validator,
        StakerKind::Delegator,
        StakerKind::SubnetValidator,
        StakerKind::SubnetDelegator,
    ];

    /// The stable one-byte code (never renumber: it is on disk).
    pub const fn code(self) -> u8 {
        match self {
            StakerKind::Validator => 0,
            StakerKind::Delegator => 1,
            StakerKind::SubnetValidator => 2,
            StakerKind::SubnetDelegator => 3,
        }
    }

    fn from_code(code: u8) -> Result<Self, CodecError> {
        Self::ALL
            .into_iter()
            .find(|k| k.code() == code)
            .ok_or_else(|| bad_code("P-Chain staker kind", code))
    }

    /// Whether it validates (else it delegates).
    pub fn validates(self) -> bool {
        matches!(self, StakerKind::Validator | StakerKind::SubnetValidator)
    }

    /// The Data API `rewardType` of its own reward.
    pub fn reward_type(self) -> &'static str {
        if self.validates() {
            "VALIDATOR"
        } else {
            "DELEGATOR"
        }
    }
}

/// How a staker ended: the `RewardValidatorTx` that settled it and the option accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settled {
    /// The reward tx, its block (the accepted option) and time.
    pub event: Event,
    /// Commit (rewarded) or abort.
    pub rewarded: bool,
}

/// A staker (validator or delegator) of the primary network or a subnet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StakerRow {
    /// Validator or delegator, primary network or subnet.
    pub kind: StakerKind,
    /// The node validated or delegated to.
    pub node_id: NodeId,
    /// The subnet (the primary network's is all zeros).
    pub subnet_id: Id,
    /// Start of the staking period, Unix seconds.
    pub start: u64,
    /// End of the staking period, Unix seconds.
    pub end: u64,
    /// Weight (the staked amount on the primary network).
    pub weight: u64,
    /// Validators: the delegation fee, millionths.
    pub delegation_shares: u32,
    /// The reward it earns if it is rewarded, fixed when it became current.
    pub potential_reward: u64,
    /// Validators: delegation fees deferred to the validator's own settlement so far.
    pub delegatee_reward: u64,
    /// The staker tx's acceptance.
    pub accepted: Event,
    /// The addresses its own reward is paid to (validators: the validation rewards owner).
    pub reward_owners: Vec<ShortId>,
    /// Delegators: the staker tx of the validator delegated to, when it is known.
    pub validator_tx: Option<Id>,
    /// Validators: the BLS public key (48 bytes compressed), when it has one.
    pub bls_public_key: Option<[u8; 48]>,
    /// How it was settled, once it was.
    pub settled: Option<Settled>,
    /// The unsigned staker tx (codec version 0 ‖ tx): the reward rules need its outputs and
    /// owners when it is settled.
    pub unsigned_tx: Vec<u8>,
}

impl Encode for StakerRow {
    fn encode(&self, w: &mut Writer) {
        w.u8(self.kind.code());
        self.node_id.encode(w);
        self.subnet_id.encode(w);
        w.u64(self.start);
        w.u64(self.end);
        w.u64(self.weight);
        w.u32(self.delegation_shares);
        w.u64(self.potential_reward);
        w.u64(self.delegatee_reward);
        self.accepted.encode(w);
        self.reward_owners.encode(w);
        put_opt(w, &self.validator_tx, |w, id| id.encode(w));
        put_opt(w, &self.bls_public_key, |w, k| k.encode(w));
        put_opt(w, &self.settled, |w, s| {
            s.event.encode(w);
            w.bool(s.rewarded);
        });
        w.bytes(&self.unsigned_tx);
    }
}

impl Decode for StakerRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            kind: StakerKind::from_code(r.u8()?)?,
            node_id: NodeId::decode(r)?,
            subnet_id: Id::decode(r)?,
            start: r.u64()?,
            end: r.u64()?,
            weight: r.u64()?,
            delegation_shares: r.u32()?,
            potential_reward: r.u64()?,
            delegatee_reward: r.u64()?,
            accepted: Event::decode(r)?,
            reward_owners: Vec::decode(r)?,
            validator_tx: get_opt(r, Id::decode)?,
            bls_public_key: get_opt(r, <[u8; 48]>::decode)?,
            settled: get_opt(r, |r| {
                Ok(Settled {
                    event: Event::decode(r)?,
                    rewarded: r.bool()?,
                })
            })?,
            unsigned_tx: get_bytes(r)?,
        })
    }
}

/// The addresses a staker tx not settled yet is listed under in `ph_staking_by_address`, and
/// the height it is listed at ([`crate::tables::PhStakerAddresses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StakerAddresses {
    /// The tx's `ph_txs_by_address` height.
    pub height: u64,
    /// Every address taking part in the tx, once each.
    pub addresses: Vec<ShortId>,
}

impl Encode for StakerAddresses {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.height);
        self.addresses.encode(w);
    }
}

impl Decode for StakerAddresses {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            height: r.u64()?,
            addresses: Vec::decode(r)?,
        })
    }
}

/// A validator's period and reward owners, as the validators-by-date-range read needs them
/// ([`crate::tables::PhValidatorsBySubnet`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorPeriod {
    /// Start of the validation, Unix seconds.
    pub start: u64,
    /// Its stated end, or the removal's time when removed earlier (`RemoveSubnetValidatorTx`).
    pub end: u64,
    /// The validation rewards owner's addresses (none for a permissioned subnet validator).
    pub reward_owners: Vec<ShortId>,
}

impl Encode for ValidatorPeriod {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.start);
        w.u64(self.end);
        self.reward_owners.encode(w);
    }
}

impl Decode for ValidatorPeriod {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            start: r.u64()?,
            end: r.u64()?,
            reward_owners: Vec::decode(r)?,
        })
    }
}

/// What a validator's delegators add up to, kept as each is accepted and settled
/// ([`crate::tables::PhDelegations`]), so a validator's record reads one row instead of its
/// node's every staker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Delegations {
    /// Delegators not settled yet.
    pub current_count: u64,
    /// Their stakes, summed.
    pub current_weight: u64,
    /// The validator's fee part of their potential rewards (`reward.Split`), summed.
    pub current_fees: u64,
    /// The validator's fee part of the rewards of the delegators settled with a reward.
    pub paid_fees: u64,
    /// Every delegator, settled or not.
    pub all_count: u64,
    /// Their stakes, summed.
    pub all_weight: u64,
}

impl Delegations {
    /// Counts a delegator of `weight` whose potential reward gives the validator `fee`
    /// (`enters`), or takes it out of the current ones when it is settled, its fee paid when
    /// `rewarded`.
    pub fn apply(&mut self, weight: u64, fee: u64, enters: bool, rewarded: bool) {
        if enters {
            self.current_count = self.current_count.saturating_add(1);
            self.current_weight = self.current_weight.saturating_add(weight);
            self.current_fees = self.current_fees.saturating_add(fee);
            self.all_count = self.all_count.saturating_add(1);
            self.all_weight = self.all_weight.saturating_add(weight);
        } else {
            self.current_count = self.current_count.saturating_sub(1);
            self.current_weight = self.current_weight.saturating_sub(weight);
            self.current_fees = self.current_fees.saturating_sub(fee);
            if rewarded {
                self.paid_fees = self.paid_fees.saturating_add(fee);
            }
        }
    }
}

impl Encode for Delegations {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.current_count);
        w.u64(self.current_weight);
        w.u64(self.current_fees);
        w.u64(self.paid_fees);
        w.u64(self.all_count);
        w.u64(self.all_weight);
    }
}

impl Decode for Delegations {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            current_count: r.u64()?,
            current_weight: r.u64()?,
            current_fees: r.u64()?,
            paid_fees: r.u64()?,
            all_count: r.u64()?,
            all_weight: r.u64()?,
        })
    }
}

/// One accepted block as the blocks-by-node listing shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockRow {
    /// The id the chain knows it by (the proposervm id when wrapped).
    pub id: Id,
    /// The parent's id, in the same id space.
    pub parent_id: Id,
    /// Block time, Unix seconds (the Banff time; the acceptance time for Apricot blocks).
    pub timestamp: u64,
    /// The Go type name (`BanffStandardBlock`, ...), the Data API `blockType`.
    pub block_type: String,
    /// Its txs, in order.
    pub tx_ids: Vec<Id>,
    /// Size of the container, bytes.
    pub size: u32,
    /// The reward calculator's supply after the block.
    pub current_supply: u64,
    /// Active L1 validators after the block.
    pub active_l1_validators: u32,
    /// Fees accrued per L1 validator since the conversion rules began, after the block.
    pub l1_accrued_fees: u64,
    /// The proposervm wrapper's details.
    pub proposer: Option<ProposerDetails>,
}

impl Encode for BlockRow {
    fn encode(&self, w: &mut Writer) {
        self.id.encode(w);
        self.parent_id.encode(w);
        w.u64(self.timestamp);
        w.str(&self.block_type);
        self.tx_ids.encode(w);
        w.u32(self.size);
        w.u64(self.current_supply);
        w.u32(self.active_l1_validators);
        w.u64(self.l1_accrued_fees);
        put_opt(w, &self.proposer, put_proposer);
    }
}

impl Decode for BlockRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            id: Id::decode(r)?,
            parent_id: Id::decode(r)?,
            timestamp: r.u64()?,
            block_type: get_string(r)?,
            tx_ids: Vec::decode(r)?,
            size: r.u32()?,
            current_supply: r.u64()?,
            active_l1_validators: r.u32()?,
            l1_accrued_fees: r.u64()?,
            proposer: get_opt(r, get_proposer)?,
        })
    }
}

fn put_proposer(w: &mut Writer, p: &ProposerDetails) {
    p.id.encode(w);
    p.parent_id.encode(w);
    put_opt(w, &p.node_id, |w, n| n.encode(w));
    put_opt(w, &p.timestamp, |w, t| w.i64(*t));
    put_opt(w, &p.p_chain_height, |w, h| w.u64(*h));
}

fn get_proposer(r: &mut Reader<'_>) -> Result<ProposerDetails, CodecError> {
    Ok(ProposerDetails {
        id: Id::decode(r)?,
        parent_id: Id::decode(r)?,
        node_id: get_opt(r, NodeId::decode)?,
        timestamp: get_opt(r, |r| r.i64())?,
        p_chain_height: get_opt(r, |r| r.u64())?,
    })
}

/// One accepted C-Chain block as the Primary Network's block operations show it, read off its
/// `C/block` container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CBlockRow {
    /// The coreth block's hash (keccak-256 of its header).
    pub hash: [u8; 32],
    /// The parent's hash.
    pub parent: [u8; 32],
    /// Block time, Unix seconds.
    pub timestamp: u64,
    /// Its atomic txs, in order.
    pub atomic_tx_ids: Vec<Id>,
    /// Its EVM txs.
    pub evm_txs: u32,
    /// Size of the container, bytes.
    pub size: u32,
    /// The proposervm wrapper's details.
    pub proposer: Option<ProposerDetails>,
}

impl Encode for CBlockRow {
    fn encode(&self, w: &mut Writer) {
        w.raw(&self.hash);
        w.raw(&self.parent);
        w.u64(self.timestamp);
        self.atomic_tx_ids.encode(w);
        w.u32(self.evm_txs);
        w.u32(self.size);
        put_opt(w, &self.proposer, put_proposer);
    }
}

impl Decode for CBlockRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            hash: r.array::<32>()?,
            parent: r.array::<32>()?,
            timestamp: r.u64()?,
            atomic_tx_ids: Vec::decode(r)?,
            evm_txs: r.u32()?,
            size: r.u32()?,
            proposer: get_opt(r, get_proposer)?,
        })
    }
}

/// Where an accepted tx is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TxRow {
    /// Its block's height and time (height 0: genesis).
    pub event: Event,
    /// Its position in the block.
    pub index: u32,
    /// The codec type id of the unsigned tx.
    pub type_id: u32,
    /// Where its bytes lie in its block's stored container, so that rendering it parses
    /// this tx alone; `None` for genesis txs and a proposal's tx re-applied at its commit.
    pub place: Option<TxPlace>,
}

impl Encode for TxRow {
    fn encode(&self, w: &mut Writer) {
        self.event.encode(w);
        w.u32(self.index);
        w.u32(self.type_id);
        put_opt(w, &self.place, |w, p| p.encode(w));
    }
}

impl Decode for TxRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            event: Event::decode(r)?,
            index: r.u32()?,
            type_id: r.u32()?,
            place: get_opt(r, TxPlace::decode)?,
        })
    }
}

pub use snowline_types::container::TxPlace;

/// A subnet: its creation, owner and, once converted, its L1 manager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubnetRow {
    /// The `CreateSubnetTx` (or the last `TransferSubnetOwnershipTx`'s owner).
    pub created: Event,
    /// Who may change it (until converted).
    pub owner: OutputOwners,
    /// The `ConvertSubnetToL1Tx`: the manager chain, its address and the conversion.
    pub conversion: Option<Conversion>,
}

/// A subnet's conversion to an L1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// The conversion tx.
    pub event: Event,
    /// The chain of the validator manager.
    pub chain_id: Id,
    /// The validator manager's address on it.
    pub address: Vec<u8>,
}

impl Encode for SubnetRow {
    fn encode(&self, w: &mut Writer) {
        self.created.encode(w);
        self.owner.encode(w);
        put_opt(w, &self.conversion, |w, c| {
            c.event.encode(w);
            c.chain_id.encode(w);
            w.bytes(&c.address);
        });
    }
}

impl Decode for SubnetRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            created: Event::decode(r)?,
            owner: OutputOwners::decode(r)?,
            conversion: get_opt(r, |r| {
                Ok(Conversion {
                    event: Event::decode(r)?,
                    chain_id: Id::decode(r)?,
                    address: get_bytes(r)?,
                })
            })?,
        })
    }
}

/// A blockchain created on the P-Chain (genesis chains included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainRow {
    /// Its subnet.
    pub subnet_id: Id,
    /// Its name.
    pub name: String,
    /// Its VM.
    pub vm_id: Id,
    /// Its fxs.
    pub fx_ids: Vec<Id>,
    /// Its genesis bytes (a JSON document for EVM chains).
    pub genesis: Vec<u8>,
    /// The `CreateChainTx`, its block and time.
    pub created: Event,
}

impl Encode for ChainRow {
    fn encode(&self, w: &mut Writer) {
        self.subnet_id.encode(w);
        w.str(&self.name);
        self.vm_id.encode(w);
        self.fx_ids.encode(w);
        w.bytes(&self.genesis);
        self.created.encode(w);
    }
}

impl Decode for ChainRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            subnet_id: Id::decode(r)?,
            name: get_string(r)?,
            vm_id: Id::decode(r)?,
            fx_ids: Vec::decode(r)?,
            genesis: get_bytes(r)?,
            created: Event::decode(r)?,
        })
    }
}

/// What an L1 validator's place in its L1's validator set depends on, after a block's txs
/// changed it: a weight of 0 is a removed validator; it is active while
/// `end_accumulated_fee` is above the fees accrued per validator (0: disabled or run out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct L1ValidatorState {
    /// Its weight.
    pub weight: u64,
    /// Its `EndAccumulatedFee`.
    pub end_accumulated_fee: u64,
}

impl Encode for L1ValidatorState {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.weight);
        w.u64(self.end_accumulated_fee);
    }
}

impl Decode for L1ValidatorState {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            weight: r.u64()?,
            end_accumulated_fee: r.u64()?,
        })
    }
}

/// An L1 validator (ACP-77), as of the last tx that touched it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct L1ValidatorRow {
    /// Its L1.
    pub subnet_id: Id,
    /// Its node id (20 bytes for every node id avalanchego issues).
    pub node_id: Vec<u8>,
    /// BLS public key, 48 bytes compressed.
    pub public_key: [u8; 48],
    /// BLS proof of possession, 96 bytes.
    pub proof_of_possession: [u8; 96],
    /// Weight; 0 once removed.
    pub weight: u64,
    /// The accrued-fee level at which its balance runs out (`EndAccumulatedFee`); 0 when
    /// disabled.
    pub end_accumulated_fee: u64,
    /// Who gets the balance left when it leaves.
    pub remaining_balance_owner: PChainOwner,
    /// Who may disable it.
    pub deactivation_owner: PChainOwner,
    /// Its registration (conversion or `RegisterL1ValidatorTx`).
    pub created: Event,
    /// The lowest nonce a weight message may carry next.
    pub min_nonce: u64,
}

impl L1ValidatorRow {
    /// Whether it is active with the per-validator fees accrued so far at `accrued`.
    pub fn active(&self, accrued: u64) -> bool {
        self.weight > 0 && self.end_accumulated_fee > accrued
    }

    /// Its balance left (nAVAX) when `accrued` per-validator fees have accrued.
    pub fn remaining_balance(&self, accrued: u64) -> u64 {
        self.end_accumulated_fee.saturating_sub(accrued)
    }
}

impl Encode for L1ValidatorRow {
    fn encode(&self, w: &mut Writer) {
        self.subnet_id.encode(w);
        w.bytes(&self.node_id);
        self.public_key.encode(w);
        self.proof_of_possession.encode(w);
        w.u64(self.weight);
        w.u64(self.end_accumulated_fee);
        self.remaining_balance_owner.encode(w);
        self.deactivation_owner.encode(w);
        self.created.encode(w);
        w.u64(self.min_nonce);
    }
}

impl Decode for L1ValidatorRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            subnet_id: Id::decode(r)?,
            node_id: get_bytes(r)?,
            public_key: r.array()?,
            proof_of_possession: r.array()?,
            weight: r.u64()?,
            end_accumulated_fee: r.u64()?,
            remaining_balance_owner: PChainOwner::decode(r)?,
            deactivation_owner: PChainOwner::decode(r)?,
            created: Event::decode(r)?,
            min_nonce: r.u64()?,
        })
    }
}

/// A breakpoint of an L1's (or the network's) fee curve, in accrued-fee space: the fees its
/// validators paid until the per-validator accrued fee reached this level, and the counts that
/// change at it. Between two breakpoints every one of `active` validators pays what the accrued
/// fee grows by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeeCurvePoint {
    /// nAVAX paid up to this level.
    pub fees: u64,
    /// Validators paying just above this level.
    pub active: u64,
    /// Paying periods begun at or below this level.
    pub starts: u64,
    /// Paying periods ended at or below this level.
    pub stops: u64,
    /// Paying periods begun at or below this level by a validator whose previous period ended
    /// on the same UTC day (counted once that day).
    pub rejoins: u64,
}

impl FeeCurvePoint {
    /// The point at level `to` (not below `at`, this point's level), nothing changing between.
    pub fn carried(self, at: u64, to: u64) -> FeeCurvePoint {
        let paid = self.active.saturating_mul(to.saturating_sub(at));
        FeeCurvePoint {
            fees: self.fees.saturating_add(paid),
            ..self
        }
    }
}

impl Encode for FeeCurvePoint {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.fees);
        w.u64(self.active);
        w.u64(self.starts);
        w.u64(self.stops);
        w.u64(self.rejoins);
    }
}

impl Decode for FeeCurvePoint {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            fees: r.u64()?,
            active: r.u64()?,
            starts: r.u64()?,
            stops: r.u64()?,
            rejoins: r.u64()?,
        })
    }
}

/// What the followed node said of a current validator at its last poll
/// (`platform.getCurrentValidators`): not in the chain's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UptimeRow {
    /// Its uptime over its current period, in ten-thousandths of a percent.
    pub uptime: u32,
    /// Whether the node was connected to it.
    pub connected: bool,
    /// When the node said so, Unix seconds.
    pub observed_at: u64,
}

impl Encode for UptimeRow {
    fn encode(&self, w: &mut Writer) {
        w.u32(self.uptime);
        w.bool(self.connected);
        w.u64(self.observed_at);
    }
}

impl Decode for UptimeRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            uptime: r.u32()?,
            connected: r.bool()?,
            observed_at: r.u64()?,
        })
    }
}

/// The four staking figures of a subnet at one time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StakingFigures {
    /// Validators staking (each staker tx counts once: a node validating twice in a row is
    /// two consecutive intervals, never overlapping), and an L1's active validators.
    pub validator_count: u64,
    /// Their own stakes (weights), summed; an L1 validator's current weight.
    pub validator_weight: u128,
    /// Delegators staking.
    pub delegator_count: u64,
    /// Their stakes, summed.
    pub delegator_weight: u128,
}

impl StakingFigures {
    /// Adds (`enters`) or takes away one validator or delegator of `weight`.
    pub fn apply(&mut self, validator: bool, weight: u128, enters: bool) {
        let (count, sum) = if validator {
            (&mut self.validator_count, &mut self.validator_weight)
        } else {
            (&mut self.delegator_count, &mut self.delegator_weight)
        };
        if enters {
            *count = count.saturating_add(1);
            *sum = sum.saturating_add(weight);
        } else {
            *count = count.saturating_sub(1);
            *sum = sum.saturating_sub(weight);
        }
    }
}

fn put_u128(w: &mut Writer, v: u128) {
    w.u64((v >> 64) as u64);
    w.u64(v as u64);
}

fn get_u128(r: &mut Reader<'_>) -> Result<u128, CodecError> {
    let hi = u128::from(r.u64()?);
    Ok((hi << 64) | u128::from(r.u64()?))
}

impl Encode for StakingFigures {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.validator_count);
        put_u128(w, self.validator_weight);
        w.u64(self.delegator_count);
        put_u128(w, self.delegator_weight);
    }
}

impl Decode for StakingFigures {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            validator_count: r.u64()?,
            validator_weight: get_u128(r)?,
            delegator_count: r.u64()?,
            delegator_weight: get_u128(r)?,
        })
    }
}

/// What a staker not started yet will change in the staking figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotStarted {
    /// Its subnet.
    pub subnet_id: Id,
    /// A validator (else a delegator).
    pub validator: bool,
    /// Its weight.
    pub weight: u64,
}

impl Encode for NotStarted {
    fn encode(&self, w: &mut Writer) {
        self.subnet_id.encode(w);
        w.u8(u8::from(self.validator));
        w.u64(self.weight);
    }
}

impl Decode for NotStarted {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            subnet_id: Id::decode(r)?,
            validator: r.u8()? != 0,
            weight: r.u64()?,
        })
    }
}
