//! The ICM scenario: two anvils (the C-Chain 43112 and the L1 99999) with a Teleporter-compatible
//! messenger (`fixtures/evm/contracts/src/Icm.sol`, the v1 ABI and events) at the v1 address and
//! a stand-in for the Warp precompile, and a driver that sends messages with ERC-20 fees, relays
//! them from one chain to the other the way a relayer does (the source's `SendWarpMessage` log
//! becomes the destination tx's verified Warp message), returns receipts, adds fees, leaves one
//! message pending (sent to a chain no devnet runs) and fabricates one delivery from a source
//! chain nobody indexes. The plan is a pure function of the seed: same seed, same block hashes.

use std::collections::BTreeMap;

use alloy_primitives::{Address, B256, Bytes, U256, address, keccak256};
use alloy_sol_types::{SolCall, SolEvent, SolValue};
use serde_json::{Value, json};
use snowline_devnet::rng::DetRng;
use snowline_jsonrpc_client::RpcClient;

use crate::anvil::{Anvil, AnvilConfig, GENESIS_TIMESTAMP};
use crate::contracts::{Contract, Erc20Approve, Erc20Preset};
use crate::driver::{call, dev_accounts};
use crate::error::DevnetError;
use crate::scenario::{Action, BLOCK_INTERVAL, C_CHAIN_ID, L1_CHAIN_ID, TxRequest};

/// TeleporterMessenger v1's address on every chain (Nick's-method deployment).
pub const TELEPORTER_V1: Address = address!("253b2784c75e510dD0fF1da844684a1aC0aa5fcf");

/// The Warp precompile's address (coreth, subnet-evm).
pub const WARP_PRECOMPILE: Address = address!("0200000000000000000000000000000000000005");

/// The network id the stand-in puts in its Warp messages (the local network's).
pub const LOCAL_NETWORK_ID: u32 = 12345;

/// The chains of the ICM scenario, C-Chain first.
pub const ICM_CHAINS: [u64; 2] = [C_CHAIN_ID, L1_CHAIN_ID];

/// The local network's C-Chain blockchain id, `2owdGqyG6FFzTHy5qhenDXQcEghvr571KZE3gSfRJERSJinuwC`
/// (`snowline_types::network::NetworkInfo::LOCAL.c_chain_id`).
pub const C_CHAIN_BLOCKCHAIN_ID: B256 = B256::new([
    0xee, 0x48, 0x82, 0x04, 0x08, 0x8e, 0xab, 0xa3, 0xd3, 0xc0, 0xc5, 0xe2, 0x6d, 0x7a, 0x28, 0x92,
    0x67, 0x7f, 0x8d, 0x61, 0x81, 0xef, 0x31, 0x84, 0x87, 0x08, 0xb4, 0xe5, 0x5e, 0xad, 0x76, 0x67,
]);

/// The L1 99999's blockchain id: the id of the devnet P-Chain's `CreateChainTx` whose genesis
/// names EVM chain 99999 (`mCAkA78CiH4yyVSzKi13uuzeWTDhDYGmbFvYbyheqvpewvuy3`), so the chain that
/// carries its ICM messages is the one the P-Chain created.
pub const L1_BLOCKCHAIN_ID: B256 = B256::new([
    0x64, 0x58, 0x37, 0x60, 0x06, 0x5a, 0xee, 0xbd, 0xc3, 0x27, 0xf4, 0x62, 0x7b, 0x20, 0x33, 0xf0,
    0x42, 0x75, 0xca, 0xef, 0xca, 0x64, 0xb8, 0xfa, 0x89, 0xd8, 0x89, 0xc7, 0x66, 0x74, 0x74, 0xef,
]);

/// The blockchain id the devnet gives the EVM chain `chain_id`: the local C-Chain's for 43112,
/// the P-Chain-created L1's for 99999, else `keccak256("snowline evm devnet blockchain <id>")`.
pub fn blockchain_id(chain_id: u64) -> B256 {
    match chain_id {
        C_CHAIN_ID => C_CHAIN_BLOCKCHAIN_ID,
        L1_CHAIN_ID => L1_BLOCKCHAIN_ID,
        _ => keccak256(format!("snowline evm devnet blockchain {chain_id}")),
    }
}

/// A blockchain id no devnet chain has: messages sent there stay pending.
pub fn unknown_destination_id() -> B256 {
    keccak256("snowline evm devnet: a chain no devnet runs")
}

/// The blockchain id of the source chain nobody indexes, whose one delivery the driver fabricates.
pub fn unindexed_source_id() -> B256 {
    keccak256("snowline evm devnet: a source chain nobody indexes")
}

