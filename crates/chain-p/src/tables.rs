//! The Data API's P-Chain tables. Every key is in the order an endpoint reads it (big-endian
//! integers, raw ids), so a page is one range scan from its token's position; see
//! `docs/pchain-history.md` for the layout.

use snowline_derive::AssetTotal;
use snowline_store::{Linear, table};
use snowline_types::{Id, NodeId, ShortId};

use crate::rows::{
    BlockRow, CBlockRow, ChainRow, Delegations, Event, FeeCurvePoint, L1ValidatorRow,
    L1ValidatorState, NotStarted, StakerAddresses, StakerRow, StakingFigures, SubnetRow, TxRow,
    UptimeRow, UtxoRow, ValidatorPeriod,
};

table! {
    /// Every P-Chain table, for composing a binary's [`Schema`](snowline_store::Schema).
    pub fn tables();

    /// `utxo id -> UtxoRow`: every UTXO ever seen (spent ones kept; stakes from their staker
    /// tx on), with its bytes, creation, consumption and staking.
    pub PhUtxos: "ph_utxos" (PointLookup), Id => Linear<UtxoRow>;

    /// `utxo id -> consuming Event`: imports between X and P derived before the export that
    /// creates their UTXO (the other chain's containers arrive later); the export then creates
    /// the UTXO already consumed and removes the entry.
    pub PhEarlySpends: "ph_early_spends" (PointLookup), Id => Linear<Event>;

    /// `(address, creation ts, utxo id) -> ()`: an owner's unspent UTXOs by time.
    pub PhUnspentByTime: "ph_unspent_by_time", (ShortId, u64, Id) => ();

    /// `(address, asset, holding code, shared chain, locktime) -> AssetTotal`: the unspent UTXOs
    /// of each single owner that are neither staked nor stakeable-locked, whose bucket depends
    /// only on the holding (atomic or not), the chain shared with, and the locktime; current
    /// balances add these up.
    pub PhBalances: "ph_balances", (ShortId, Id, u8, Id, u64) => AssetTotal;

    /// `(address, utxo id) -> in ph_stake_sums`: every other unspent UTXO of the address
    /// (several owners, staked, stakeable-locked, rewards), which current balances bucket one by
    /// one, unless it is counted in the owner's `ph_stake_sums` (1) and the sums can be read.
    pub PhUnspentSpecial: "ph_unspent_special", (ShortId, Id) => u8;

    /// `(address, asset, staked, staker start, locktime, stakeable locktime) -> AssetTotal`: the
    /// unspent native UTXOs of each single owner that `ph_balances` leaves out (stakes, rewards,
    /// stakeable-locked outputs), summed by all their bucket depends on at a time no earlier
    /// than the last block's: whether a stake is still staked (1, with its staker's start) or
    /// not (0, start 0: returned stakes, rewards, stakeable-locked outputs), the locktime and the
    /// stakeable locktime (`UtxoRow::stake_class`).
    pub PhStakeSums: "ph_stake_sums", (ShortId, Id, u8, u64, u64, u64) => AssetTotal;

    /// `stakeable locktime -> AssetTotal`: the unspent native AVAX outputs (stakes aside) under a
    /// stakeable lock, by the lock's end; the supply's `totalLocked` sums those past the chain
    /// time.
    pub PhStakeableLocked: "ph_stakeable_locked", u64 => AssetTotal;

    /// `(address, amount, utxo id) -> ()`: an owner's unspent UTXOs by amount.
    pub PhUnspentByAmount: "ph_unspent_by_amount", (ShortId, u64, Id) => ();

    /// `(address, creation ts, utxo id) -> ()`: an owner's UTXOs, spent included, by time (also
    /// what balances as of a past time scan).
    pub PhAllByTime: "ph_all_by_time", (ShortId, u64, Id) => ();

    /// `(address, amount, utxo id) -> ()`: an owner's UTXOs, spent included, by amount.
    pub PhAllByAmount: "ph_all_by_amount", (ShortId, u64, Id) => ();

    /// `tx id -> TxRow`: every accepted tx (genesis included).
    pub PhTxs: "ph_txs" (PointLookup), Id => Linear<TxRow>;

    /// `(address, height, tx id) -> ()`: every P-Chain tx an address takes part in (owner of a
    /// UTXO it consumes, emits or returns from staking, reward owner, subnet owner), by the
    /// height of the block holding the tx (a proposal's, for the txs its option applies).
    pub PhTxsByAddress: "ph_txs_by_address", (ShortId, u64, Id) => ();

    /// `(validation id, height, tx id) -> ()`: the txs of each L1 validation (the conversion or
    /// registration that created it, and every weight change, top-up and disable naming it), by
    /// the height of the block holding the tx.
    pub PhTxsByL1Validation: "ph_txs_by_l1_validation", (Id, u64, Id) => ();

    /// `((address, kind), block time, tx id) -> ()`: the C-Chain's atomic txs an address takes
    /// part in as an owner of a UTXO they move through the P-Chain's shared memory (kind
    /// [`C_ATOMIC_IMPORT`]: an import consumed it; [`C_ATOMIC_EXPORT`]: an export emitted it),
    /// by the C-Chain block's time; the X-Chain history keeps the other addresses.
    pub PhCTxsByAddress: "ph_c_txs_by_address", ((ShortId, u8), u64, Id) => ();

    /// `(tx id, role, utxo id) -> ()`: the UTXOs a P-Chain tx consumed ([`TX_CONSUMED`]) and
    /// emitted ([`TX_EMITTED`]: its outputs, stakes, exports, refunds and rewards).
    pub PhTxUtxos: "ph_tx_utxos", (Id, u8, Id) => ();

    /// `height -> BlockRow`.
    pub PhBlocks: "ph_blocks", u64 => Linear<BlockRow>;

    /// `(proposer node, block ts, height) -> ()`: the blocks each node proposed, by time.
    pub PhBlocksByProposer: "ph_blocks_by_proposer", (NodeId, u64, u64) => ();

    /// `C-Chain block number -> CBlockRow`: the C-Chain's blocks, from their `C/block`
    /// containers.
    pub PhCBlocks: "ph_c_blocks", u64 => Linear<CBlockRow>;

    /// `coreth block hash -> number`: the C-Chain's blocks by hash.
    pub PhCBlockHashes: "ph_c_block_hashes" (PointLookup), Id => u64;

    /// `(proposer node, block ts, number) -> ()`: the C-Chain blocks each node proposed, by time.
    pub PhCBlocksByProposer: "ph_c_blocks_by_proposer", (NodeId, u64, u64) => ();

    /// `staker tx id -> StakerRow`: every staker, current or settled.
    pub PhStakers: "ph_stakers" (PointLookup), Id => Linear<StakerRow>;

    /// `(address, height, staker tx) -> ()`: the staker txs not settled yet that each address
    /// takes part in, at the `ph_txs_by_address` key the tx has; an address's staking listing
    /// reads these alone. Written with the tx, removed when its staker is settled.
    pub PhStakingByAddress: "ph_staking_by_address", (ShortId, u64, Id) => ();

    /// `staker tx -> StakerAddresses`: the `ph_staking_by_address` entries of each staker not
    /// settled yet, for removing them when it is.
    pub PhStakerAddresses: "ph_staker_addresses" (PointLookup), Id => Linear<StakerAddresses>;

    /// `(node, start, staker tx) -> ()`: every staker of a node (validator and delegators).
    pub PhStakersByNode: "ph_stakers_by_node", (NodeId, u64, Id) => ();

    /// `(node, start, staker tx) -> ()`: every validator of a node (any subnet), delegators
    /// aside: a node's validations page through these alone.
    pub PhValidatorsByNode: "ph_validators_by_node", (NodeId, u64, Id) => ();

    /// `validator staker tx -> Delegations`: what its delegators add up to (absent while it has
    /// none), kept as each delegator is accepted and settled.
    pub PhDelegations: "ph_delegations" (PointLookup), Id => Linear<Delegations>;

    /// `((figure, set, subnet), value, staker tx) -> ()`: the validators in the order of each
    /// figure a validator listing sorts by (`validator_orders`), every validator and the
    /// current ones (not settled), of every subnet and of each; an entry moves when its value
    /// changes (a delegation capacity, as delegators come and go).
    pub PhValidatorSorts: "ph_validator_sorts", ((u8, u8, Id), u64, Id) => ();

    /// `(subnet, staker tx's block time, staker tx) -> ValidatorPeriod`: every validator of each
    /// subnet (primary network: all zeros), delegators and L1 validators aside, by acceptance.
    pub PhValidatorsBySubnet: "ph_validators_by_subnet", (Id, u64, Id) => Linear<ValidatorPeriod>;

    /// `subnet -> seconds`: the longest stated period of a validator of the subnet, counted
    /// from its tx's block time; bounds how far before a range a validator overlapping it can
    /// have been accepted.
    pub PhValidatorSpans: "ph_validator_spans" (PointLookup), Id => u64;

    /// `(reward owner address, start, staker tx) -> ()`: every staker paying its own reward to
    /// the address.
    pub PhStakersByOwner: "ph_stakers_by_owner", (ShortId, u64, Id) => ();

    /// `(end, staker tx) -> ()`: the current stakers (not yet settled), by end time.
    pub PhCurrentStakers: "ph_current_stakers", (u64, Id) => ();

    /// `(subnet, node) -> staker tx`: the current validator of each node on each subnet.
    pub PhCurrentValidators: "ph_current_validators", (Id, NodeId) => Id;

    /// `(owner address, reward ts, utxo id) -> ()`: reward UTXOs by the address they pay.
    pub PhRewardsByOwner: "ph_rewards_by_owner", (ShortId, u64, Id) => ();

    /// `(node, reward ts, utxo id) -> ()`: reward UTXOs by the node their staker staked on.
    pub PhRewardsByNode: "ph_rewards_by_node", (NodeId, u64, Id) => ();

    /// `subnet id -> SubnetRow`.
    pub PhSubnets: "ph_subnets" (PointLookup), Id => Linear<SubnetRow>;

    /// `blockchain id -> ChainRow`: every chain created on the P-Chain, genesis chains too.
    pub PhChains: "ph_chains" (PointLookup), Id => Linear<ChainRow>;

    /// `validation id -> L1ValidatorRow`.
    pub PhL1Validators: "ph_l1_validators", Id => Linear<L1ValidatorRow>;

    /// `(subnet, validation id) -> ()`: an L1's validators.
    pub PhL1BySubnet: "ph_l1_by_subnet", (Id, Id) => ();

    /// `(validation id, height) -> L1ValidatorState`: an L1 validator's weight and end fee after
    /// each block whose txs changed them (registration, weight, top-up, disable), so its L1's
    /// validator set can be rebuilt at any height (running out of balance is read from the
    /// block's accrued fees).
    pub PhL1History: "ph_l1_history", (Id, u64) => Linear<L1ValidatorState>;

    /// `(node id bytes, validation id) -> ()`: the L1 validations of a node.
    pub PhL1ByNode: "ph_l1_by_node", (Vec<u8>, Id) => ();

    /// `(end accumulated fee, validation id) -> ()`: the active L1 validators, in the order
    /// their balances run out (`GetActiveL1ValidatorsIterator`).
    pub PhL1Active: "ph_l1_active", (u64, Id) => ();

    /// `UTC day start -> accrued fee`: the per-L1-validator fee accrued by the day's end (by the
    /// chain time for the day in progress), from Etna on; a gap between blocks writes every day
    /// it crosses, split as the fee state evolves per second.
    pub PhL1FeeDays: "ph_l1_fee_days", u64 => u64;

    /// `(validation id, accrued fee at start) -> accrued fee at end`: an L1 validator's ended
    /// paying periods, as ranges of the accrued fee (it pays what the accrued fee grows by).
    pub PhL1Periods: "ph_l1_periods", (Id, u64) => u64;

    /// `validation id -> accrued fee at start`: the paying period an active L1 validator is in.
    pub PhL1OpenPeriods: "ph_l1_open_periods" (PointLookup), Id => u64;

    /// `validation id -> accrued fee`: where its last paying period ended.
    pub PhL1Stopped: "ph_l1_stopped" (PointLookup), Id => u64;

    /// `(scope, accrued fee) -> FeeCurvePoint`: each L1's fee curve (scope: its subnet id) and
    /// the network's ([`FEE_CURVE_TOTAL`]), a breakpoint wherever a validator starts or stops
    /// paying.
    pub PhL1FeeCurve: "ph_l1_fee_curve", (Id, u64) => Linear<FeeCurvePoint>;

    /// `scope -> accrued fee`: the level of the scope's last [`PhL1FeeCurve`] breakpoint.
    pub PhL1FeeHead: "ph_l1_fee_head" (PointLookup), Id => u64;

    /// `(subnet, UTC day start) -> StakingFigures`: a subnet's validators and delegators (an
    /// L1's active validators) after the last change in the day; a day without a change has no
    /// row (the day before's figures hold).
    pub PhStakingDays: "ph_staking_days", (Id, u64) => Linear<StakingFigures>;

    /// `subnet -> StakingFigures`: the figures as of the chain time.
    pub PhStakingNow: "ph_staking_now" (PointLookup), Id => Linear<StakingFigures>;

    /// `(start, staker tx) -> NotStarted`: stakers accepted before the start their tx states
    /// (before Durango), counted in the staking figures once the chain time reaches it.
    pub PhStakersNotStarted: "ph_stakers_not_started", (u64, Id) => Linear<NotStarted>;

    /// `(listing, order value, id) -> ()`: the whole chain's staking and subnet listings in
    /// their order (see the `ORDER_*` listings): validators by their tx's block height,
    /// delegators by start, subnets by their creation's block height, the current staker txs
    /// by height.
    pub PhOrders: "ph_orders", (u8, u64, Id) => ();

    /// Chain-wide values (see the `META_*` keys).
    pub PhMeta: "ph_meta", u8 => u64;

    /// `staker tx id -> UptimeRow`: the followed node's uptime and connection of each current
    /// validator at its last `platform.getCurrentValidators` (replaced whole at each poll).
    /// Observed, not derived from the chain: the digests of two runs leave it out.
    pub PhUptimes: "ph_uptimes" (PointLookup), Id => Linear<UptimeRow>;

    /// `0 -> Unix seconds`: when the followed node last gave validator uptimes (absent while
    /// none did), written with [`PhUptimes`].
    pub PhUptimesAt: "ph_uptimes_at", u8 => u64;

    /// The proposal tx of the last accepted proposal block (codec version 0 ‖ signed tx), until
    /// its option is accepted; key `0`.
    pub PhPendingProposal: "ph_pending_proposal", u8 => Vec<u8>;
}

