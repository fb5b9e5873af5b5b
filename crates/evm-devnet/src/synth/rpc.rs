//! The synthetic chain answered as a JSON-RPC node: the methods an EVM indexer calls (blocks,
//! receipts, `callTracer` traces by block and by tx, balances, the token `eth_call`s), block tags
//! read as the head or the genesis, a block past the head `null`, as a node says it.

use std::sync::Arc;

use alloy_primitives::{Address, B256, U256, keccak256};
use alloy_sol_types::{SolCall, SolValue};
use serde_json::Value;
use tokio::net::TcpListener;

use super::{Contract, Standard, Synth, SynthConfig, render};
use crate::contracts::Metadata;
use crate::error::DevnetError;
use crate::replay::RpcError;
use crate::server::{Answers, error, serve};

/// The interfaces each standard's contracts claim through ERC-165 (as OpenZeppelin's presets
/// do: ERC-165 itself, the standard, its metadata extension).
fn claims(standard: Standard, id: [u8; 4]) -> bool {
    const ERC165: [u8; 4] = [0x01, 0xff, 0xc9, 0xa7];
    let own: &[[u8; 4]] = match standard {
        Standard::Erc20 => &[],
        Standard::Erc721 => &[[0x80, 0xac, 0x58, 0xcd], [0x5b, 0x5e, 0x13, 0x9f]],
        Standard::Erc1155 => &[[0xd9, 0xb6, 0x7a, 0x26], [0x0e, 0x89, 0x34, 0x1c]],
    };
    id == ERC165 || own.contains(&id)
}

fn reverted() -> RpcError {
    RpcError {
        code: 3,
        message: "execution reverted".into(),
        data: Some("\"0x\"".into()),
    }
}

fn invalid(what: impl std::fmt::Display) -> RpcError {
    error(-32602, &format!("invalid params: {what}"))
}

fn hex_result(bytes: &[u8]) -> String {
    format!("\"0x{}\"", alloy_primitives::hex::encode(bytes))
}

impl Synth {
    /// The block a tag or quantity names; `Ok(None)` past the head.
    fn block_param(&self, v: Option<&Value>) -> Result<Option<u64>, RpcError> {
        let s = v
            .and_then(Value::as_str)
            .ok_or_else(|| invalid("a block number or tag"))?;
        let n = match s {
            "latest" | "safe" | "finalized" | "pending" => self.head(),
            "earliest" => 0,
            _ => s
                .strip_prefix("0x")
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .ok_or_else(|| invalid(format!("block {s:?}")))?,
        };
        Ok((n <= self.head()).then_some(n))
    }

    fn hash_param(v: Option<&Value>) -> Result<B256, RpcError> {
        v.and_then(Value::as_str)
            .and_then(|s| s.parse::<B256>().ok())
            .ok_or_else(|| invalid("a 32-byte hash"))
    }

    fn traced(params: &Value) -> Result<(), RpcError> {
        match params
            .get(1)
            .and_then(|o| o.get("tracer"))
            .and_then(Value::as_str)
        {
            Some("callTracer") => Ok(()),
            _ => Err(invalid("only the callTracer is served")),
        }
    }

    /// An `eth_call`'s answer: what the chain's tokens say of themselves.
    fn call(&self, params: &Value) -> Result<String, RpcError> {
        let call = params.get(0).ok_or_else(|| invalid("a call object"))?;
        let to: Address = call
            .get("to")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| invalid("the call's `to`"))?;
        let input = call
            .get("data")
            .or_else(|| call.get("input"))
            .and_then(Value::as_str)
            .and_then(|s| alloy_primitives::hex::decode(s).ok())
            .unwrap_or_default();
        self.block_param(params.get(1))?
            .ok_or_else(|| error(-32000, "header not found"))?;
        let (standard, k) = match self.contract(&to) {
            Some(Contract::Token(s, k)) => (s, k),
            Some(_) => return Err(reverted()),
            // No code: a call returns nothing.
            None => return Ok("\"0x\"".into()),
        };
        let selector: [u8; 4] = match input.get(..4).and_then(|s| s.try_into().ok()) {
            Some(s) => s,
            None => return Err(reverted()),
        };
        let label = match standard {
            Standard::Erc20 => "Token",
            Standard::Erc721 => "Collectible",
            Standard::Erc1155 => "Multi",
        };
        let text =
            |s: String| -> Result<String, RpcError> { Ok(hex_result(&(s,).abi_encode_params())) };
        let word = |v: U256| -> Result<String, RpcError> { Ok(hex_result(&v.to_be_bytes::<32>())) };
        let arg = || {
            input
                .get(4..36)
                .map(U256::from_be_slice)
                .ok_or_else(reverted)
        };
        match selector {
            s if s == Metadata::supportsInterfaceCall::SELECTOR => {
                let id: [u8; 4] = input
                    .get(4..8)
                    .and_then(|b| b.try_into().ok())
                    .ok_or_else(reverted)?;
                word(U256::from(u8::from(claims(standard, id))))
            }
            s if s == Metadata::nameCall::SELECTOR && standard != Standard::Erc1155 => {
                text(format!("Synthetic {label} {k}"))
            }
            s if s == Metadata::symbolCall::SELECTOR && standard != Standard::Erc1155 => {
                text(format!("S{}{k}", &label[..1]))
            }
            s if s == Metadata::decimalsCall::SELECTOR && standard == Standard::Erc20 => {
                word(U256::from(18u8))
            }
            s if s == Metadata::totalSupplyCall::SELECTOR && standard == Standard::Erc20 => {
                let d = keccak256(to);
                word(U256::from_be_slice(&d.0[..10]))
            }
            s if s == Metadata::tokenURICall::SELECTOR && standard == Standard::Erc721 => {
                text(format!("https://synthetic.invalid/{k}/{}", arg()?))
            }
            s if s == Metadata::uriCall::SELECTOR && standard == Standard::Erc1155 => {
                text(format!("https://synthetic.invalid/{k}/{{id}}.json"))
            }
            _ => Err(reverted()),
        }
    }

    /// A balance that is a function of the account and the block.
    fn balance(&self, params: &Value) -> Result<String, RpcError> {
        let a: Address = params
            .get(0)
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| invalid("an address"))?;
        let n = self
            .block_param(params.get(1))?
            .ok_or_else(|| error(-32000, "header not found"))?;
        let mut buf = [0u8; 36];
        buf[..20].copy_from_slice(a.as_slice());
        buf[20..28].copy_from_slice(&self.config().seed.to_be_bytes());
        buf[28..].copy_from_slice(&n.to_be_bytes());
        let d = keccak256(buf);
        Ok(format!("\"{:#x}\"", U256::from_be_slice(&d.0[..10])))
    }
}