/// The message-id rule of TeleporterMessenger (v1 and later):
/// `keccak256(abi.encode(teleporter, sourceBlockchainID, destinationBlockchainID, nonce))`.
pub fn message_id(source: B256, destination: B256, nonce: U256) -> B256 {
    keccak256((TELEPORTER_V1, source, destination, nonce).abi_encode())
}

alloy_sol_types::sol! {
    /// `TeleporterMessageReceipt` (v1).
    #[derive(Debug, PartialEq, Eq)]
    struct TeleporterMessageReceipt {
        uint256 receivedMessageNonce;
        address relayerRewardAddress;
    }

    /// `TeleporterMessage` (v1).
    #[derive(Debug, PartialEq, Eq)]
    struct TeleporterMessage {
        uint256 messageNonce;
        address originSenderAddress;
        bytes32 destinationBlockchainID;
        address destinationAddress;
        uint256 requiredGasLimit;
        address[] allowedRelayerAddresses;
        TeleporterMessageReceipt[] receipts;
        bytes message;
    }

    /// `TeleporterFeeInfo` (v1).
    #[derive(Debug, PartialEq, Eq)]
    struct TeleporterFeeInfo {
        address feeTokenAddress;
        uint256 amount;
    }

    /// `TeleporterMessageInput` (v1).
    #[derive(Debug, PartialEq, Eq)]
    struct TeleporterMessageInput {
        bytes32 destinationBlockchainID;
        address destinationAddress;
        TeleporterFeeInfo feeInfo;
        uint256 requiredGasLimit;
        address[] allowedRelayerAddresses;
        bytes message;
    }

    /// The v1 TeleporterMessenger's events and the calls the driver makes.
    interface ITeleporterMessenger {
        event BlockchainIDInitialized(bytes32 indexed blockchainID);
        event SendCrossChainMessage(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, TeleporterMessage message, TeleporterFeeInfo feeInfo);
        event AddFeeAmount(bytes32 indexed messageID, TeleporterFeeInfo updatedFeeInfo);
        event ReceiveCrossChainMessage(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, address indexed deliverer, address rewardRedeemer, TeleporterMessage message);
        event MessageExecuted(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID);
        event MessageExecutionFailed(bytes32 indexed messageID, bytes32 indexed sourceBlockchainID, TeleporterMessage message);
        event ReceiptReceived(bytes32 indexed messageID, bytes32 indexed destinationBlockchainID, address indexed relayerRewardAddress, TeleporterFeeInfo feeInfo);
        event RelayerRewardsRedeemed(address indexed redeemer, address indexed asset, uint256 amount);

        function sendCrossChainMessage(TeleporterMessageInput messageInput) returns (bytes32);
        function receiveCrossChainMessage(uint32 messageIndex, address relayerRewardAddress);
        function addFeeAmount(bytes32 messageID, address feeTokenAddress, uint256 additionalFeeAmount);
        function redeemRelayerRewards(address feeTokenAddress);
        function getNextMessageID(bytes32 destinationBlockchainID) returns (bytes32);
        function calculateMessageID(bytes32 sourceBlockchainID, bytes32 destinationBlockchainID, uint256 nonce) returns (bytes32);
    }

    /// The Warp precompile's event (`IWarpMessenger`).
    interface IWarpMessenger {
        event SendWarpMessage(address indexed sender, bytes32 indexed messageID, bytes message);
    }
}

/// What the plan says becomes of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// Sent, never delivered.
    Pending,
    /// Sent and delivered; whether its execution succeeded and whether a receipt came back.
    Delivered {
        /// `MessageExecuted` (else `MessageExecutionFailed`).
        executed: bool,
        /// `ReceiptReceived` on the source chain.
        receipt: bool,
    },
    /// Delivered from a source chain nobody indexes (executed).
    DeliveredSourceNotIndexed,
}

/// Where a planned message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dest {
    /// The other devnet chain.
    Other,
    /// A blockchain id no devnet chain has.
    Unknown,
}

/// One step of the plan on one chain (accounts by index into the dev accounts).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// `sendCrossChainMessage` from `from`, to the receiver (or the reverting one).
    Send {
        label: &'static str,
        from: usize,
        dest: Dest,
        reverting: bool,
        fee: u128,
        allowed: Vec<usize>,
    },
    /// `addFeeAmount` to message `label` from its sender.
    AddFee {
        label: &'static str,
        from: usize,
        amount: u128,
    },
    /// A relayer delivers message `label` (sent on the other chain).
    Relay {
        label: &'static str,
        relayer: usize,
        reward: usize,
    },
    /// A relayer delivers a message fabricated as if sent from [`unindexed_source_id`].
    Fabricate {
        label: &'static str,
        relayer: usize,
        reward: usize,
    },
    /// `redeemRelayerRewards(feeToken)`.
    Redeem { from: usize },
}

