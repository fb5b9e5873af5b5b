//! Drives an anvil (started with `--no-mining`) through the scenario over JSON-RPC: each
//! block's txs go into the pool with explicit nonces, then one `evm_mine` at a fixed timestamp
//! seals them together.

use alloy_primitives::{Address, B256};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use snowline_jsonrpc_client::RpcClient;

use crate::anvil::GENESIS_TIMESTAMP;
use crate::error::DevnetError;
use crate::scenario::{BLOCK_INTERVAL, Planner, ScenarioConfig};

/// What a finished scenario left on the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenarioRun {
    /// The hash of every block, genesis first.
    pub block_hashes: Vec<B256>,
    /// Transactions sent (all mined).
    pub txs: usize,
}

/// Calls `method` and decodes its result, naming the method in an error.
pub(crate) async fn call<R: DeserializeOwned>(
    client: &RpcClient,
    method: &str,
    params: Value,
) -> Result<R, DevnetError> {
    client
        .call(method, params)
        .await
        .map_err(|source| DevnetError::Rpc {
            method: method.to_owned(),
            source,
        })
}

/// The dev accounts of the anvil at `client`.
pub async fn dev_accounts(client: &RpcClient) -> Result<Vec<Address>, DevnetError> {
    call(client, "eth_accounts", json!([])).await
}

/// Runs the scenario of `config` on the fresh anvil at `url` (started by [`crate::Anvil`]:
/// no mining, genesis only) and returns the hashes of its blocks.
pub async fn run_scenario(url: &str, config: &ScenarioConfig) -> Result<ScenarioRun, DevnetError> {
    let client = RpcClient::new(url).map_err(|source| DevnetError::Rpc {
        method: "connect".into(),
        source,
    })?;
    let chain: alloy_primitives::U64 = call(&client, "eth_chainId", json!([])).await?;
    if chain.to::<u64>() != config.chain_id {
        return Err(DevnetError::Unexpected(format!(
            "anvil runs chain {chain}, the scenario is for {}",
            config.chain_id
        )));
    }
    let head: alloy_primitives::U64 = call(&client, "eth_blockNumber", json!([])).await?;
    if head.to::<u64>() != 0 {
        return Err(DevnetError::Unexpected(format!(
            "anvil is at block {head}, the scenario needs a fresh chain"
        )));
    }
    let mut planner = Planner::new(*config, dev_accounts(&client).await?)?;
    let mut block_hashes = vec![block_hash(&client, 0).await?];
    let mut txs = 0;
    let mut number = 0u64;
    while let Some(block) = planner.next_block()? {
        number += 1;
        let mut sent = Vec::with_capacity(block.len());
        for tx in &block {
            let hash: B256 = call(&client, "eth_sendTransaction", json!([tx.to_json()])).await?;
            sent.push(hash);
        }
        let timestamp = GENESIS_TIMESTAMP + number * BLOCK_INTERVAL;
        call::<Value>(&client, "evm_setNextBlockTimestamp", json!([timestamp])).await?;
        call::<Value>(&client, "evm_mine", json!([])).await?;
        let mined: MinedBlock = call(
            &client,
            "eth_getBlockByNumber",
            json!([format!("{number:#x}"), false]),
        )
        .await?;
        if mined.transactions != sent {
            return Err(DevnetError::Unexpected(format!(
                "block {number} holds {} txs, {} were sent",
                mined.transactions.len(),
                sent.len()
            )));
        }
        txs += sent.len();
        block_hashes.push(mined.hash);
    }
    Ok(ScenarioRun { block_hashes, txs })
}

#[derive(serde::Deserialize)]
struct MinedBlock {
    hash: B256,
    transactions: Vec<B256>,
}

async fn block_hash(client: &RpcClient, number: u64) -> Result<B256, DevnetError> {
    let b: MinedBlock = call(
        client,
        "eth_getBlockByNumber",
        json!([format!("{number:#x}"), false]),
    )
    .await?;
    Ok(b.hash)
}
