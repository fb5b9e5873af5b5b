//! The devnet's P-Chain: Banff blocks wrapped in proposervm blocks signed by the genesis
//! validators in turn, holding BaseTx transfers, primary-network stakers (BLS keys, some from
//! stakeable-locked outputs) and their reward proposals with commit or abort options, a subnet
//! and its chain converted to an L1 whose validators are registered, reweighted, topped up and
//! disabled with real Warp messages, and atomic transfers with the X-Chain both ways.
//!
//! Rules followed (avalanchego): stakers are rewarded in `(end time, priority, tx id)` order by a
//! `BanffProposalBlock` whose time is the staker's end time (`txs/executor/proposal_tx_executor.go`);
//! a potential reward is computed when the staker is added, at the current supply, which it then
//! increases (`standard_tx_executor.go` `putStaker`); an abort takes it back. Outputs created in a
//! block are spent from the next block on.

use std::collections::{BTreeMap, VecDeque};

use snowline_types::components::UtxoId;
use snowline_types::components::transferables::sort_outputs;
use snowline_types::container::{ContainerRecord, IndexPath};
use snowline_types::fx::secp256k1fx::{self, Input, TransferInput, TransferOutput};
use snowline_types::hashing::sha256;
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::reward::Config as RewardConfig;
use snowline_types::platformvm::reward_utxos::{
    RewardBranch, defers_delegatee_reward, delegator_reward_utxos, validator_reward_utxos,
};
use snowline_types::platformvm::txs::{
    AddPermissionlessDelegatorTx, AddPermissionlessValidatorTx, BaseTx, ConvertSubnetToL1Tx,
    ConvertSubnetToL1Validator, CreateChainTx, CreateSubnetTx, DisableL1ValidatorTx, ExportTx,
    ImportTx, IncreaseL1ValidatorBalanceTx, RegisterL1ValidatorTx, RewardValidatorTx,
    SetL1ValidatorWeightTx, Validator,
};
use snowline_types::platformvm::{
    Auth, Block, CommonBlock, Credential, LockIn, LockOut, Owner, ParsedTx, ProofOfPossession,
    Signer, TransferableIn, TransferableInput, TransferableOut, TransferableOutput, Tx, UnsignedTx,
    Utxo,
};
use snowline_types::proposervm;
use snowline_types::warp::{
    AddressedCall, BitSetSignature, L1Message, L1ValidatorWeight, Message, PChainOwner, Payload,
    RegisterL1Validator, UnsignedMessage, conversion_validation_id,
};
use snowline_types::{Id, NodeId};

use crate::atomic::AtomicUtxo;
use crate::error::DevnetError;
use crate::keys::{EWOQ, KeyRing};
use crate::nodes::{self, DevnetNode};
use crate::pgenesis::{self, GENESIS_VALIDATORS, PGenesisBuild};
use crate::pool::Owners;
use crate::rng::DetRng;

const NANOS: i64 = 1_000_000_000;
/// The fee every P-Chain tx burns: 1 mAVAX (the local network's static `TxFee`).
pub const P_TX_FEE: u64 = 1_000_000;
/// The fee of `CreateSubnetTx` and `CreateChainTx`: 100 mAVAX (local static fees).
pub const P_CREATE_FEE: u64 = 100_000_000;
/// Shortest staking period (local `MinStakeDuration`, 24 h).
pub const MIN_STAKE_S: u64 = 86_400;
/// Smallest validator stake (local `MinValidatorStake`, 2 000 AVAX).
pub const MIN_VALIDATOR_STAKE: u64 = 2_000_000_000_000;
/// Smallest delegator stake (local `MinDelegatorStake`, 25 AVAX).
pub const MIN_DELEGATOR_STAKE: u64 = 25_000_000_000;
/// Largest stakeable-locked coin a delegator stakes whole: 1 000 AVAX.
const MAX_LOCKED_DELEGATION: u64 = 1_000_000_000_000;
/// At most 1 AVAX leaves in an ExportTx output after the first blocks.
const MAX_EXPORT: u64 = 1_000_000_000;
/// Outputs per ExportTx of the opening export blocks.
const EXPORTS_PER_TX: usize = 1024;
/// Chain time between live standard blocks at most: a minute, so the history's stakers (25 h and
/// more) end within the first hour or so of a live run at a block a second or two, and chain time
/// stays behind the wall clock for weeks.
pub const LIVE_INTERVAL_S: u64 = 60;
/// Tx bytes per P block (under the 256 KiB block limit).
const MAX_BLOCK_TX_BYTES: usize = 200_000;
/// nAVAX each L1 validator deposits for its continuous fee: 1 AVAX.
const L1_BALANCE: u64 = 1_000_000_000;
/// The validator manager's address on the L1's chain (a made-up contract address).
pub const L1_MANAGER_ADDRESS: [u8; 20] = [
    0x0f, 0xee, 0xdc, 0x0d, 0xe0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x05,
];
/// The subnet-evm VM id (`srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy`, `subnetevm`
/// zero padded).
pub fn subnet_evm_id() -> Id {
    pgenesis::name_id(b"subnetevm")
}
/// The genesis JSON of the devnet's L1 chain (subnet-evm shaped).
pub const L1_GENESIS_JSON: &str = r#"{"config":{"chainId":99999,"feeConfig":{"gasLimit":8000000,"minBaseFee":25000000000,"targetGas":15000000,"baseFeeChangeDenominator":36,"minBlockGasCost":0,"maxBlockGasCost":1000000,"targetBlockRate":2,"blockGasCostStep":200000},"warpConfig":{"blockTimestamp":0,"quorumNumerator":67}},"alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x52B7D2DCC80CD2E4000000"}},"nonce":"0x0","timestamp":"0x0","extraData":"0x","gasLimit":"0x7A1200","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}"#;

/// What kind of P-Chain tx to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PKind {
    Base,
    ValidatorShort,
    ValidatorLocked,
    ValidatorLong,
    Delegator,
    DelegatorLocked,
    CreateSubnet,
    CreateChain,
    ConvertL1,
    RegisterL1,
    SetL1Weight,
    IncreaseL1Balance,
    DisableL1,
    ImportX,
    ExportX,
}

impl PKind {
    /// Kinds the block era must contain at least once, in the order tried.
    const REQUIRED: [PKind; 15] = [
        PKind::ValidatorShort,
        PKind::ValidatorLocked,
        PKind::ValidatorLong,
        PKind::CreateSubnet,
        PKind::Base,
        PKind::Delegator,
        PKind::DelegatorLocked,
        PKind::CreateChain,
        PKind::ExportX,
        PKind::ConvertL1,
        PKind::ImportX,
        PKind::RegisterL1,
        PKind::SetL1Weight,
        PKind::IncreaseL1Balance,
        PKind::DisableL1,
    ];
}

/// A spendable P-Chain output the generator owns.
#[derive(Debug, Clone)]
struct PCoin {
    utxo_id: UtxoId,
    amount: u64,
    owners: Owners,
    /// Stakeable locktime (0 = unlocked).
    locktime: u64,
}