/// One ether's worth of base units of the 18-decimal fee token.
const TOKEN: u128 = 1_000_000_000_000_000_000;

/// The gas the receivers are given (`requiredGasLimit`).
const REQUIRED_GAS: u64 = 200_000;

/// The messages the plan sends, in order, with what becomes of them.
pub const PLANNED: [(&str, Expected); 8] = [
    (
        "c1",
        Expected::Delivered {
            executed: true,
            receipt: true,
        },
    ),
    (
        "c2-reverts",
        Expected::Delivered {
            executed: false,
            receipt: true,
        },
    ),
    ("c3-unknown-destination", Expected::Pending),
    (
        "c4-fee-added",
        Expected::Delivered {
            executed: true,
            receipt: true,
        },
    ),
    (
        "l1",
        Expected::Delivered {
            executed: true,
            receipt: true,
        },
    ),
    ("x1-unindexed-source", Expected::DeliveredSourceNotIndexed),
    (
        "l2",
        Expected::Delivered {
            executed: true,
            receipt: true,
        },
    ),
    (
        "c5",
        Expected::Delivered {
            executed: true,
            receipt: false,
        },
    ),
];

/// The plan: per round, the steps on the C-Chain and on the L1 (the setup round excluded).
fn plan(seed: u64) -> Vec<[Vec<Step>; 2]> {
    let mut rng = DetRng::new(seed, 0x1c3);
    let mut fee = || u128::from(rng.range(1, 100)) * TOKEN;
    let send = |label, from, dest, reverting, fee, allowed: Vec<usize>| Step::Send {
        label,
        from,
        dest,
        reverting,
        fee,
        allowed,
    };
    vec![
        // Round 2: four sends from the C-Chain (one to nowhere), one fee-less from the L1.
        [
            vec![
                send("c1", 1, Dest::Other, false, fee(), vec![]),
                send("c2-reverts", 2, Dest::Other, true, fee(), vec![]),
                send(
                    "c3-unknown-destination",
                    3,
                    Dest::Unknown,
                    false,
                    fee(),
                    vec![],
                ),
                send("c4-fee-added", 1, Dest::Other, false, fee(), vec![7]),
            ],
            vec![send("l1", 1, Dest::Other, false, 0, vec![])],
        ],
        // Round 3: fees added on the C-Chain (one to the pending message); the L1 receives
        // c1, c2 (execution fails), c4 (fee added before delivery) and the fabricated x1.
        [
            vec![
                Step::AddFee {
                    label: "c4-fee-added",
                    from: 1,
                    amount: fee(),
                },
                Step::AddFee {
                    label: "c3-unknown-destination",
                    from: 3,
                    amount: fee(),
                },
            ],
            vec![
                Step::Relay {
                    label: "c1",
                    relayer: 5,
                    reward: 5,
                },
                Step::Relay {
                    label: "c2-reverts",
                    relayer: 6,
                    reward: 9,
                },
                Step::Relay {
                    label: "c4-fee-added",
                    relayer: 7,
                    reward: 7,
                },
                Step::Fabricate {
                    label: "x1-unindexed-source",
                    relayer: 8,
                    reward: 8,
                },
            ],
        ],
        // Round 4: the C-Chain receives l1; the L1 sends l2, which carries the receipts of c1,
        // c2 and c4 back.
        [
            vec![Step::Relay {
                label: "l1",
                relayer: 5,
                reward: 5,
            }],
            vec![send("l2", 2, Dest::Other, false, fee(), vec![])],
        ],
        // Round 5: the C-Chain receives l2 (ReceiptReceived for c1, c2, c4), then sends c5
        // carrying the receipts of l1 and l2.
        [
            vec![
                Step::Relay {
                    label: "l2",
                    relayer: 6,
                    reward: 6,
                },
                send("c5", 1, Dest::Other, false, fee(), vec![]),
            ],
            vec![],
        ],
        // Round 6: c1's relayer redeems its reward on the C-Chain; the L1 receives c5
        // (ReceiptReceived for l1 and l2).
        [
            vec![Step::Redeem { from: 5 }],
            vec![Step::Relay {
                label: "c5",
                relayer: 5,
                reward: 5,
            }],
        ],
    ]
}

