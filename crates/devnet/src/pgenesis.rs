//! The devnet's P-Chain genesis: UTXOs (plain and stakeable-locked) owned by devnet keys, the
//! genesis validators (`AddPermissionlessValidatorTx` with BLS keys, node ids from the devnet's
//! staking certificates), the X- and C-Chain `CreateChainTx`s, the genesis time and supply.
//! Built as avalanchego's `vms/platformvm/genesis/genesis.go` `New` builds it (genesis codec, no
//! credentials, UTXO ids `(empty id, i)`, validators sorted by end time).

use snowline_types::codec::{Encode, Writer};
use snowline_types::components::UtxoId;
use snowline_types::fx::secp256k1fx::{Input, OutputOwners, TransferOutput};
use snowline_types::fx::{NFTFX_ID, PROPERTYFX_ID, SECP256K1FX_ID};
use snowline_types::network::NetworkInfo;
use snowline_types::platformvm::txs::{
    AddPermissionlessValidatorTx, BaseTx, CreateChainTx, Validator,
};
use snowline_types::platformvm::{
    Auth, Block, CommonBlock, LockOut, Owner, ParsedTx, ProofOfPossession, Signer, TransferableOut,
    TransferableOutput, Tx, UnsignedTx, Utxo,
};
use snowline_types::{Id, hashing::sha256};

use crate::keys::{EWOQ, KeyRing};
use crate::nodes::DevnetNode;
use crate::rng::DetRng;

/// Genesis validators (nodes 0..5 of the devnet; they propose the P-Chain's blocks in turn).
pub const GENESIS_VALIDATORS: u32 = 5;
/// Each genesis validator stakes 100 000 AVAX.
pub const GENESIS_STAKE: u64 = 100_000_000_000_000;
/// Keys (1..=this) with P-Chain genesis UTXOs.
pub const MAX_P_FUNDED_KEYS: u32 = 300;
/// The plain P-Chain genesis UTXO of each funded key: 20 000 AVAX (plus up to 1 AVAX).
pub const P_FUND_AMOUNT: u64 = 20_000_000_000_000;
/// `ewoq`'s P-Chain genesis UTXO: 200 M AVAX (it pays the exports to the X-Chain).
pub const EWOQ_P_AMOUNT: u64 = 200_000_000_000_000_000;
/// A validator-sized stakeable-locked genesis UTXO: 2 500 AVAX.
pub const LOCKED_VALIDATOR_AMOUNT: u64 = 2_500_000_000_000;
/// A delegator-sized stakeable-locked genesis UTXO: 100 AVAX.
pub const LOCKED_DELEGATOR_AMOUNT: u64 = 100_000_000_000;
/// The local C-Chain genesis (`genesis_local.json` `cChainGenesis`), the C-Chain's genesis data.
pub const LOCAL_C_CHAIN_GENESIS: &str = r#"{"config":{"chainId":43112,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0,"apricotPhase1BlockTimestamp":0,"apricotPhase2BlockTimestamp":0},"nonce":"0x0","timestamp":"0x5FCB13D0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x295BE96E64066972000000"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}"#;

/// A VM id named by up to 32 ASCII bytes, zero padded (`ids.ID{'a','v','m'}`).
pub fn name_id(name: &[u8]) -> Id {
    let mut b = [0u8; 32];
    for (d, s) in b.iter_mut().zip(name) {
        *d = *s;
    }
    Id(b)
}

/// What the P-Chain generator needs from its genesis besides [`snowline_types::platformvm::PGenesisState`].
pub(crate) struct PGenesisBuild {
    pub utxos: Vec<Utxo>,
    pub validators: Vec<ParsedTx>,
    pub chains: Vec<ParsedTx>,
    /// Per validator (same order): `(node index, potential reward)`.
    pub rewards: Vec<(u32, u64)>,
    pub initial_supply: u64,
    /// Supply after the genesis validators' potential rewards.
    pub supply_after: u64,
    /// The genesis bytes (`genesis.Genesis`, genesis codec) and the genesis block built on them.
    pub genesis_bytes: Vec<u8>,
}

fn owners(ring: &KeyRing, k: u32) -> OutputOwners {
    OutputOwners::new(1, vec![ring.addr(k)])
}

fn genesis_base(net: &NetworkInfo) -> BaseTx {
    BaseTx {
        network_id: net.network_id,
        blockchain_id: Id::EMPTY,
        outputs: Vec::new(),
        inputs: Vec::new(),
        memo: Vec::new(),
    }
}