/// [`PhMeta`] key: the genesis time (present once the genesis was applied).
pub const META_GENESIS_TIME: u8 = 0;
/// [`PhMeta`] key: the reward calculator's current supply.
pub const META_CURRENT_SUPPLY: u8 = 1;
/// [`PhMeta`] key: the chain time (the last block's time).
pub const META_CHAIN_TIME: u8 = 2;
/// [`PhMeta`] key: height of the last applied block.
pub const META_HEIGHT: u8 = 3;
/// [`PhMeta`] key: per-L1-validator fees accrued since the first L1 (`GetAccruedFees`).
pub const META_L1_ACCRUED_FEES: u8 = 4;
/// [`PhMeta`] key: the L1 validator fee excess (`fee.State.Excess`).
pub const META_L1_FEE_EXCESS: u8 = 5;
/// [`PhMeta`] key: active L1 validators (`fee.State.Current`).
pub const META_L1_ACTIVE: u8 = 6;
/// [`PhMeta`] key: the time of the first subnet-to-L1 conversion (absent before one).
pub const META_L1_SINCE: u8 = 7;
/// [`PhMeta`] key: the accrued fee at the start of the chain time's UTC day.
pub const META_L1_DAY_START: u8 = 8;

/// [`PhMeta`] key: nAVAX the P-Chain's txs burned (`UnsignedTx::burned`), summed.
pub const META_P_BURNED: u8 = 9;
/// [`PhMeta`] key: nAVAX the C-Chain's atomic txs burned (`coreth::UnsignedTx::burned`), summed.
pub const META_C_BURNED: u8 = 10;
/// [`PhMeta`] key: the genesis's initial supply (`PGenesisState::initial_supply`).
pub const META_INITIAL_SUPPLY: u8 = 11;