/// A message the scenario sent or fabricated, as the driver saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmMessage {
    /// The plan's name for it.
    pub label: &'static str,
    /// The source blockchain id.
    pub source: B256,
    /// The destination blockchain id.
    pub destination: B256,
    /// Its nonce on the source messenger.
    pub nonce: U256,
    /// The id the messenger's event gave (checked against [`message_id`]).
    pub message_id: B256,
    /// What the plan says becomes of it.
    pub expected: Expected,
}

/// One chain of a finished ICM scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmChainRun {
    /// Its EVM chain id.
    pub chain_id: u64,
    /// The hash of every block, genesis first.
    pub block_hashes: Vec<B256>,
}

/// What a finished ICM scenario left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IcmRun {
    /// The C-Chain, then the L1.
    pub chains: Vec<IcmChainRun>,
    /// Every message, in [`PLANNED`] order.
    pub messages: Vec<IcmMessage>,
    /// The fee token's address (the same on both chains).
    pub fee_token: Address,
    /// The receiver app that accepts (the same on both chains).
    pub receiver: Address,
    /// The receiver app that reverts (the same on both chains).
    pub reverting_receiver: Address,
}

/// A Warp message as the destination's stand-in hands it out.
#[derive(Debug, Clone)]
struct WarpPayload {
    source: B256,
    origin: Address,
    payload: Vec<u8>,
}

/// One chain the driver fills.
struct Chain {
    client: RpcClient,
    chain_id: u64,
    id: B256,
    accounts: Vec<Address>,
    nonces: Vec<u64>,
    number: u64,
    block_hashes: Vec<B256>,
}

/// The contracts the setup block deploys on each chain (account 0's nonces 0, 1, 2).
#[derive(Debug, Clone, Copy)]
struct Apps {
    token: Address,
    receiver: Address,
    reverting: Address,
}

impl Chain {
    async fn new(url: &str, chain_id: u64) -> Result<Self, DevnetError> {
        let client = RpcClient::new(url).map_err(|source| DevnetError::Rpc {
            method: "connect".into(),
            source,
        })?;
        let chain: alloy_primitives::U64 = call(&client, "eth_chainId", json!([])).await?;
        let head: alloy_primitives::U64 = call(&client, "eth_blockNumber", json!([])).await?;
        if chain.to::<u64>() != chain_id || head.to::<u64>() != 0 {
            return Err(DevnetError::Unexpected(format!(
                "anvil runs chain {chain} at block {head}; the ICM scenario needs a fresh {chain_id}"
            )));
        }
        let accounts = dev_accounts(&client).await?;
        if accounts.len() < 10 {
            return Err(DevnetError::Unexpected(format!(
                "{} dev accounts, the ICM scenario needs 10",
                accounts.len()
            )));
        }
        let genesis: Mined = call(&client, "eth_getBlockByNumber", json!(["0x0", false])).await?;
        Ok(Self {
            client,
            chain_id,
            id: blockchain_id(chain_id),
            nonces: vec![0; accounts.len()],
            accounts,
            number: 0,
            block_hashes: vec![genesis.hash],
        })
    }

    async fn set_storage(&self, at: Address, slot: U256, value: B256) -> Result<(), DevnetError> {
        call::<Value>(
            &self.client,
            "anvil_setStorageAt",
            json!([at, B256::from(slot), value]),
        )
        .await
        .map(|_| ())
    }

    /// Places the messenger and the Warp stand-in (with this chain's blockchain id and the
    /// network id in its slots 0 and 1).
    async fn place_contracts(&self) -> Result<(), DevnetError> {
        for (at, contract) in [
            (TELEPORTER_V1, Contract::Teleporter),
            (WARP_PRECOMPILE, Contract::WarpStandIn),
        ] {
            call::<Value>(
                &self.client,
                "anvil_setCode",
                json!([at, contract.runtime_code()?]),
            )
            .await?;
        }
        self.set_storage(WARP_PRECOMPILE, U256::ZERO, self.id)
            .await?;
        self.set_storage(
            WARP_PRECOMPILE,
            U256::from(1),
            B256::from(U256::from(LOCAL_NETWORK_ID)),
        )
        .await
    }