impl Answers for Synth {
    fn answer(&self, method: &str, params: &Value) -> Result<String, RpcError> {
        let p = |i: usize| params.get(i);
        let full = |i: usize| p(i).and_then(Value::as_bool).unwrap_or(false);
        let block = |n: Option<u64>| n.and_then(|n| self.block_shared(n));
        Ok(match method {
            "eth_chainId" => format!("\"{:#x}\"", self.config().chain_id),
            "net_version" => format!("\"{}\"", self.config().chain_id),
            "eth_blockNumber" => format!("\"{:#x}\"", self.head()),
            "eth_getBlockByNumber" => match block(self.block_param(p(0))?) {
                Some(b) => render::block(self, &b, full(1)),
                None => "null".into(),
            },
            "eth_getBlockByHash" => {
                let n = self.block_of_hash(&Self::hash_param(p(0))?);
                match block(n) {
                    Some(b) => render::block(self, &b, full(1)),
                    None => "null".into(),
                }
            }
            "eth_getBlockReceipts" => match block(self.block_param(p(0))?) {
                Some(b) => render::receipts(&b),
                None => "null".into(),
            },
            "debug_traceBlockByNumber" => {
                Self::traced(params)?;
                match block(self.block_param(p(0))?) {
                    Some(b) => render::traces(&b),
                    None => return Err(error(-32000, "block not found")),
                }
            }
            "eth_getTransactionByHash" | "eth_getTransactionReceipt" | "debug_traceTransaction" => {
                if method == "debug_traceTransaction" {
                    Self::traced(params)?;
                }
                let found = self.tx_of_hash(&Self::hash_param(p(0))?);
                let Some((b, i)) =
                    found.and_then(|(n, i)| Some((self.block_shared(n)?, i as usize)))
                else {
                    return match method {
                        "debug_traceTransaction" => Err(error(-32000, "transaction not found")),
                        _ => Ok("null".into()),
                    };
                };
                match method {
                    "eth_getTransactionByHash" => render::tx(self, &b, i),
                    "eth_getTransactionReceipt" => render::receipt(&b, i),
                    _ => render::trace(&b.txs[i]),
                }
            }
            "eth_getBalance" => self.balance(params)?,
            "eth_call" => self.call(params)?,
            _ => {
                return Err(error(
                    -32601,
                    &format!("the method {method} does not exist/is not available"),
                ));
            }
        })
    }
}

/// Serves the chain of `config` on `listener` until the task is dropped or accepting fails.
pub async fn serve_synth(listener: TcpListener, config: SynthConfig) -> std::io::Result<()> {
    serve(listener, Arc::new(Synth::new(config))).await
}

/// A synthetic chain served on a free loopback port (see [`spawn_synth`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalSynth {
    /// The node's JSON-RPC URL, `http://127.0.0.1:PORT/`.
    pub url: String,
    /// The head block.
    pub head: u64,
}