/// A current primary-network staker.
#[derive(Debug, Clone)]
struct Staker {
    tx_id: Id,
    tx: UnsignedTx,
    node_id: NodeId,
    potential_reward: u64,
    delegator: bool,
}

/// A current validator's facts for delegations.
#[derive(Debug, Clone)]
struct ValidatorInfo {
    tx_id: Id,
    end: u64,
    weight: u64,
    delegated: u64,
    deferred: u64,
}

/// One L1 validator the generator can sign with (active ones sign Warp messages).
#[derive(Debug, Clone)]
struct L1Validator {
    validation_id: Id,
    node: DevnetNode,
    weight: u64,
    nonce: u64,
    owner_key: u32,
    active: bool,
}

/// The subnet and its L1.
#[derive(Debug, Clone, Default)]
struct L1State {
    subnet: Option<(Id, u32)>,
    subnet_ready: bool,
    chain: Option<Id>,
    chain_ready: bool,
    converted: bool,
    validators: Vec<L1Validator>,
}

/// Stakers ordered as avalanchego's current staker iterator: end time, then priority
/// (delegators before validators), then tx id.
type StakerKey = (u64, u8, Id);

/// Inputs, their signers, change outputs and the owner of the first coin.
type Payment = (
    Vec<TransferableInput>,
    Vec<Sig>,
    Vec<TransferableOutput>,
    u32,
);
/// A [`Payment`] plus the stake outputs: inputs, signers, change, stake, owner.
type StakeFunds = (
    Vec<TransferableInput>,
    Vec<Sig>,
    Vec<TransferableOutput>,
    Vec<TransferableOutput>,
    u32,
);

/// One signer of a tx input: the keys signing and its position.
struct Sig {
    keys: Vec<u32>,
}

/// The P-Chain generator.
pub(crate) struct PChain {
    net: NetworkInfo,
    avax: Id,
    ring: KeyRing,
    rng: DetRng,
    seed: u64,
    seeded_keys: u32,
    proposers: Vec<DevnetNode>,
    next_node: u32,
    ready: Vec<PCoin>,
    pending: Vec<PCoin>,
    locked: Vec<PCoin>,
    locked_pending: Vec<PCoin>,
    stakers: BTreeMap<StakerKey, Staker>,
    validators: BTreeMap<NodeId, ValidatorInfo>,
    supply: u64,
    reward_cfg: RewardConfig,
    reward_count: u64,
    /// UTXOs X and C exported to P: acceptance stamp, source chain, UTXO.
    from_x: VecDeque<(i64, Id, Utxo)>,
    /// Exports made so far (counts every third one to C instead of X).
    exports_made: u64,
    /// Exports to C of blocks made, with their blocks' stamps, until handed over.
    exported_to_c: Vec<(i64, Utxo)>,
    l1: L1State,
    queue: VecDeque<PKind>,
    prev_inner: Id,
    prev_outer: Id,
    height: u64,
    last_ts: i64,
    time_s: u64,
    out: VecDeque<ContainerRecord>,
    block: u64,
    blocks: u64,
    txs_per_block: usize,
    interval_s: u64,
    start_s: u64,
    high_water: usize,
    /// The next planned event's extra nanoseconds (ties with X records).
    bump: i64,
    /// Continuing live (`PChain::live_step`): the last standard block's time. Live, there is no
    /// last block, and every X export of an earlier step may be imported.
    live_last_s: Option<u64>,
    /// Txs generated so far.
    pub txs: u64,
    /// Blocks generated so far.
    pub block_count: u64,
    /// The genesis.
    pub genesis: PGenesisBuild,
    /// The UTXOs the opening blocks exported to the X-Chain.
    pub exported_to_x: Vec<AtomicUtxo>,
}

/// Parameters of the P-Chain generator.
pub(crate) struct PParams {
    pub seed: u64,
    pub start_s: u64,
    pub blocks: u64,
    pub txs_per_block: usize,
    pub interval_s: u64,
    pub lock_until: u64,
    pub exports_to_x: u32,
    pub other_supply: u64,
}

impl PChain {
    pub fn new(
        p: PParams,
        net: NetworkInfo,
        avax: Id,
        ring: KeyRing,
        avm_genesis: Vec<u8>,
    ) -> Result<Self, DevnetError> {
        let proposers = (0..GENESIS_VALIDATORS)
            .map(|i| DevnetNode::new(p.seed, i))
            .collect::<Result<Vec<_>, _>>()?;
        let genesis = pgenesis::build(
            &net,
            avax,
            &ring,
            &proposers,
            p.seed,
            p.start_s,
            p.lock_until,
            avm_genesis,
            p.other_supply,
        );
        let genesis_block = pgenesis::genesis_block(&genesis.genesis_bytes);
        let gid = genesis_block.id();
        let seeded_keys = u32::try_from(ring.len().saturating_sub(1)).unwrap_or(0);
        let mut me = Self {
            reward_cfg: RewardConfig::for_network(net.network_id),
            net,
            avax,
            ring,
            rng: DetRng::new(p.seed, 0x7063_6861),
            seed: p.seed,
            seeded_keys,
            proposers,
            next_node: GENESIS_VALIDATORS,
            ready: Vec::new(),
            pending: Vec::new(),
            locked: Vec::new(),
            locked_pending: Vec::new(),
            stakers: BTreeMap::new(),
            validators: BTreeMap::new(),
            supply: genesis.supply_after,
            reward_count: 0,
            from_x: VecDeque::new(),
            exports_made: 0,
            exported_to_c: Vec::new(),
            l1: L1State::default(),
            queue: PKind::REQUIRED.into_iter().collect(),
            prev_inner: gid,
            prev_outer: gid,
            height: 0,
            last_ts: 0,
            time_s: p.start_s,
            out: VecDeque::new(),
            block: 0,
            blocks: p.blocks,
            txs_per_block: p.txs_per_block.max(1),
            interval_s: p.interval_s.max(1),
            start_s: p.start_s,
            high_water: (4 * p.txs_per_block).max(64),
            bump: 0,
            live_last_s: None,
            txs: 0,
            block_count: 0,
            genesis,
            exported_to_x: Vec::new(),
        };
        me.absorb_genesis();
        me.opening_exports(p.exports_to_x)?;
        Ok(me)
    }

    fn absorb_genesis(&mut self) {
        let utxos = self.genesis.utxos.clone();
        for u in &utxos {
            self.track(u.utxo_id, &u.output, true);
        }
        let vals: Vec<(ParsedTx, u64)> = self
            .genesis
            .validators
            .iter()
            .cloned()
            .zip(self.genesis.rewards.iter().map(|(_, r)| *r))
            .collect();
        for (v, reward) in vals {
            if let UnsignedTx::AddPermissionlessValidatorTx(t) = &v.tx.unsigned {
                self.add_staker(
                    v.id,
                    v.tx.unsigned.clone(),
                    t.validator.node_id,
                    t.validator.end,
                    reward,
                    false,
                );
            }
        }
        self.commit();
    }