    /// Makes `warp` the verified Warp message (index 0) of the next tx `relayer` sends: the
    /// stand-in's `predicates[relayer]` (slot 2 mapping of `{bytes32, address, bytes}`).
    async fn set_predicate(&self, relayer: Address, warp: &WarpPayload) -> Result<(), DevnetError> {
        let base = U256::from_be_bytes(keccak256((relayer, U256::from(2)).abi_encode()).0);
        self.set_storage(WARP_PRECOMPILE, base, warp.source).await?;
        self.set_storage(
            WARP_PRECOMPILE,
            base + U256::from(1),
            B256::left_padding_from(warp.origin.as_slice()),
        )
        .await?;
        let len = warp.payload.len();
        if len < 32 {
            return Err(DevnetError::Unexpected(format!(
                "a {len}-byte Teleporter payload"
            )));
        }
        let bytes_slot = base + U256::from(2);
        self.set_storage(
            WARP_PRECOMPILE,
            bytes_slot,
            B256::from(U256::from(len * 2 + 1)),
        )
        .await?;
        let data = U256::from_be_bytes(keccak256(B256::from(bytes_slot)).0);
        for (i, chunk) in warp.payload.chunks(32).enumerate() {
            let mut word = [0u8; 32];
            word[..chunk.len()].copy_from_slice(chunk);
            self.set_storage(WARP_PRECOMPILE, data + U256::from(i), B256::new(word))
                .await?;
        }
        Ok(())
    }

    fn tx(
        &mut self,
        action: Action,
        from: usize,
        to: Option<Address>,
        input: Vec<u8>,
    ) -> TxRequest {
        let nonce = self.nonces[from];
        self.nonces[from] += 1;
        let gas = match action {
            Action::Deploy(_) => 3_000_000,
            Action::IcmSend | Action::IcmReceive => 1_500_000,
            _ => 300_000,
        };
        TxRequest {
            action,
            from: self.accounts[from],
            to,
            value: U256::ZERO,
            input: input.into(),
            gas,
            nonce,
            legacy_gas_price: None,
        }
    }

    /// Sends `txs`, mines them into the next block and returns their receipts (all must
    /// succeed).
    async fn mine(&mut self, txs: &[TxRequest]) -> Result<Vec<Value>, DevnetError> {
        let mut sent = Vec::with_capacity(txs.len());
        for tx in txs {
            let hash: B256 =
                call(&self.client, "eth_sendTransaction", json!([tx.to_json()])).await?;
            sent.push(hash);
        }
        self.number += 1;
        let number = self.number;
        let timestamp = GENESIS_TIMESTAMP + number * BLOCK_INTERVAL;
        call::<Value>(
            &self.client,
            "evm_setNextBlockTimestamp",
            json!([timestamp]),
        )
        .await?;
        call::<Value>(&self.client, "evm_mine", json!([])).await?;
        let mined: Mined = call(
            &self.client,
            "eth_getBlockByNumber",
            json!([format!("{number:#x}"), false]),
        )
        .await?;
        if mined.transactions != sent {
            return Err(DevnetError::Unexpected(format!(
                "chain {} block {number} holds {} txs, {} were sent",
                self.chain_id,
                mined.transactions.len(),
                sent.len()
            )));
        }
        self.block_hashes.push(mined.hash);
        let mut receipts = Vec::with_capacity(sent.len());
        for (hash, tx) in sent.iter().zip(txs) {
            let r: Value = call(&self.client, "eth_getTransactionReceipt", json!([hash])).await?;
            if r["status"] != "0x1" {
                return Err(DevnetError::Unexpected(format!(
                    "chain {} block {number}: {:?} tx {hash} failed",
                    self.chain_id, tx.action
                )));
            }
            receipts.push(r);
        }
        Ok(receipts)
    }
}

#[derive(serde::Deserialize)]
struct Mined {
    hash: B256,
    transactions: Vec<B256>,
}

/// The setup block: the fee token, the two receiver apps, fee tokens for accounts 1–3 and their
/// approvals of the messenger.
fn setup_txs(chain: &mut Chain) -> Result<(Vec<TxRequest>, Apps), DevnetError> {
    let deployer = chain.accounts[0];
    let apps = Apps {
        token: deployer.create(0),
        receiver: deployer.create(1),
        reverting: deployer.create(2),
    };
    let mut token_code = Contract::Erc20.creation_code()?.to_vec();
    token_code
        .extend(("Snowline ICM Fee Token".to_string(), "FEE".to_string()).abi_encode_params());
    let mut txs = vec![
        chain.tx(Action::Deploy(Contract::Erc20), 0, None, token_code),
        chain.tx(
            Action::Deploy(Contract::IcmReceiver),
            0,
            None,
            Contract::IcmReceiver.creation_code()?.to_vec(),
        ),
        chain.tx(
            Action::Deploy(Contract::IcmRevertingReceiver),
            0,
            None,
            Contract::IcmRevertingReceiver.creation_code()?.to_vec(),
        ),
    ];
    for a in 1..=3 {
        let mint = Erc20Preset::mintCall {
            to: chain.accounts[a],
            amount: U256::from(1_000_000 * TOKEN),
        };
        txs.push(chain.tx(Action::Erc20Mint, 0, Some(apps.token), mint.abi_encode()));
    }
    for a in 1..=3 {
        let approve = Erc20Approve::approveCall {
            spender: TELEPORTER_V1,
            amount: U256::MAX,
        };
        txs.push(chain.tx(
            Action::Erc20Approve,
            a,
            Some(apps.token),
            approve.abi_encode(),
        ));
    }
    Ok((txs, apps))
}

