//! A data-api store holding ICM messages between two synthetic EVM chains (the C-Chain 43112
//! and an L1 99999, one message sent per block, delivered a block later on the other chain),
//! derived with [`IcmDeriver`] from real v1 event logs into `DIR/index` at the data-api's schema
//! version, for serving benchmarks (`bench/icm.sh`, `bench/icm-metrics.sh`). Blocks are
//! `SPACING` seconds apart on both chains (a message every `SPACING / 2` s on average).
//!
//! ```sh
//! cargo run --release -p snowline-chain-icm --example synth_icm -- DIR [MESSAGES=100000] [SENDERS=1000] [SPACING=2]
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used)]

use alloy_sol_types::SolValue;
use snowline_chain_evm::BlockHook;
use snowline_chain_evm::parse::{Block, MessengerLog, Tx};
use snowline_chain_icm::IcmDeriver;
use snowline_derive::write_batch;
use snowline_store::{Schema, Store, WriteBatch};
use snowline_types::evm::teleporter::{
    RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC, SEND_CROSS_CHAIN_MESSAGE_TOPIC, TELEPORTER_MESSENGER_V1,
    TeleporterFeeInfo, TeleporterMessage, message_id,
};
use snowline_types::evm::{Address, B256, U256};

const CHAINS: [(u64, [u8; 32]); 2] = [(43_112, [0xc0; 32]), (99_999, [0x11; 32])];

fn address(i: u64) -> Address {
    let mut a = [0u8; 20];
    a[12..].copy_from_slice(&i.to_be_bytes());
    a[0] = 0xa0;
    Address::from(a)
}

fn tx(hash: u64, from: Address, log: MessengerLog) -> Tx {
    Tx {
        hash: B256::from(U256::from(hash)),
        nonce: hash,
        from,
        to: Some(TELEPORTER_MESSENGER_V1),
        value: U256::ZERO,
        gas: 500_000,
        gas_price: None,
        max_fee: None,
        max_priority_fee: None,
        input: Vec::new(),
        tx_type: 2,
        gas_used: 150_000,
        effective_gas_price: U256::from(25_000_000_000u64),
        contract_address: None,
        status: Some(true),
        emitters: vec![TELEPORTER_MESSENGER_V1],
        transfers: Vec::new(),
        internals: None,
        frame_ends: Vec::new(),
        messenger_logs: vec![log],
        logs: None,
    }
}

fn block(n: u64, spacing: u64, txs: Vec<Tx>) -> Block {
    Block {
        number: n,
        hash: B256::from(U256::from(n)),
        parent: B256::from(U256::from(n.saturating_sub(1))),
        timestamp: 1_700_000_000 + spacing * n,
        miner: Address::ZERO,
        gas_limit: 15_000_000,
        gas_used: 150_000,
        base_fee: None,
        block_gas_cost: None,
        txs,
    }
}

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("usage: synth_icm DIR ..."));
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (messages, senders, spacing) = (arg(2, 100_000), arg(3, 1_000), arg(4, 2));
    // With the metrics tables (empty), which `metrics-api serve` opens too.
    let schema = snowline_chain_icm::tables()
        .into_iter()
        .chain(snowline_chain_metrics::tables())
        .fold(
            Schema::new(snowline_cli::DATA_API_SCHEMA_VERSION),
            Schema::with_spec,
        );
    std::fs::create_dir_all(dir.join("index")).unwrap();
    let store = Store::open(dir.join("index"), &schema).unwrap();
    let start = std::time::Instant::now();
    let mut hooks: Vec<IcmDeriver> = CHAINS
        .iter()
        .map(|(c, id)| IcmDeriver::open(&store, *c, Some(B256::from(*id))).unwrap())
        .collect();
    let mut batches = [WriteBatch::new(), WriteBatch::new()];
    // Message n goes from chain n % 2 in its block n, and is delivered in block n + 1 of the
    // other chain (the last one stays pending).
    let mut pending: Option<(usize, TeleporterMessage, B256)> = None;
    for n in 0..messages {
        let c = (n % 2) as usize;
        let (source, destination) = (B256::from(CHAINS[c].1), B256::from(CHAINS[1 - c].1));
        let sender = address(n % senders);
        let m = TeleporterMessage {
            messageNonce: U256::from(n + 1),
            originSenderAddress: sender,
            destinationBlockchainID: destination,
            destinationAddress: address(senders + n % 97),
            requiredGasLimit: U256::from(100_000u64),
            allowedRelayerAddresses: Vec::new(),
            receipts: Vec::new(),
            message: n.to_be_bytes().to_vec().into(),
        };
        let id = message_id(TELEPORTER_MESSENGER_V1, source, destination, m.messageNonce);
        let fee = TeleporterFeeInfo {
            feeTokenAddress: address(99_999_999),
            amount: U256::from(1_000u64),
        };
        let send = MessengerLog {
            log_index: 0,
            topics: vec![SEND_CROSS_CHAIN_MESSAGE_TOPIC, id, destination],
            data: (m.clone(), fee).abi_encode_params(),
        };
        let mut txs = vec![tx(n << 1, sender, send)];
        if let Some((from_chain, delivered, delivered_id)) = pending.take() {
            // This chain delivers the message the other chain sent a block ago.
            debug_assert_eq!(1 - from_chain, c);
            let relayer = address(5_000_000);
            let mut topics = vec![RECEIVE_CROSS_CHAIN_MESSAGE_TOPIC, delivered_id];
            topics.push(B256::from(CHAINS[from_chain].1));
            topics.push(B256::left_padding_from(relayer.as_slice()));
            txs.push(tx(
                n << 1 | 1,
                relayer,
                MessengerLog {
                    log_index: 1,
                    topics,
                    data: (relayer, delivered).abi_encode_params(),
                },
            ));
        }
        pending = Some((c, m, id));
        let b = block(n / 2, spacing, txs);
        hooks[c]
            .block(&store, CHAINS[c].0, &b, &mut batches[c])
            .unwrap();
        if n % 2_000 >= 1_998 {
            write_batch(&store, &mut hooks[c], &mut batches[c]).unwrap();
        }
    }
    for c in 0..2 {
        write_batch(&store, &mut hooks[c], &mut batches[c]).unwrap();
    }
    store.flush().unwrap();
    println!(
        "{messages} ICM messages between chains 43112 and 99999 in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}
