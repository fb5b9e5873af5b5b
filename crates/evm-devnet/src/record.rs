//! Records, block by block, the JSON-RPC answers an EVM indexer asks a node for, as JSON lines
//! `{"method":…,"params":…,"result":…}` (or `"error":{…}` where the node refused): the answer
//! text is anvil's own, byte for byte.
//!
//! Per block `n` (hex quantity `N`), genesis included, in this order:
//! `eth_getBlockByNumber [N, true]`, `eth_getBlockReceipts [N]`,
//! `debug_traceBlockByNumber [N, {"tracer":"callTracer"}]`, `eth_getBalance [addr, N]` for every
//! address the block touched (tx senders and recipients, every call frame's `from`/`to`,
//! created contracts, log emitters; at genesis the dev accounts), then `eth_call
//! [{"data":…,"to":…}, N]` for token metadata: `supportsInterface` of ERC-165, `0xffffffff`,
//! ERC-721, ERC-721 metadata, ERC-1155 and ERC-1155 metadata URI the first time a contract is
//! created or emits a token event; `name`, `symbol` (and `decimals`, `totalSupply` for ERC-20)
//! the first time it emits an ERC-20 or ERC-721 `Transfer`; `tokenURI(id)` and `uri(id)` for each
//! id moved in the block.
//! The file starts with `eth_chainId []` and `eth_blockNumber []`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;

use alloy_primitives::{Address, U256, hex};
use alloy_sol_types::{SolCall, SolValue};
use serde_json::{Value, json};
use snowline_jsonrpc_client::{ClientError, RpcClient};

use crate::contracts::Metadata;
use crate::driver::dev_accounts;
use crate::error::DevnetError;

/// `Transfer(address,address,uint256)` (ERC-20 with 3 topics, ERC-721 with 4).
const TRANSFER: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/// ERC-1155 `TransferSingle(address,address,address,uint256,uint256)`.
const TRANSFER_SINGLE: &str = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
/// ERC-1155 `TransferBatch(address,address,address,uint256[],uint256[])`.
const TRANSFER_BATCH: &str = "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";

/// The interface ids asked of every new contract: ERC-165 and the id EIP-165's detection requires
/// it to deny, ERC-721, ERC-721 metadata, ERC-1155, ERC-1155 metadata URI.
const INTERFACES: [[u8; 4]; 6] = [
    [0x01, 0xff, 0xc9, 0xa7],
    [0xff, 0xff, 0xff, 0xff],
    [0x80, 0xac, 0x58, 0xcd],
    [0x5b, 0x5e, 0x13, 0x9f],
    [0xd9, 0xb6, 0x7a, 0x26],
    [0x0e, 0x89, 0x34, 0x1c],
];

/// What a recording holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordSummary {
    /// The last block recorded.
    pub head: u64,
    /// Lines written.
    pub lines: usize,
}

/// Token standard of a contract, from the events it emitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Erc20,
    Erc721,
    Erc1155,
}