/// Reads the Warp message a send tx's receipt holds: the stand-in's `SendWarpMessage` log (an
/// unsigned Warp message whose payload is an AddressedCall from the messenger) and the
/// messenger's `SendCrossChainMessage` id.
fn sent_message(receipt: &Value, source: B256) -> Result<(WarpPayload, B256), DevnetError> {
    let bad = |what: &str| DevnetError::Unexpected(format!("send receipt: {what}"));
    let logs = receipt["logs"].as_array().ok_or_else(|| bad("no logs"))?;
    let mut warp = None;
    let mut id = None;
    for log in logs {
        let topics: Vec<B256> =
            serde_json::from_value(log["topics"].clone()).map_err(|e| bad(&e.to_string()))?;
        let data: Bytes =
            serde_json::from_value(log["data"].clone()).map_err(|e| bad(&e.to_string()))?;
        let emitter: Address =
            serde_json::from_value(log["address"].clone()).map_err(|e| bad(&e.to_string()))?;
        match topics.first() {
            Some(t)
                if *t == IWarpMessenger::SendWarpMessage::SIGNATURE_HASH
                    && emitter == WARP_PRECOMPILE =>
            {
                let e =
                    IWarpMessenger::SendWarpMessage::decode_raw_log(topics.iter().copied(), &data)
                        .map_err(|e| bad(&e.to_string()))?;
                warp = Some(parse_unsigned(&e.message).ok_or_else(|| bad("not a Warp message"))?);
            }
            Some(t)
                if *t == ITeleporterMessenger::SendCrossChainMessage::SIGNATURE_HASH
                    && emitter == TELEPORTER_V1 =>
            {
                id = topics.get(1).copied();
            }
            _ => {}
        }
    }
    let warp = warp.ok_or_else(|| bad("no SendWarpMessage"))?;
    if warp.source != source || warp.origin != TELEPORTER_V1 {
        return Err(bad("Warp message from elsewhere"));
    }
    Ok((warp, id.ok_or_else(|| bad("no SendCrossChainMessage"))?))
}

/// Parses an unsigned Warp message holding an AddressedCall (Warp README byte layout).
fn parse_unsigned(b: &[u8]) -> Option<WarpPayload> {
    fn take<'a>(b: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        if b.len() < n {
            return None;
        }
        let (head, tail) = b.split_at(n);
        *b = tail;
        Some(head)
    }
    fn len(b: &mut &[u8]) -> Option<usize> {
        let l = take(b, 4)?;
        Some(u32::from_be_bytes([l[0], l[1], l[2], l[3]]) as usize)
    }
    let mut b = b;
    if take(&mut b, 2)? != [0, 0] {
        return None;
    }
    take(&mut b, 4)?; // network id
    let source = B256::from_slice(take(&mut b, 32)?);
    let n = len(&mut b)?;
    let mut call = take(&mut b, n)?;
    if !b.is_empty() || take(&mut call, 6)? != [0, 0, 0, 0, 0, 1] {
        return None;
    }
    let n = len(&mut call)?;
    let origin = Address::from_slice(take(&mut call, n).filter(|a| a.len() == 20)?);
    let n = len(&mut call)?;
    let payload = take(&mut call, n)?.to_vec();
    call.is_empty().then_some(WarpPayload {
        source,
        origin,
        payload,
    })
}