    /// Records an output the generator may spend later (pending until the next block).
    fn track(&mut self, utxo_id: UtxoId, out: &TransferableOut, now: bool) {
        let Some(owners) = Owners::from_output_owners(&self.ring, out.owners()) else {
            return;
        };
        if owners.locktime != 0 || owners.threshold != 1 {
            return;
        }
        let coin = PCoin {
            utxo_id,
            amount: out.amount(),
            owners,
            locktime: out.stakeable_locktime(),
        };
        let locked = coin.locktime > self.time_s;
        match (locked, now) {
            (true, true) => self.locked.push(coin),
            (true, false) => self.locked_pending.push(coin),
            (false, _) if coin.amount < 3 * P_CREATE_FEE => {}
            (false, true) => self.ready.push(coin),
            (false, false) => self.pending.push(coin),
        }
    }

    fn commit(&mut self) {
        self.ready.append(&mut self.pending);
        self.locked.append(&mut self.locked_pending);
    }

    fn add_staker(
        &mut self,
        tx_id: Id,
        tx: UnsignedTx,
        node_id: NodeId,
        end: u64,
        potential_reward: u64,
        delegator: bool,
    ) {
        let weight: u64 = tx.stake().iter().map(|o| o.output.amount()).sum();
        if delegator {
            if let Some(v) = self.validators.get_mut(&node_id) {
                v.delegated += weight;
            }
        } else {
            self.validators.insert(
                node_id,
                ValidatorInfo {
                    tx_id,
                    end,
                    weight,
                    delegated: 0,
                    deferred: 0,
                },
            );
        }
        self.stakers.insert(
            (end, u8::from(!delegator), tx_id),
            Staker {
                tx_id,
                tx,
                node_id,
                potential_reward,
                delegator,
            },
        );
    }

    /// The UTXOs exported to X, in `exports_to_x` outputs of 1–5 000 AVAX to seeded keys, all
    /// from `ewoq`'s genesis UTXO in one ExportTx per block (its change funds the next one).
    fn opening_exports(&mut self, count: u32) -> Result<(), DevnetError> {
        let mut left = count as usize;
        let mut k = 0i64;
        while left > 0 {
            let Some(i) = self.ready.iter().position(|c| c.owners.keys == [EWOQ]) else {
                return Err(DevnetError::OutOfUtxos("the P-Chain's opening exports"));
            };
            let coin = self.ready.swap_remove(i);
            let n = left.min(EXPORTS_PER_TX);
            left -= n;
            let mut exported = Vec::with_capacity(n);
            let mut sent = 0u64;
            for _ in 0..n {
                let amount = self.rng.range(1_000_000_000, 5_000_000_000_000);
                sent += amount;
                let to = self.random_key();
                exported.push(self.out(amount, &Owners::single(to)));
            }
            sort_outputs(&mut exported);
            let change = coin.amount.saturating_sub(sent + P_TX_FEE);
            let outs = vec![self.out(change, &Owners::single(EWOQ))];
            let (ins, sigs) = Self::inputs(self.avax, &[coin]);
            let tx = ExportTx {
                base: self.base(outs, ins),
                destination_chain: self.net.x_chain_id,
                exported_outputs: exported,
            };
            let tx = self.sign(UnsignedTx::ExportTx(tx), sigs)?;
            self.record_export(&tx);
            self.absorb(&tx);
            let ts = i64::try_from(self.start_s).unwrap_or(0) * NANOS + 450_000_000 + k * 1_000_000;
            k += 1;
            self.emit_standard(self.start_s, ts, vec![tx])?;
        }
        Ok(())
    }

    fn record_export(&mut self, tx: &ParsedTx) {
        if let UnsignedTx::ExportTx(e) = &tx.tx.unsigned {
            if e.destination_chain != self.net.x_chain_id {
                return;
            }
            let base = e.base.outputs.len();
            for (i, o) in e.exported_outputs.iter().enumerate() {
                let TransferableOut::Secp256k1(out) = &o.output else {
                    continue;
                };
                self.exported_to_x.push(AtomicUtxo {
                    source_chain: self.net.p_chain_id,
                    utxo: snowline_types::avm::Utxo {
                        utxo_id: UtxoId::new(tx.id, u32::try_from(base + i).unwrap_or(u32::MAX)),
                        asset_id: o.asset_id,
                        output: snowline_types::avm::Output::Secp256k1Transfer(out.clone()),
                    },
                });
            }
        }
    }

    /// An X-Chain ExportTx to P was accepted at `ts`: its outputs wait in P's shared memory.
    pub fn x_exported(&mut self, ts: i64, utxo: Utxo) {
        self.from_x.push_back((ts, self.net.x_chain_id, utxo));
    }

    /// A C-Chain ExportTx to P was accepted at `ts`: its outputs wait in P's shared memory.
    pub fn c_exported(&mut self, ts: i64, utxo: Utxo) {
        self.from_x.push_back((ts, self.net.c_chain_id, utxo));
    }