/// Records blocks 0 to the head of the node at `url` into `out`.
pub async fn record(url: &str, out: &mut impl Write) -> Result<RecordSummary, DevnetError> {
    let client = RpcClient::new(url).map_err(|source| DevnetError::Rpc {
        method: "connect".into(),
        source,
    })?;
    let mut r = Recorder {
        client,
        out,
        lines: 0,
    };
    r.ask("eth_chainId", json!([])).await?;
    let head = r.ask("eth_blockNumber", json!([])).await?;
    let head = head
        .as_ref()
        .and_then(Value::as_str)
        .and_then(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| DevnetError::Unexpected(format!("eth_blockNumber answered {head:?}")))?;
    let mut seen: BTreeSet<Address> = BTreeSet::new();
    let mut named: BTreeSet<Address> = BTreeSet::new();
    for n in 0..=head {
        let tag = format!("{n:#x}");
        let block = r.ask("eth_getBlockByNumber", json!([tag, true])).await?;
        let receipts = r.ask("eth_getBlockReceipts", json!([tag])).await?;
        let traces = r
            .ask(
                "debug_traceBlockByNumber",
                json!([tag, {"tracer": "callTracer"}]),
            )
            .await?;
        let (Some(block), Some(receipts), Some(traces)) = (block, receipts, traces) else {
            return Err(DevnetError::Unexpected(format!("block {n} is missing")));
        };
        let mut touched = BTreeSet::new();
        let mut created = BTreeSet::new();
        if n == 0 {
            touched.extend(dev_accounts(&r.client).await?);
        }
        for tx in array(&block, "transactions") {
            touched.extend(address(tx, "from"));
            touched.extend(address(tx, "to"));
        }
        let mut tokens: BTreeMap<Address, (Kind, BTreeSet<U256>)> = BTreeMap::new();
        for receipt in receipts.as_array().into_iter().flatten() {
            created.extend(address(receipt, "contractAddress"));
            for log in array(receipt, "logs") {
                touched.extend(address(log, "address"));
                if let Some((emitter, kind, ids)) = token_event(log) {
                    let entry = tokens.entry(emitter).or_insert((kind, BTreeSet::new()));
                    entry.1.extend(ids);
                }
            }
        }
        for trace in traces.as_array().into_iter().flatten() {
            if let Some(frame) = trace.get("result") {
                walk_frames(frame, &mut touched, &mut created);
            }
        }
        touched.extend(created.iter().copied());
        for addr in &touched {
            r.ask("eth_getBalance", json!([addr_hex(addr), tag]))
                .await?;
        }
        let fresh: BTreeSet<Address> = created
            .iter()
            .chain(tokens.keys())
            .copied()
            .filter(|a| !seen.contains(a))
            .collect();
        for contract in &fresh {
            for id in INTERFACES {
                let data = Metadata::supportsInterfaceCall {
                    interfaceId: id.into(),
                }
                .abi_encode();
                r.eth_call(contract, data, &tag).await?;
            }
        }
        seen.extend(fresh);
        for (contract, (kind, ids)) in &tokens {
            if *kind != Kind::Erc1155 && named.insert(*contract) {
                r.eth_call(contract, Metadata::nameCall {}.abi_encode(), &tag)
                    .await?;
                r.eth_call(contract, Metadata::symbolCall {}.abi_encode(), &tag)
                    .await?;
                if *kind == Kind::Erc20 {
                    r.eth_call(contract, Metadata::decimalsCall {}.abi_encode(), &tag)
                        .await?;
                    r.eth_call(contract, Metadata::totalSupplyCall {}.abi_encode(), &tag)
                        .await?;
                }
            }
            for &id in ids {
                let data = match kind {
                    Kind::Erc20 => continue,
                    Kind::Erc721 => Metadata::tokenURICall { tokenId: id }.abi_encode(),
                    Kind::Erc1155 => Metadata::uriCall { id }.abi_encode(),
                };
                r.eth_call(contract, data, &tag).await?;
            }
        }
    }
    Ok(RecordSummary {
        head,
        lines: r.lines,
    })
}

/// The client and the output of one recording.
struct Recorder<'a, W: Write> {
    client: RpcClient,
    out: &'a mut W,
    lines: usize,
}

impl<W: Write> Recorder<'_, W> {
    /// Calls `method`, writes its line and returns the parsed result (`None` if the node
    /// answered with an error, which is recorded too).
    async fn ask(&mut self, method: &str, params: Value) -> Result<Option<Value>, DevnetError> {
        let head = format!(
            "{{\"method\":{},\"params\":{},",
            Value::from(method),
            params
        );
        let (tail, parsed) = match self.client.call_raw(method, &params).await {
            Ok(raw) => {
                let value: Value = serde_json::from_str(raw.json())
                    .map_err(|e| DevnetError::Unexpected(format!("{method}: {e}")))?;
                // anvil answers on one line; anything else is re-serialized to keep JSON lines.
                let text = if raw.json().contains('\n') {
                    value.to_string()
                } else {
                    raw.json().to_owned()
                };
                (format!("\"result\":{text}}}"), Some(value))
            }
            Err(ClientError::Rpc {
                code,
                message,
                data,
            }) => {
                let mut error = format!("{{\"code\":{code},\"message\":{}", Value::from(message));
                if let Some(data) = data {
                    let data: Value = serde_json::from_str(&data)
                        .map_err(|e| DevnetError::Unexpected(format!("{method}: {e}")))?;
                    error.push_str(&format!(",\"data\":{data}"));
                }
                (format!("\"error\":{error}}}}}"), None)
            }
            Err(source) => {
                return Err(DevnetError::Rpc {
                    method: method.to_owned(),
                    source,
                });
            }
        };
        writeln!(self.out, "{head}{tail}").map_err(|source| DevnetError::Io {
            path: "recording".into(),
            source,
        })?;
        self.lines += 1;
        Ok(parsed)
    }

    async fn eth_call(
        &mut self,
        to: &Address,
        data: Vec<u8>,
        tag: &str,
    ) -> Result<Option<Value>, DevnetError> {
        let params = json!([{"to": addr_hex(to), "data": hex::encode_prefixed(data)}, tag]);
        self.ask("eth_call", params).await
    }
}