/// Runs the ICM scenario of `seed` on the fresh anvils at `urls` (the C-Chain 43112, then the
/// L1 99999; started by [`crate::Anvil`]: no mining, genesis only).
pub async fn run_icm_scenario(urls: [&str; 2], seed: u64) -> Result<IcmRun, DevnetError> {
    let mut chains = [
        Chain::new(urls[0], ICM_CHAINS[0]).await?,
        Chain::new(urls[1], ICM_CHAINS[1]).await?,
    ];
    let mut apps = None;
    for chain in &mut chains {
        chain.place_contracts().await?;
        let (txs, a) = setup_txs(chain)?;
        chain.mine(&txs).await?;
        apps = Some(a);
    }
    let apps = apps.ok_or_else(|| DevnetError::Unexpected("no chains".into()))?;
    // Sent messages by label: the chain that sent them, the Warp message, what the driver saw.
    let mut sent: BTreeMap<&'static str, (usize, WarpPayload, IcmMessage)> = BTreeMap::new();
    let expected = |label: &str| {
        PLANNED
            .iter()
            .find(|(l, _)| *l == label)
            .map(|(_, e)| *e)
            .ok_or_else(|| DevnetError::Unexpected(format!("{label} is not in PLANNED")))
    };
    for round in plan(seed) {
        for (c, steps) in round.into_iter().enumerate() {
            let other = chains[1 - c].id;
            let chain = &mut chains[c];
            let mut txs = Vec::with_capacity(steps.len());
            let mut sends = Vec::new();
            for step in &steps {
                let tx = match step {
                    Step::Send {
                        label,
                        from,
                        dest,
                        reverting,
                        fee,
                        allowed,
                    } => {
                        let input = TeleporterMessageInput {
                            destinationBlockchainID: match dest {
                                Dest::Other => other,
                                Dest::Unknown => unknown_destination_id(),
                            },
                            destinationAddress: if *reverting {
                                apps.reverting
                            } else {
                                apps.receiver
                            },
                            feeInfo: TeleporterFeeInfo {
                                feeTokenAddress: apps.token,
                                amount: U256::from(*fee),
                            },
                            requiredGasLimit: U256::from(REQUIRED_GAS),
                            allowedRelayerAddresses: allowed
                                .iter()
                                .map(|a| chain.accounts[*a])
                                .collect(),
                            message: format!("snowline devnet ICM message {label} (seed {seed})")
                                .into_bytes()
                                .into(),
                        };
                        sends.push((txs.len(), *label));
                        let call = ITeleporterMessenger::sendCrossChainMessageCall {
                            messageInput: input,
                        };
                        chain.tx(
                            Action::IcmSend,
                            *from,
                            Some(TELEPORTER_V1),
                            call.abi_encode(),
                        )
                    }
                    Step::AddFee {
                        label,
                        from,
                        amount,
                    } => {
                        let id = sent
                            .get(label)
                            .map(|(_, _, m)| m.message_id)
                            .ok_or_else(|| DevnetError::Unexpected(format!("{label} not sent")))?;
                        let call = ITeleporterMessenger::addFeeAmountCall {
                            messageID: id,
                            feeTokenAddress: apps.token,
                            additionalFeeAmount: U256::from(*amount),
                        };
                        chain.tx(
                            Action::IcmAddFee,
                            *from,
                            Some(TELEPORTER_V1),
                            call.abi_encode(),
                        )
                    }
                    Step::Relay {
                        label,
                        relayer,
                        reward,
                    } => {
                        let (_, warp, _) = sent
                            .get(label)
                            .ok_or_else(|| DevnetError::Unexpected(format!("{label} not sent")))?;
                        chain.set_predicate(chain.accounts[*relayer], warp).await?;
                        receive(chain, *relayer, *reward)
                    }
                    Step::Fabricate {
                        label,
                        relayer,
                        reward,
                    } => {
                        let message = TeleporterMessage {
                            messageNonce: U256::from(1),
                            originSenderAddress: chain.accounts[4],
                            destinationBlockchainID: chain.id,
                            destinationAddress: apps.receiver,
                            requiredGasLimit: U256::from(REQUIRED_GAS),
                            allowedRelayerAddresses: vec![],
                            receipts: vec![],
                            message: format!("snowline devnet ICM message {label} (seed {seed})")
                                .into_bytes()
                                .into(),
                        };
                        let warp = WarpPayload {
                            source: unindexed_source_id(),
                            origin: TELEPORTER_V1,
                            payload: message.abi_encode(),
                        };
                        chain.set_predicate(chain.accounts[*relayer], &warp).await?;
                        let msg = IcmMessage {
                            label,
                            source: warp.source,
                            destination: chain.id,
                            nonce: message.messageNonce,
                            message_id: message_id(warp.source, chain.id, message.messageNonce),
                            expected: expected(label)?,
                        };
                        sent.insert(label, (c, warp, msg));
                        receive(chain, *relayer, *reward)
                    }
                    Step::Redeem { from } => {
                        let call = ITeleporterMessenger::redeemRelayerRewardsCall {
                            feeTokenAddress: apps.token,
                        };
                        chain.tx(
                            Action::IcmRedeem,
                            *from,
                            Some(TELEPORTER_V1),
                            call.abi_encode(),
                        )
                    }
                };
                txs.push(tx);
            }
            let receipts = chain.mine(&txs).await?;
            for (i, label) in sends {
                let (warp, id) = sent_message(&receipts[i], chain.id)?;
                let message = TeleporterMessage::abi_decode(&warp.payload)
                    .map_err(|e| DevnetError::Unexpected(format!("{label}: {e}")))?;
                let rule = message_id(
                    chain.id,
                    message.destinationBlockchainID,
                    message.messageNonce,
                );
                if rule != id {
                    return Err(DevnetError::Unexpected(format!(
                        "{label}: the messenger's id {id} is not the rule's {rule}"
                    )));
                }
                let msg = IcmMessage {
                    label,
                    source: chain.id,
                    destination: message.destinationBlockchainID,
                    nonce: message.messageNonce,
                    message_id: id,
                    expected: expected(label)?,
                };
                sent.insert(label, (c, warp, msg));
            }
        }
    }
    let mut messages = Vec::with_capacity(PLANNED.len());
    for (label, _) in PLANNED {
        let (_, _, m) = sent
            .remove(label)
            .ok_or_else(|| DevnetError::Unexpected(format!("{label} was planned, not sent")))?;
        messages.push(m);
    }
    Ok(IcmRun {
        chains: chains
            .into_iter()
            .map(|c| IcmChainRun {
                chain_id: c.chain_id,
                block_hashes: c.block_hashes,
            })
            .collect(),
        messages,
        fee_token: apps.token,
        receiver: apps.receiver,
        reverting_receiver: apps.reverting,
    })
}