/// Serves the chain of `config` on a free loopback port from a spawned task. Needs a tokio
/// runtime; the server lives as long as the runtime.
pub async fn spawn_synth(config: SynthConfig) -> Result<LocalSynth, DevnetError> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(DevnetError::Listen)?;
    let addr = listener.local_addr().map_err(DevnetError::Listen)?;
    let head = config.blocks;
    tokio::spawn(serve_synth(listener, config));
    Ok(LocalSynth {
        url: format!("http://{addr}/"),
        head,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn synth() -> Synth {
        Synth::new(SynthConfig {
            blocks: 20,
            txs_per_block: 30,
            accounts: 1_000,
            erc20: 5,
            erc721: 3,
            erc1155: 2,
            ..SynthConfig::default()
        })
    }

    fn ok(s: &Synth, method: &str, params: Value) -> Value {
        serde_json::from_str(&s.answer(method, &params).unwrap()).unwrap()
    }

    #[test]
    fn blocks_receipts_and_traces_agree() {
        let s = synth();
        let full = ok(&s, "eth_getBlockByNumber", json!(["0x5", true]));
        let lean = ok(&s, "eth_getBlockByNumber", json!(["0x5", false]));
        let receipts = ok(&s, "eth_getBlockReceipts", json!(["0x5"]));
        let traces = ok(
            &s,
            "debug_traceBlockByNumber",
            json!(["0x5", {"tracer": "callTracer"}]),
        );
        let txs = full["transactions"].as_array().unwrap();
        assert_eq!(txs.len(), 30);
        let mut last_log = None;
        for (i, tx) in txs.iter().enumerate() {
            assert_eq!(lean["transactions"][i], tx["hash"]);
            assert_eq!(receipts[i]["transactionHash"], tx["hash"]);
            assert_eq!(traces[i]["txHash"], tx["hash"]);
            let by_hash = ok(&s, "eth_getTransactionByHash", json!([tx["hash"]]));
            assert_eq!(&by_hash, tx);
            let receipt = ok(&s, "eth_getTransactionReceipt", json!([tx["hash"]]));
            assert_eq!(receipt, receipts[i]);
            for log in receipts[i]["logs"].as_array().unwrap() {
                let n = u64::from_str_radix(&log["logIndex"].as_str().unwrap()[2..], 16).unwrap();
                assert!(last_log.is_none_or(|l| n == l + 1));
                last_log = Some(n);
            }
        }
        assert_eq!(
            ok(&s, "eth_getBlockByHash", json!([full["hash"], true])),
            full
        );
        assert_eq!(
            ok(&s, "eth_getBlockByNumber", json!(["latest", false]))["number"],
            "0x14"
        );
        assert_eq!(
            ok(&s, "eth_getBlockByNumber", json!(["0x15", false])),
            Value::Null
        );
        assert_eq!(ok(&s, "eth_getBlockReceipts", json!(["0x0"])), json!([]));
        assert_eq!(ok(&s, "eth_blockNumber", json!([])), "0x14");
        assert_eq!(ok(&s, "eth_chainId", json!([])), "0xa868");
    }

    #[test]
    fn token_calls_answer_as_their_standard() {
        let s = synth();
        let call = |to: Address, data: &str| {
            s.answer("eth_call", &json!([{"to": to, "data": data}, "latest"]))
        };
        let erc20 = s.token(Standard::Erc20, 1);
        let erc721 = s.token(Standard::Erc721, 0);
        let word = |v: u8| format!("\"0x{}{v:02x}\"", "00".repeat(31));
        // supportsInterface(ERC-721) on each, decimals() on the ERC-20.
        let probe = "0x01ffc9a780ac58cd00000000000000000000000000000000000000000000000000000000";
        assert_eq!(call(erc20, probe).unwrap(), word(0));
        assert_eq!(call(erc721, probe).unwrap(), word(1));
        assert_eq!(call(erc20, "0x313ce567").unwrap(), word(18));
        assert_eq!(call(erc721, "0x313ce567").unwrap_err().code, 3);
        let name: String = serde_json::from_str(&call(erc20, "0x06fdde03").unwrap()).unwrap();
        let bytes = alloy_primitives::hex::decode(name).unwrap();
        let (text,) = <(String,)>::abi_decode_params(&bytes).unwrap();
        assert_eq!(text, "Synthetic Token 1");
        // An account has no code: nothing comes back.
        assert_eq!(call(s.account(3), "0x06fdde03").unwrap(), "\"0x\"");
    }

    #[test]
    fn bad_calls_are_errors() {
        let s = synth();
        assert_eq!(s.answer("eth_nope", &json!([])).unwrap_err().code, -32601);
        assert_eq!(
            s.answer("eth_getBlockByNumber", &json!(["0xzz", true]))
                .unwrap_err()
                .code,
            -32602
        );
        assert_eq!(
            s.answer(
                "debug_traceBlockByNumber",
                &json!(["0x1", {"tracer": "prestateTracer"}])
            )
            .unwrap_err()
            .code,
            -32602
        );
        assert_eq!(
            s.answer(
                "eth_getTransactionReceipt",
                &json!([format!("{:#x}", B256::ZERO)])
            )
            .unwrap(),
            "null"
        );
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_params(
            method in proptest::sample::select(vec![
                "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockReceipts",
                "debug_traceBlockByNumber", "eth_getTransactionByHash", "eth_getBalance",
                "eth_call", "debug_traceTransaction",
            ]),
            a in "\\PC{0,70}",
            b in proptest::option::of("[0-9a-fx]{0,20}"),
        ) {
            let s = synth();
            let _ = s.answer(method, &json!([a, b]));
            let _ = s.answer(method, &json!([{"to": a, "data": b}, "latest"]));
        }
    }
}