/// Lowercase `0x…` hex, the form the recording's params use.
fn addr_hex(a: &Address) -> String {
    hex::encode_prefixed(a)
}

fn array<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn address(v: &Value, key: &str) -> Option<Address> {
    v.get(key)?.as_str()?.parse().ok()
}

/// Collects every frame's `from`/`to` and the addresses of successful CREATE/CREATE2 frames.
fn walk_frames(frame: &Value, touched: &mut BTreeSet<Address>, created: &mut BTreeSet<Address>) {
    touched.extend(address(frame, "from"));
    touched.extend(address(frame, "to"));
    let kind = frame.get("type").and_then(Value::as_str).unwrap_or("");
    if matches!(kind, "CREATE" | "CREATE2") && frame.get("error").is_none() {
        created.extend(address(frame, "to"));
    }
    for sub in array(frame, "calls") {
        walk_frames(sub, touched, created);
    }
}

/// The emitter, standard and token ids of an ERC-20/721/1155 transfer log.
fn token_event(log: &Value) -> Option<(Address, Kind, Vec<U256>)> {
    let emitter = address(log, "address")?;
    let topics: Vec<&str> = array(log, "topics").filter_map(Value::as_str).collect();
    let data = hex::decode(log.get("data")?.as_str()?).ok()?;
    let topic0 = topics.first()?.to_ascii_lowercase();
    match (topic0.as_str(), topics.len()) {
        (TRANSFER, 3) => Some((emitter, Kind::Erc20, Vec::new())),
        (TRANSFER, 4) => {
            let id: U256 = topics[3].parse().ok()?;
            Some((emitter, Kind::Erc721, vec![id]))
        }
        (TRANSFER_SINGLE, 4) => {
            let (id, _amount) = <(U256, U256)>::abi_decode_params(&data).ok()?;
            Some((emitter, Kind::Erc1155, vec![id]))
        }
        (TRANSFER_BATCH, 4) => {
            let (ids, _amounts) = <(Vec<U256>, Vec<U256>)>::abi_decode_params(&data).ok()?;
            Some((emitter, Kind::Erc1155, ids))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Topics are keccak-256 of the event signatures the ERCs define (EIP-20, EIP-1155).
    #[test]
    fn topics_are_the_event_signatures() {
        use alloy_primitives::keccak256;
        let t = |s: &str| hex::encode_prefixed(keccak256(s));
        assert_eq!(t("Transfer(address,address,uint256)"), TRANSFER);
        assert_eq!(
            t("TransferSingle(address,address,address,uint256,uint256)"),
            TRANSFER_SINGLE
        );
        assert_eq!(
            t("TransferBatch(address,address,address,uint256[],uint256[])"),
            TRANSFER_BATCH
        );
    }

    #[test]
    fn token_events_by_topic_count() {
        let erc721 = json!({
            "address": "0x5fbdb2315678afecb367f032d93f642f64180aa3",
            "topics": [TRANSFER,
                "0x0000000000000000000000000000000000000000000000000000000000000000",
                "0x00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8",
                "0x0000000000000000000000000000000000000000000000000000000000000007"],
            "data": "0x"
        });
        let (_, kind, ids) = token_event(&erc721).unwrap();
        assert_eq!((kind, ids), (Kind::Erc721, vec![U256::from(7)]));
        let mut erc20 = erc721.clone();
        erc20["topics"].as_array_mut().unwrap().pop();
        erc20["data"] = json!(hex::encode_prefixed(U256::from(5).to_be_bytes::<32>()));
        assert_eq!(token_event(&erc20).unwrap().1, Kind::Erc20);
        assert!(token_event(&json!({"address": "0x00", "topics": []})).is_none());
    }
}