fn receive(chain: &mut Chain, relayer: usize, reward: usize) -> TxRequest {
    let call = ITeleporterMessenger::receiveCrossChainMessageCall {
        messageIndex: 0,
        relayerRewardAddress: chain.accounts[reward],
    };
    chain.tx(
        Action::IcmReceive,
        relayer,
        Some(TELEPORTER_V1),
        call.abi_encode(),
    )
}

/// Two fresh anvils (the C-Chain, then the L1) on free ports after the ICM scenario of `seed`.
pub async fn start_icm_devnet(seed: u64) -> Result<([Anvil; 2], IcmRun), DevnetError> {
    let start = |chain_id| Anvil::start(&AnvilConfig { chain_id, port: 0 });
    let anvils = [start(ICM_CHAINS[0])?, start(ICM_CHAINS[1])?];
    let run = run_icm_scenario([&anvils[0].url(), &anvils[1].url()], seed).await?;
    Ok((anvils, run))
}

/// The ICM scenario of `seed` recorded, one recording per chain (C-Chain, then L1; see
/// [`crate::record()`]).
pub async fn record_icm(seed: u64) -> Result<[Vec<u8>; 2], DevnetError> {
    let (anvils, _) = start_icm_devnet(seed).await?;
    let mut out = [Vec::new(), Vec::new()];
    for (anvil, out) in anvils.iter().zip(out.iter_mut()) {
        crate::record::record(&anvil.url(), out).await?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_chain_id_is_the_local_networks() {
        assert_eq!(
            C_CHAIN_BLOCKCHAIN_ID.0,
            snowline_types::network::NetworkInfo::LOCAL.c_chain_id.0
        );
        assert_ne!(blockchain_id(L1_CHAIN_ID), C_CHAIN_BLOCKCHAIN_ID);
    }

    #[test]
    fn an_unsigned_message_parses_back() {
        let payload = vec![7u8; 40];
        let mut call = vec![0, 0, 0, 0, 0, 1, 0, 0, 0, 20];
        call.extend_from_slice(TELEPORTER_V1.as_slice());
        call.extend_from_slice(&40u32.to_be_bytes());
        call.extend_from_slice(&payload);
        let mut m = vec![0, 0];
        m.extend_from_slice(&LOCAL_NETWORK_ID.to_be_bytes());
        m.extend_from_slice(C_CHAIN_BLOCKCHAIN_ID.as_slice());
        m.extend_from_slice(&(call.len() as u32).to_be_bytes());
        m.extend_from_slice(&call);
        let w = parse_unsigned(&m).unwrap();
        assert_eq!(
            (w.source, w.origin, w.payload),
            (C_CHAIN_BLOCKCHAIN_ID, TELEPORTER_V1, payload)
        );
        m.push(0);
        assert!(parse_unsigned(&m).is_none());
    }

    #[test]
    fn every_planned_message_is_sent_once() {
        let mut labels: Vec<&str> = plan(1)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|s| match s {
                Step::Send { label, .. } | Step::Fabricate { label, .. } => Some(label),
                _ => None,
            })
            .collect();
        labels.sort_unstable();
        let mut planned: Vec<&str> = PLANNED.iter().map(|(l, _)| *l).collect();
        planned.sort_unstable();
        assert_eq!(labels, planned);
    }
}