    /// The exports to C of the records returned so far (stamped at or before `ts`).
    pub fn take_exports_to_c(&mut self, ts: i64) -> Vec<Utxo> {
        let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.exported_to_c)
            .into_iter()
            .partition(|(t, _)| *t <= ts);
        self.exported_to_c = later;
        now.into_iter().map(|(_, u)| u).collect()
    }

    /// The exports to X are handed over once (the X wallet's P-sourced atomic UTXOs).
    pub fn take_exports_to_x(&mut self) -> Vec<AtomicUtxo> {
        std::mem::take(&mut self.exported_to_x)
    }

    fn random_key(&mut self) -> u32 {
        1 + u32::try_from(self.rng.below(u64::from(self.seeded_keys.max(1)))).unwrap_or(0)
    }

    fn out(&self, amount: u64, owners: &Owners) -> TransferableOutput {
        TransferableOutput {
            asset_id: self.avax,
            output: TransferableOut::Secp256k1(TransferOutput {
                amount,
                owners: owners.to_output_owners(&self.ring),
            }),
        }
    }

    fn locked_out(&self, amount: u64, owners: &Owners, locktime: u64) -> TransferableOutput {
        TransferableOutput {
            asset_id: self.avax,
            output: TransferableOut::StakeableLock(LockOut {
                locktime,
                output: TransferOutput {
                    amount,
                    owners: owners.to_output_owners(&self.ring),
                },
            }),
        }
    }

    fn base(&self, outputs: Vec<TransferableOutput>, inputs: Vec<TransferableInput>) -> BaseTx {
        BaseTx {
            network_id: self.net.network_id,
            blockchain_id: self.net.p_chain_id,
            outputs,
            inputs,
            memo: Vec::new(),
        }
    }

    /// Inputs spending `coins` (locked ones as `LockIn`), sorted by UTXO id, with their signers.
    fn inputs(avax: Id, coins: &[PCoin]) -> (Vec<TransferableInput>, Vec<Sig>) {
        let mut pairs: Vec<(TransferableInput, Sig)> = coins
            .iter()
            .map(|c| {
                let (sig_indices, keys) = c.owners.signers();
                let spend = TransferInput {
                    amount: c.amount,
                    input: Input { sig_indices },
                };
                let input = if c.locktime == 0 {
                    TransferableIn::Secp256k1(spend)
                } else {
                    TransferableIn::StakeableLock(LockIn {
                        locktime: c.locktime,
                        input: spend,
                    })
                };
                (
                    TransferableInput {
                        utxo_id: c.utxo_id,
                        asset_id: avax,
                        input,
                    },
                    Sig { keys },
                )
            })
            .collect();
        pairs.sort_by_key(|(i, _)| i.utxo_id);
        pairs.into_iter().unzip()
    }

    /// Signs `sha256(unsigned bytes)` for each signer (inputs, then any authorization).
    fn sign(&self, unsigned: UnsignedTx, sigs: Vec<Sig>) -> Result<ParsedTx, DevnetError> {
        let hash = sha256(&unsigned.bytes());
        let mut creds = Vec::with_capacity(sigs.len());
        let mut cache: Vec<(u32, secp256k1fx::Signature)> = Vec::new();
        for s in sigs {
            let mut out = Vec::with_capacity(s.keys.len());
            for k in s.keys {
                let sig = match cache.iter().find(|(c, _)| *c == k) {
                    Some((_, sig)) => *sig,
                    None => {
                        let key = self
                            .ring
                            .key(k)
                            .ok_or(DevnetError::OutOfUtxos("an unknown P-Chain signer"))?;
                        let sig = key.sign_hash(&hash)?;
                        cache.push((k, sig));
                        sig
                    }
                };
                out.push(sig);
            }
            creds.push(Credential::Secp256k1(secp256k1fx::Credential { sigs: out }));
        }
        Ok(ParsedTx::from_tx(Tx::new(unsigned, creds)))
    }

    /// Records the outputs of an accepted tx (base outputs; stake comes back with the reward).
    fn absorb(&mut self, tx: &ParsedTx) {
        for (i, o) in tx.tx.unsigned.outputs().iter().enumerate() {
            let id = UtxoId::new(tx.id, u32::try_from(i).unwrap_or(u32::MAX));
            self.track(id, &o.output, false);
        }
    }

    /// Takes unlocked coins worth at least `need` (up to four), or puts them back.
    fn take_coins(&mut self, need: u64) -> Option<Vec<PCoin>> {
        let mut coins: Vec<PCoin> = Vec::new();
        let mut total = 0u64;
        while total < need && coins.len() < 4 {
            if self.ready.is_empty() {
                break;
            }
            let i = self.rng.index(self.ready.len());
            let c = self.ready.swap_remove(i);
            total += c.amount;
            coins.push(c);
        }
        if total < need {
            self.ready.append(&mut coins);
            return None;
        }
        Some(coins)
    }

    /// Pays `need` (fee, stake, balances) from unlocked coins: inputs, signers, change output.
    fn pay(&mut self, need: u64) -> Option<Payment> {
        let coins = self.take_coins(need)?;
        let owner = coins
            .first()
            .and_then(|c| c.owners.keys.first().copied())
            .unwrap_or(EWOQ);
        let total: u64 = coins.iter().map(|c| c.amount).sum();
        let mut outs = Vec::new();
        if total > need {
            outs.push(self.out(total - need, &Owners::single(owner)));
        }
        let (ins, sigs) = Self::inputs(self.avax, &coins);
        Some((ins, sigs, outs, owner))
    }

    fn new_node(&mut self) -> Result<DevnetNode, DevnetError> {
        let n = DevnetNode::new(self.seed, self.next_node)?;
        self.next_node += 1;
        Ok(n)
    }

    fn build(&mut self, kind: PKind) -> Result<Option<ParsedTx>, DevnetError> {
        let tx = match kind {
            PKind::Base => self.base_transfer()?,
            PKind::ValidatorShort => self.add_validator(false, false)?,
            PKind::ValidatorLocked => self.add_validator(true, false)?,
            PKind::ValidatorLong => self.add_validator(false, true)?,
            PKind::Delegator => self.add_delegator(false)?,
            PKind::DelegatorLocked => self.add_delegator(true)?,
            PKind::CreateSubnet => self.create_subnet()?,
            PKind::CreateChain => self.create_chain()?,
            PKind::ConvertL1 => self.convert_l1()?,
            PKind::RegisterL1 => self.register_l1()?,
            PKind::SetL1Weight => self.set_l1_weight()?,
            PKind::IncreaseL1Balance => self.increase_l1_balance()?,
            PKind::DisableL1 => self.disable_l1()?,
            PKind::ImportX => self.import_x()?,
            PKind::ExportX => self.export_x()?,
        };
        if let Some(t) = &tx {
            self.absorb(t);
        }
        Ok(tx)
    }

    fn random_kind(&mut self) -> PKind {
        match self.rng.below(100) {
            0..=64 => PKind::Base,
            65..=69 => {
                if self.rng.chance(50) {
                    PKind::ValidatorShort
                } else {
                    PKind::ValidatorLong
                }
            }
            70..=71 => PKind::ValidatorLocked,
            72..=81 => PKind::Delegator,
            82..=83 => PKind::DelegatorLocked,
            84..=88 => PKind::ImportX,
            89..=92 => PKind::ExportX,
            93..=96 => PKind::IncreaseL1Balance,
            _ => PKind::SetL1Weight,
        }
    }

    fn base_transfer(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let want = if self.ready.len() > self.high_water {
            3
        } else {
            1
        };
        let mut coins = Vec::new();
        for _ in 0..want {
            if self.ready.is_empty() {
                break;
            }
            let i = self.rng.index(self.ready.len());
            coins.push(self.ready.swap_remove(i));
        }
        let Some(owner) = coins.first().and_then(|c| c.owners.keys.first().copied()) else {
            return Ok(None);
        };
        let total: u64 = coins.iter().map(|c| c.amount).sum();
        let available = total - P_TX_FEE;
        let pct = self.rng.range(5, 45);
        let amount = ((u128::from(available) * u128::from(pct)) / 100) as u64;
        let to = self.random_key();
        let mut outs = vec![self.out(amount.max(1), &Owners::single(to))];
        if available > amount.max(1) {
            outs.push(self.out(available - amount.max(1), &Owners::single(owner)));
        }
        sort_outputs(&mut outs);
        let (ins, sigs) = Self::inputs(self.avax, &coins);
        let mut base = self.base(outs, ins);
        if self.rng.chance(20) {
            base.memo = format!("snowline p-chain transfer {}", self.txs).into_bytes();
        }
        self.sign(UnsignedTx::BaseTx(base), sigs).map(Some)
    }

    /// Stake outputs and the payment for a staker: from one stakeable-locked coin (staked
    /// whole, as a `LockOut`) when `locked`, else `weight` from unlocked coins.
    fn stake_funds(
        &mut self,
        locked: bool,
        (min, max): (u64, u64),
        weight: u64,
    ) -> Option<StakeFunds> {
        if locked {
            // A lock that has run out (live, a year past the history) no longer stakes.
            let now = self.time_s;
            let i = self
                .locked
                .iter()
                .position(|c| c.amount >= min && c.amount <= max && c.locktime > now)?;
            let coin = self.locked.swap_remove(i);
            let Some(fee_coins) = self.take_coins(P_TX_FEE) else {
                self.locked.push(coin);
                return None;
            };
            let owner = coin.owners.keys.first().copied().unwrap_or(EWOQ);
            let fee_total: u64 = fee_coins.iter().map(|c| c.amount).sum();
            let fee_owner = fee_coins
                .first()
                .and_then(|c| c.owners.keys.first().copied())
                .unwrap_or(EWOQ);
            let stake = vec![self.locked_out(coin.amount, &coin.owners, coin.locktime)];
            let mut outs = Vec::new();
            if fee_total > P_TX_FEE {
                outs.push(self.out(fee_total - P_TX_FEE, &Owners::single(fee_owner)));
            }
            let mut all = fee_coins;
            all.push(coin);
            let (ins, sigs) = Self::inputs(self.avax, &all);
            Some((ins, sigs, outs, stake, owner))
        } else {
            let (ins, sigs, mut outs, owner) = self.pay(weight + P_TX_FEE)?;
            sort_outputs(&mut outs);
            let stake = vec![self.out(weight, &Owners::single(owner))];
            Some((ins, sigs, outs, stake, owner))
        }
    }

    fn add_validator(&mut self, locked: bool, long: bool) -> Result<Option<ParsedTx>, DevnetError> {
        let now = self.time_s;
        let duration = if long {
            30 * 86_400 + self.rng.below(86_400)
        } else {
            MIN_STAKE_S + 3_600 * self.rng.range(1, 8)
        };
        let weight = MIN_VALIDATOR_STAKE + self.rng.below(1_000) * 1_000_000_000;
        let Some((ins, sigs, outs, stake, owner)) =
            self.stake_funds(locked, (MIN_VALIDATOR_STAKE, u64::MAX), weight)
        else {
            return Ok(None);
        };
        let weight: u64 = stake.iter().map(|o| o.output.amount()).sum();
        let node = self.new_node()?;
        let end = now + duration;
        let owner_w = Owner::Secp256k1(Owners::single(owner).to_output_owners(&self.ring));
        let tx = AddPermissionlessValidatorTx {
            base: self.base(outs, ins),
            validator: Validator {
                node_id: node.node_id,
                start: now,
                end,
                weight,
            },
            subnet_id: Id::EMPTY,
            signer: Signer::ProofOfPossession(ProofOfPossession {
                public_key: node.bls_public_key,
                proof_of_possession: node.bls_pop,
            }),
            stake,
            validator_rewards_owner: owner_w.clone(),
            delegator_rewards_owner: owner_w,
            delegation_shares: 20_000 + 10_000 * u32::try_from(self.rng.below(9)).unwrap_or(0),
        };
        let tx = self.sign(UnsignedTx::AddPermissionlessValidatorTx(tx), sigs)?;
        let reward = self.reward_cfg.calculate_primary_network(
            None,
            now,
            duration * 1_000_000_000,
            weight,
            self.supply,
        );
        self.supply += reward;
        self.add_staker(
            tx.id,
            tx.tx.unsigned.clone(),
            node.node_id,
            end,
            reward,
            false,
        );
        Ok(Some(tx))
    }

    fn add_delegator(&mut self, locked: bool) -> Result<Option<ParsedTx>, DevnetError> {
        let now = self.time_s;
        let weight = MIN_DELEGATOR_STAKE + self.rng.below(475) * 1_000_000_000;
        let cap = if locked {
            MAX_LOCKED_DELEGATION
        } else {
            weight
        };
        // Prefer validators added during the run (they end during it), then genesis ones.
        let target = self
            .validators
            .iter()
            .rev()
            .filter(|(_, v)| v.end >= now + MIN_STAKE_S && v.delegated + cap <= 4 * v.weight)
            .map(|(n, v)| (*n, v.end))
            .min_by_key(|(_, end)| *end);
        let Some((node_id, vend)) = target else {
            return Ok(None);
        };
        let end = vend.min(now + MIN_STAKE_S + 3_600 * self.rng.range(0, 6));
        let Some((ins, sigs, outs, stake, owner)) =
            self.stake_funds(locked, (MIN_DELEGATOR_STAKE, MAX_LOCKED_DELEGATION), weight)
        else {
            return Ok(None);
        };
        let weight: u64 = stake.iter().map(|o| o.output.amount()).sum();
        let tx = AddPermissionlessDelegatorTx {
            base: self.base(outs, ins),
            validator: Validator {
                node_id,
                start: now,
                end,
                weight,
            },
            subnet_id: Id::EMPTY,
            stake,
            rewards_owner: Owner::Secp256k1(Owners::single(owner).to_output_owners(&self.ring)),
        };
        let tx = self.sign(UnsignedTx::AddPermissionlessDelegatorTx(tx), sigs)?;
        let reward = self.reward_cfg.calculate_primary_network(
            None,
            now,
            (end - now) * 1_000_000_000,
            weight,
            self.supply,
        );
        self.supply += reward;
        self.add_staker(tx.id, tx.tx.unsigned.clone(), node_id, end, reward, true);
        Ok(Some(tx))
    }

    fn create_subnet(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if self.l1.subnet.is_some() {
            return Ok(None);
        }
        let Some((ins, sigs, mut outs, owner)) = self.pay(P_CREATE_FEE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        let tx = CreateSubnetTx {
            base: self.base(outs, ins),
            owner: Owner::Secp256k1(Owners::single(owner).to_output_owners(&self.ring)),
        };
        let tx = self.sign(UnsignedTx::CreateSubnetTx(tx), sigs)?;
        self.l1.subnet = Some((tx.id, owner));
        Ok(Some(tx))
    }

    fn subnet_auth(&self) -> Option<(Id, u32)> {
        if !self.l1.subnet_ready {
            return None;
        }
        self.l1.subnet
    }

    fn create_chain(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((subnet_id, owner)) = self.subnet_auth() else {
            return Ok(None);
        };
        if self.l1.chain.is_some() {
            return Ok(None);
        }
        let Some((ins, mut sigs, mut outs, _)) = self.pay(P_CREATE_FEE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        sigs.push(Sig { keys: vec![owner] });
        let tx = CreateChainTx {
            base: self.base(outs, ins),
            subnet_id,
            chain_name: "snowline l1".into(),
            vm_id: subnet_evm_id(),
            fx_ids: Vec::new(),
            genesis_data: L1_GENESIS_JSON.as_bytes().to_vec(),
            subnet_auth: Auth::Secp256k1(Input {
                sig_indices: vec![0],
            }),
        };
        let tx = self.sign(UnsignedTx::CreateChainTx(tx), sigs)?;
        self.l1.chain = Some(tx.id);
        Ok(Some(tx))
    }

    fn p_owner(&self, k: u32) -> PChainOwner {
        PChainOwner {
            threshold: 1,
            addresses: vec![self.ring.addr(k)],
        }
    }

    fn convert_l1(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((subnet_id, owner)) = self.subnet_auth() else {
            return Ok(None);
        };
        let (Some(chain_id), true, false) = (self.l1.chain, self.l1.chain_ready, self.l1.converted)
        else {
            return Ok(None);
        };
        let Some((ins, mut sigs, mut outs, _)) = self.pay(P_TX_FEE + 3 * L1_BALANCE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        sigs.push(Sig { keys: vec![owner] });
        let mut members = Vec::new();
        for _ in 0..3 {
            let node = self.new_node()?;
            let key = self.random_key();
            members.push((node, key));
        }
        members.sort_by_key(|(n, _)| n.node_id);
        let validators = members
            .iter()
            .map(|(n, key)| ConvertSubnetToL1Validator {
                node_id: n.node_id.0.0.to_vec(),
                weight: 100,
                balance: L1_BALANCE,
                signer: ProofOfPossession {
                    public_key: n.bls_public_key,
                    proof_of_possession: n.bls_pop,
                },
                remaining_balance_owner: self.p_owner(*key),
                deactivation_owner: self.p_owner(*key),
            })
            .collect();
        let tx = ConvertSubnetToL1Tx {
            base: self.base(outs, ins),
            subnet_id,
            chain_id,
            address: L1_MANAGER_ADDRESS.to_vec(),
            validators,
            subnet_auth: Auth::Secp256k1(Input {
                sig_indices: vec![0],
            }),
        };
        let tx = self.sign(UnsignedTx::ConvertSubnetToL1Tx(tx), sigs)?;
        for (i, (node, key)) in members.into_iter().enumerate() {
            self.l1.validators.push(L1Validator {
                validation_id: conversion_validation_id(
                    &subnet_id,
                    u32::try_from(i).unwrap_or(u32::MAX),
                ),
                node,
                weight: 100,
                nonce: 0,
                owner_key: key,
                active: true,
            });
        }
        self.l1.converted = true;
        Ok(Some(tx))
    }

    /// A Warp message from the L1's chain carrying `msg` in an `AddressedCall` from the
    /// manager, signed by every active L1 validator (canonical order: uncompressed BLS key).
    fn warp(&self, msg: Vec<u8>) -> Result<Option<Vec<u8>>, DevnetError> {
        let Some(chain_id) = self.l1.chain else {
            return Ok(None);
        };
        let unsigned = UnsignedMessage {
            network_id: self.net.network_id,
            source_chain_id: chain_id,
            payload: Payload::AddressedCall(AddressedCall {
                source_address: L1_MANAGER_ADDRESS.to_vec(),
                payload: msg,
            })
            .bytes(),
        };
        let mut set: Vec<&L1Validator> = self
            .l1
            .validators
            .iter()
            .filter(|v| v.active && v.weight > 0)
            .collect();
        if set.is_empty() {
            return Ok(None);
        }
        set.sort_by_key(|v| v.node.bls_public_key_uncompressed());
        let bytes = unsigned.bytes();
        let shares: Vec<_> = set.iter().map(|v| v.node.bls_sign(&bytes)).collect();
        let indices: Vec<usize> = (0..set.len()).collect();
        let signature = BitSetSignature {
            signers: BitSetSignature::signers_from_indices(&indices),
            signature: nodes::aggregate(&shares)?,
        };
        Ok(Some(
            Message {
                unsigned,
                signature,
            }
            .bytes(),
        ))
    }

    fn register_l1(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let Some((subnet_id, _)) = self.subnet_auth() else {
            return Ok(None);
        };
        if !self.l1.converted || self.l1.validators.is_empty() {
            return Ok(None);
        }
        let node = self.new_node()?;
        let key = self.random_key();
        let msg = RegisterL1Validator {
            subnet_id,
            node_id: node.node_id.0.0.to_vec(),
            bls_public_key: node.bls_public_key,
            expiry: self.time_s + 3_600,
            remaining_balance_owner: self.p_owner(key),
            disable_owner: self.p_owner(key),
            weight: 50,
        };
        let validation_id = msg.validation_id();
        let Some(message) = self.warp(msg.bytes())? else {
            return Ok(None);
        };
        let Some((ins, sigs, mut outs, _)) = self.pay(P_TX_FEE + L1_BALANCE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        let tx = RegisterL1ValidatorTx {
            base: self.base(outs, ins),
            balance: L1_BALANCE,
            proof_of_possession: node.bls_pop,
            message,
        };
        let tx = self.sign(UnsignedTx::RegisterL1ValidatorTx(tx), sigs)?;
        self.l1.validators.push(L1Validator {
            validation_id,
            node,
            weight: 50,
            nonce: 0,
            owner_key: key,
            active: true,
        });
        Ok(Some(tx))
    }

    fn pick_l1(&mut self) -> Option<usize> {
        let active: Vec<usize> = (0..self.l1.validators.len())
            .filter(|i| self.l1.validators.get(*i).is_some_and(|v| v.active))
            .collect();
        if active.len() < 2 {
            return None;
        }
        active.get(self.rng.index(active.len())).copied()
    }

    fn set_l1_weight(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if !self.l1.converted {
            return Ok(None);
        }
        let Some(i) = self.pick_l1() else {
            return Ok(None);
        };
        let Some(v) = self.l1.validators.get(i) else {
            return Ok(None);
        };
        let weight = 10 + self.rng.below(190);
        let msg = L1Message::L1ValidatorWeight(L1ValidatorWeight {
            validation_id: v.validation_id,
            nonce: v.nonce,
            weight,
        });
        let Some(message) = self.warp(msg.bytes())? else {
            return Ok(None);
        };
        let Some((ins, sigs, mut outs, _)) = self.pay(P_TX_FEE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        let tx = SetL1ValidatorWeightTx {
            base: self.base(outs, ins),
            message,
        };
        let tx = self.sign(UnsignedTx::SetL1ValidatorWeightTx(tx), sigs)?;
        if let Some(v) = self.l1.validators.get_mut(i) {
            v.nonce += 1;
            v.weight = weight;
        }
        Ok(Some(tx))
    }

    fn increase_l1_balance(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if !self.l1.converted {
            return Ok(None);
        }
        let Some(i) = self.pick_l1() else {
            return Ok(None);
        };
        let Some(validation_id) = self.l1.validators.get(i).map(|v| v.validation_id) else {
            return Ok(None);
        };
        let balance = L1_BALANCE / 2;
        let Some((ins, sigs, mut outs, _)) = self.pay(P_TX_FEE + balance) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        let tx = IncreaseL1ValidatorBalanceTx {
            base: self.base(outs, ins),
            validation_id,
            balance,
        };
        self.sign(UnsignedTx::IncreaseL1ValidatorBalanceTx(tx), sigs)
            .map(Some)
    }

    fn disable_l1(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        if !self.l1.converted || self.l1.validators.iter().filter(|v| v.active).count() < 3 {
            return Ok(None);
        }
        let Some(i) = self.pick_l1() else {
            return Ok(None);
        };
        let Some((validation_id, key)) = self
            .l1
            .validators
            .get(i)
            .map(|v| (v.validation_id, v.owner_key))
        else {
            return Ok(None);
        };
        let Some((ins, mut sigs, mut outs, _)) = self.pay(P_TX_FEE) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        sigs.push(Sig { keys: vec![key] });
        let tx = DisableL1ValidatorTx {
            base: self.base(outs, ins),
            validation_id,
            disable_auth: Auth::Secp256k1(Input {
                sig_indices: vec![0],
            }),
        };
        let tx = self.sign(UnsignedTx::DisableL1ValidatorTx(tx), sigs)?;
        if let Some(v) = self.l1.validators.get_mut(i) {
            v.active = false;
        }
        Ok(Some(tx))
    }

    /// Imports up to four UTXOs the X-Chain exported before `before_ts`, paying the fee from a
    /// P-Chain coin.
    fn import_x(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        // Live, every export waiting came with an earlier step (and its stamp is not known
        // here yet); otherwise those accepted before this block's timestamp.
        let before = if self.live_last_s.is_some() {
            i64::MAX
        } else {
            self.last_ts
        };
        // One source per ImportTx: the first waiting export's.
        let source = match self.from_x.front() {
            Some((ts, source, _)) if *ts < before => *source,
            _ => return Ok(None),
        };
        let mut picked = Vec::new();
        while picked.len() < 4 {
            match self.from_x.front() {
                Some((ts, s, _)) if *ts < before && *s == source => {
                    if let Some((_, _, u)) = self.from_x.pop_front() {
                        picked.push(u);
                    }
                }
                _ => break,
            }
        }
        if picked.is_empty() {
            return Ok(None);
        }
        let mut imported = Vec::new();
        for u in &picked {
            let Some(owners) = Owners::from_output_owners(&self.ring, u.output.owners()) else {
                continue;
            };
            imported.push(PCoin {
                utxo_id: u.utxo_id,
                amount: u.output.amount(),
                owners,
                locktime: 0,
            });
        }
        let Some((ins, mut sigs, mut outs, owner)) = self.pay(P_TX_FEE) else {
            for u in picked.into_iter().rev() {
                self.from_x.push_front((0, source, u));
            }
            return Ok(None);
        };
        let total: u64 = imported.iter().map(|c| c.amount).sum();
        if total > 0 {
            outs.push(self.out(total, &Owners::single(owner)));
        }
        sort_outputs(&mut outs);
        let (imp_ins, imp_sigs) = Self::inputs(self.avax, &imported);
        sigs.extend(imp_sigs);
        let tx = ImportTx {
            base: self.base(outs, ins),
            source_chain: source,
            imported_inputs: imp_ins,
        };
        self.sign(UnsignedTx::ImportTx(tx), sigs).map(Some)
    }

    fn export_x(&mut self) -> Result<Option<ParsedTx>, DevnetError> {
        let amount = self.rng.range(1_000_000, MAX_EXPORT);
        let Some((ins, sigs, mut outs, _)) = self.pay(P_TX_FEE + amount) else {
            return Ok(None);
        };
        sort_outputs(&mut outs);
        let to = self.random_key();
        // Every third export goes to the C-Chain (a count, so the random stream is unchanged).
        self.exports_made += 1;
        let to_c = self.exports_made % 3 == 0;
        let tx = ExportTx {
            base: self.base(outs, ins),
            destination_chain: if to_c {
                self.net.c_chain_id
            } else {
                self.net.x_chain_id
            },
            exported_outputs: vec![self.out(amount, &Owners::single(to))],
        };
        let tx = self.sign(UnsignedTx::ExportTx(tx), sigs)?;
        if let UnsignedTx::ExportTx(e) = &tx.tx.unsigned {
            if to_c {
                let ts = self.last_ts + 1_000_000;
                for u in snowline_types::atomic::p_exported(e, tx.id) {
                    self.exported_to_c.push((ts, u));
                }
            }
        }
        Ok(Some(tx))
    }

    /// Wraps and emits a `BanffStandardBlock` at `time` with index timestamp `ts`.
    fn emit_standard(&mut self, time: u64, ts: i64, txs: Vec<ParsedTx>) -> Result<(), DevnetError> {
        self.txs += txs.len() as u64;
        let block = Block::BanffStandard {
            time,
            common: CommonBlock {
                parent_id: self.prev_inner,
                height: self.height + 1,
            },
            txs: txs.into_iter().map(|t| t.tx).collect(),
        };
        self.emit_signed(block, ts)?;
        self.commit();
        Ok(())
    }

    /// Wraps `block` in a proposervm block signed by the next genesis validator.
    fn emit_signed(&mut self, block: Block, ts: i64) -> Result<(), DevnetError> {
        let inner = block.bytes();
        let inner_id = Id(sha256(&inner));
        let height = self.height + 1;
        let idx = (height as usize) % self.proposers.len().max(1);
        let node = self
            .proposers
            .get(idx)
            .ok_or(DevnetError::Crypto("no proposer"))?;
        let time = block.timestamp().unwrap_or(self.time_s);
        let outer = proposervm::Block::build_signed(
            self.prev_outer,
            i64::try_from(time).unwrap_or(0),
            self.height,
            node.cert_der.clone(),
            inner,
            self.net.p_chain_id,
            |digest| node.sign_digest(digest),
        )?;
        self.push(outer.id, outer.bytes, ts);
        self.prev_inner = inner_id;
        self.prev_outer = outer.id;
        self.height = height;
        Ok(())
    }

    fn push(&mut self, id: Id, bytes: Vec<u8>, ts: i64) {
        let ts = ts.max(self.last_ts + 1_000_000);
        self.last_ts = ts;
        self.block_count += 1;
        self.out.push_back(ContainerRecord {
            path: IndexPath::PBlock,
            id,
            bytes,
            timestamp_ns: ts,
        });
    }

    /// The next event: a reward proposal at a staker's end, or the next standard block.
    fn next_event(&self) -> Option<(bool, u64)> {
        if self.block >= self.blocks {
            return None;
        }
        let t = self.start_s + (self.block + 1) * self.interval_s;
        match self.stakers.keys().next() {
            Some((end, _, _)) if *end <= t => Some((true, *end)),
            _ => Some((false, t)),
        }
    }

    fn planned_ts(&self, time: u64) -> i64 {
        (i64::try_from(time).unwrap_or(0) * NANOS + 600_000_000).max(self.last_ts + 1_000_000)
            + self.bump
    }

    /// The index timestamp of the next P record, `None` when the P-Chain is done.
    pub fn peek_ts(&self) -> Option<i64> {
        if let Some(r) = self.out.front() {
            return Some(r.timestamp_ns);
        }
        self.next_event().map(|(_, time)| self.planned_ts(time))
    }

    /// Moves the next record 1 ns later (it tied with an X record).
    pub fn bump(&mut self) {
        match self.out.front_mut() {
            Some(r) => r.timestamp_ns += 1,
            None => self.bump += 1,
        }
    }

    /// The next record, generating the next event if needed.
    pub fn next_record(&mut self) -> Result<Option<ContainerRecord>, DevnetError> {
        if self.out.is_empty() {
            self.step()?;
        }
        Ok(self.out.pop_front())
    }

    fn step(&mut self) -> Result<(), DevnetError> {
        let Some((reward, time)) = self.next_event() else {
            return Ok(());
        };
        let ts = self.planned_ts(time);
        self.bump = 0;
        self.last_ts = ts - 1_000_000;
        self.time_s = time;
        if reward {
            self.reward_next(ts)
        } else {
            self.block += 1;
            self.standard_block(ts)
        }
    }

    /// The next event past the history, as [`PChain::step`] makes one but with no last block:
    /// each standard block comes [`LIVE_INTERVAL_S`] (or `interval_s` if shorter) after the
    /// last, never past `now_s` nor before its parent; stakers whose end that reaches are
    /// rewarded first. Returns the block's records (a proposal comes with its option), to be
    /// stamped by the caller.
    pub fn live_step(&mut self, now_s: u64) -> Result<Vec<ContainerRecord>, DevnetError> {
        let last = *self
            .live_last_s
            .get_or_insert(self.start_s + self.block * self.interval_s);
        let scheduled = last + self.interval_s.min(LIVE_INTERVAL_S);
        let t = scheduled.min(now_s).max(self.time_s);
        let (reward, time) = match self.stakers.keys().next() {
            Some((end, _, _)) if *end <= t => (true, *end),
            _ => {
                self.live_last_s = Some(t);
                (false, t)
            }
        };
        // Placeholder index timestamps (1 ms apart, as `push` keeps them); the caller stamps.
        let ts = self.last_ts + 1_000_000;
        self.time_s = time;
        if reward {
            self.reward_next(ts)?;
        } else {
            self.block += 1;
            self.standard_block(ts)?;
        }
        Ok(self.out.drain(..).collect())
    }

    fn standard_block(&mut self, ts: i64) -> Result<(), DevnetError> {
        // A subnet or chain created in an earlier block is usable now (stakeable locks outlast
        // the run, so locked coins stay locked).
        self.l1.subnet_ready = self.l1.subnet.is_some();
        self.l1.chain_ready = self.l1.chain.is_some();
        let want = self.txs_per_block;
        let mut txs: Vec<ParsedTx> = Vec::with_capacity(want);
        let mut bytes = 0usize;
        for _ in 0..self.queue.len() {
            if txs.len() >= want || bytes >= MAX_BLOCK_TX_BYTES {
                break;
            }
            let Some(kind) = self.queue.pop_front() else {
                break;
            };
            match self.build(kind)? {
                Some(tx) => {
                    bytes += tx.bytes.len();
                    txs.push(tx);
                }
                None => self.queue.push_back(kind),
            }
        }
        while txs.len() < want && bytes < MAX_BLOCK_TX_BYTES {
            let kind = self.random_kind();
            let tx = match self.build(kind)? {
                Some(tx) => tx,
                None => match self.build(PKind::Base)? {
                    Some(tx) => tx,
                    None => break,
                },
            };
            bytes += tx.bytes.len();
            txs.push(tx);
        }
        if txs.is_empty() {
            return Err(DevnetError::OutOfUtxos("a P-Chain block"));
        }
        self.emit_standard(self.time_s, ts, txs)
    }

    /// Rewards the first current staker: a `BanffProposalBlock` with its `RewardValidatorTx`
    /// at its end time, then the commit (rewarded) or abort option.
    fn reward_next(&mut self, ts: i64) -> Result<(), DevnetError> {
        let Some((key, staker)) = self.stakers.pop_first() else {
            return Ok(());
        };
        let time = key.0;
        self.reward_count += 1;
        let branch = if self.reward_count % 4 == 2 {
            RewardBranch::Abort
        } else {
            RewardBranch::Commit
        };
        let reward_tx = Tx::new(
            UnsignedTx::RewardValidatorTx(RewardValidatorTx {
                tx_id: staker.tx_id,
            }),
            Vec::new(),
        );
        self.txs += 1;
        let proposal = Block::BanffProposal {
            time,
            txs: Vec::new(),
            common: CommonBlock {
                parent_id: self.prev_inner,
                height: self.height + 1,
            },
            tx: reward_tx,
        };
        self.emit_signed(proposal, ts)?;
        let common = CommonBlock {
            parent_id: self.prev_inner,
            height: self.height + 1,
        };
        let option = match branch {
            RewardBranch::Commit => Block::BanffCommit { time, common },
            RewardBranch::Abort => Block::BanffAbort { time, common },
        };
        let inner = option.bytes();
        let inner_id = Id(sha256(&inner));
        let outer = proposervm::Block::build_option(self.prev_outer, inner);
        self.push(outer.id, outer.bytes, ts + 1_000_000);
        self.prev_inner = inner_id;
        self.prev_outer = outer.id;
        self.height += 1;

        let utxos = if staker.delegator {
            let Some(v) = self.validators.get(&staker.node_id).cloned() else {
                return Err(DevnetError::Crypto("delegator without validator"));
            };
            let vtx = self
                .stakers
                .values()
                .find(|s| s.tx_id == v.tx_id)
                .map(|s| s.tx.clone())
                .ok_or(DevnetError::Crypto("validator tx missing"))?;
            let vstart = match &vtx {
                UnsignedTx::AddPermissionlessValidatorTx(t) => t.validator.start,
                _ => 0,
            };
            let r = delegator_reward_utxos(
                staker.tx_id,
                &staker.tx,
                branch,
                staker.potential_reward,
                &vtx,
                defers_delegatee_reward(self.net.network_id, vstart),
            )
            .map_err(|_| DevnetError::Crypto("delegator reward utxos"))?;
            let weight: u64 = staker.tx.stake().iter().map(|o| o.output.amount()).sum();
            if let Some(v) = self.validators.get_mut(&staker.node_id) {
                v.deferred += r.deferred_delegatee_reward;
                v.delegated = v.delegated.saturating_sub(weight);
            }
            r.utxos
        } else {
            let deferred = self
                .validators
                .remove(&staker.node_id)
                .map_or(0, |v| v.deferred);
            validator_reward_utxos(
                staker.tx_id,
                &staker.tx,
                branch,
                staker.potential_reward,
                deferred,
            )
            .map_err(|_| DevnetError::Crypto("validator reward utxos"))?
        };
        if branch == RewardBranch::Abort {
            self.supply = self.supply.saturating_sub(staker.potential_reward);
        }
        for u in utxos {
            self.track(u.utxo.utxo_id, &u.utxo.output, false);
        }
        self.commit();
        Ok(())
    }

    /// nAVAX the P-Chain's reward calculator uses now (`GetCurrentSupply`).
    pub fn current_supply(&self) -> u64 {
        self.supply
    }

    /// The primary network's validators current at the chain time (started, not yet settled by
    /// their reward tx), each with its staker tx, as `platform.getCurrentValidators` lists them.
    pub fn current_validators(&self) -> Vec<(Id, Validator)> {
        self.stakers
            .values()
            .filter(|s| !s.delegator)
            .filter_map(|s| match &s.tx {
                UnsignedTx::AddPermissionlessValidatorTx(t) if t.subnet_id == Id::EMPTY => {
                    Some((s.tx_id, t.validator.clone()))
                }
                UnsignedTx::AddValidatorTx(t) => Some((s.tx_id, t.validator.clone())),
                _ => None,
            })
            .filter(|(_, v)| v.start <= self.time_s)
            .collect()
    }

    /// The genesis validators' nodes (the proposers).
    pub fn proposer_nodes(&self) -> &[DevnetNode] {
        &self.proposers
    }
}