/// [`PhMeta`] key: the potential rewards of the primary-network stakers not settled yet, summed.
pub const META_UNSETTLED_REWARDS: u8 = 12;
/// [`PhMeta`] key: the stakes of the primary-network stakers not settled yet, summed.
pub const META_UNSETTLED_STAKE: u8 = 13;

/// [`PhOrders`] listing: every validator (any subnet), by its staker tx's block height.
pub const ORDER_VALIDATORS: u8 = 0;
/// [`PhOrders`] listing: every delegator (any subnet), by its staking start.
pub const ORDER_DELEGATORS: u8 = 1;
/// [`PhOrders`] listing: every subnet created by a `CreateSubnetTx`, by its block height.
pub const ORDER_SUBNETS: u8 = 2;
/// [`PhOrders`] listing: the staker txs in a block whose staker is not settled yet, by the
/// height their tx is indexed at (`ph_txs_by_address`'s).
pub const ORDER_CURRENT_STAKING: u8 = 3;
/// [`PhValidatorSorts`] figure: the staker tx's block height.
pub const SORT_BY_BLOCK_INDEX: u8 = 0;
/// [`PhValidatorSorts`] figure: the delegation capacity (0 without one).
pub const SORT_BY_CAPACITY: u8 = 1;
/// [`PhValidatorSorts`] figure: the end (the order of the time remaining).
pub const SORT_BY_END: u8 = 2;
/// [`PhValidatorSorts`] figure: the delegation fee, millionths (0 without one).
pub const SORT_BY_FEE: u8 = 3;
/// [`PhValidatorSorts`] set bit: the current validators only (else every validator).
pub const SORT_CURRENT: u8 = 1;
/// [`PhValidatorSorts`] set bit: the validators of the subnet the key names (else of every
/// subnet, under the all-zero id).
pub const SORT_ONE_SUBNET: u8 = 2;
/// [`PhCTxsByAddress`] kind: a C-Chain `ImportTx`.
pub const C_ATOMIC_IMPORT: u8 = 0;
/// [`PhCTxsByAddress`] kind: a C-Chain `ExportTx`.
pub const C_ATOMIC_EXPORT: u8 = 1;
/// [`PhTxUtxos`] role: a UTXO the tx consumed.
pub const TX_CONSUMED: u8 = 0;
/// [`PhTxUtxos`] role: a UTXO the tx emitted.
pub const TX_EMITTED: u8 = 1;

/// The [`PhL1FeeCurve`] scope of the whole network: the primary network's id, which is never an
/// L1 and so never a subnet's scope.
pub const FEE_CURVE_TOTAL: Id = Id::EMPTY;

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct names are the store's rule (`Schema` refuses a name listed twice, and every
    /// test store opens this room's tables); the prefix is this room's.
    #[test]
    fn names_carry_the_room_prefix() {
        assert!(tables().iter().all(|t| t.name.starts_with("ph_")));
    }
}