/// Builds the genesis. `other_supply` is the AVAX existing elsewhere at genesis (the X-Chain's
/// genesis UTXOs and the C-sourced atomic UTXOs), counted in the initial supply.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    net: &NetworkInfo,
    avax: Id,
    ring: &KeyRing,
    nodes: &[DevnetNode],
    seed: u64,
    start: u64,
    lock_until: u64,
    avm_genesis: Vec<u8>,
    other_supply: u64,
) -> PGenesisBuild {
    let mut rng = DetRng::new(seed, 0x7067_656e);
    let seeded = u32::try_from(ring.len().saturating_sub(1)).unwrap_or(0);
    let mut outs: Vec<TransferableOut> = Vec::new();
    outs.push(TransferableOut::Secp256k1(TransferOutput {
        amount: EWOQ_P_AMOUNT,
        owners: owners(ring, EWOQ),
    }));
    for k in 1..=seeded.min(MAX_P_FUNDED_KEYS) {
        outs.push(TransferableOut::Secp256k1(TransferOutput {
            amount: P_FUND_AMOUNT + rng.below(1_000_000_000),
            owners: owners(ring, k),
        }));
        let locked = match k % 4 {
            1 => Some(LOCKED_VALIDATOR_AMOUNT),
            3 => Some(LOCKED_DELEGATOR_AMOUNT),
            _ => None,
        };
        if let Some(amount) = locked {
            outs.push(TransferableOut::StakeableLock(LockOut {
                locktime: lock_until,
                output: TransferOutput {
                    amount,
                    owners: owners(ring, k),
                },
            }));
        }
    }
    let utxos: Vec<Utxo> = outs
        .into_iter()
        .enumerate()
        .map(|(i, output)| Utxo {
            utxo_id: UtxoId::new(Id::EMPTY, u32::try_from(i).unwrap_or(u32::MAX)),
            asset_id: avax,
            output,
        })
        .collect();

    // Validators: node i stakes GENESIS_STAKE (locked for odd i) until start + 365 days − i h,
    // rewards to key 1 + i; listed by end time as `txheap.ByEndTime` does.
    let mut validators: Vec<(u64, u32, ParsedTx)> = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let i = u32::try_from(i).unwrap_or(0);
        let key = 1 + (i % seeded.max(1));
        let end = start + 365 * 86_400 - u64::from(i) * 3_600;
        let plain = TransferOutput {
            amount: GENESIS_STAKE,
            owners: owners(ring, key),
        };
        let out = if i % 2 == 1 {
            TransferableOut::StakeableLock(LockOut {
                locktime: lock_until,
                output: plain,
            })
        } else {
            TransferableOut::Secp256k1(plain)
        };
        let owner = Owner::Secp256k1(owners(ring, key));
        let tx = UnsignedTx::AddPermissionlessValidatorTx(AddPermissionlessValidatorTx {
            base: genesis_base(net),
            validator: Validator {
                node_id: node.node_id,
                start,
                end,
                weight: GENESIS_STAKE,
            },
            subnet_id: Id::EMPTY,
            signer: Signer::ProofOfPossession(ProofOfPossession {
                public_key: node.bls_public_key,
                proof_of_possession: node.bls_pop,
            }),
            stake: vec![TransferableOutput {
                asset_id: avax,
                output: out,
            }],
            validator_rewards_owner: owner.clone(),
            delegator_rewards_owner: owner,
            delegation_shares: 20_000 + 20_000 * i,
        });
        validators.push((end, i, ParsedTx::from_tx(Tx::new(tx, Vec::new()))));
    }
    validators.sort_by_key(|v| (v.0, v.2.id));

    let chain = |name: &str, vm: &[u8], fx_ids: Vec<Id>, data: Vec<u8>| {
        ParsedTx::from_tx(Tx::new(
            UnsignedTx::CreateChainTx(CreateChainTx {
                base: genesis_base(net),
                subnet_id: Id::EMPTY,
                chain_name: name.to_owned(),
                vm_id: name_id(vm),
                fx_ids,
                genesis_data: data,
                subnet_auth: Auth::Secp256k1(Input {
                    sig_indices: Vec::new(),
                }),
            }),
            Vec::new(),
        ))
    };
    let chains = vec![
        chain(
            "X-Chain",
            b"avm",
            vec![SECP256K1FX_ID, NFTFX_ID, PROPERTYFX_ID],
            avm_genesis,
        ),
        chain(
            "C-Chain",
            b"evm",
            Vec::new(),
            LOCAL_C_CHAIN_GENESIS.as_bytes().to_vec(),
        ),
    ];

    let p_total: u64 = utxos.iter().map(|u| u.output.amount()).sum();
    let staked = GENESIS_STAKE * u64::from(GENESIS_VALIDATORS);
    let initial_supply = p_total + staked + other_supply;
    let cfg = snowline_types::platformvm::reward::Config::for_network(net.network_id);
    let mut supply = initial_supply;
    let mut rewards = Vec::new();
    for (end, i, _) in &validators {
        let dur = (end - start) * 1_000_000_000;
        let r = cfg.calculate_primary_network(None, start, dur, GENESIS_STAKE, supply);
        supply += r;
        rewards.push((*i, r));
    }
    let validators: Vec<ParsedTx> = validators.into_iter().map(|(_, _, t)| t).collect();

    // `genesis.Genesis` (genesis codec): UTXOs with empty messages, validators, chains, time,
    // supply, message.
    let mut w = Writer::new();
    w.u16(0);
    w.u32(u32::try_from(utxos.len()).unwrap_or(u32::MAX));
    for u in &utxos {
        u.encode(&mut w);
        w.bytes(&[]);
    }
    for list in [&validators, &chains] {
        w.u32(u32::try_from(list.len()).unwrap_or(u32::MAX));
        for t in list.iter() {
            t.tx.encode(&mut w);
        }
    }
    w.u64(start);
    w.u64(initial_supply);
    w.str("snowline devnet");
    PGenesisBuild {
        utxos,
        validators,
        chains,
        rewards,
        initial_supply,
        supply_after: supply,
        genesis_bytes: w.into_bytes(),
    }
}

/// The P-Chain's genesis block (`NewApricotCommitBlock(sha256(genesis bytes), 0)`), parent of
/// block 1.
pub fn genesis_block(genesis_bytes: &[u8]) -> Block {
    Block::ApricotCommit {
        common: CommonBlock {
            parent_id: Id(sha256(genesis_bytes)),
            height: 0,
        },
    }
}
