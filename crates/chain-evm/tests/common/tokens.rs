//! `ev_tokens` checked against a recording: which contracts are described, from which block,
//! and their ERC type, derived here from the recorded `eth_call` answers by the rules the EIPs
//! state (EIP-165 "How to Detect if a Contract Implements ERC-165" and "... any Given
//! Interface"; an ERC-20 is a `Transfer` emitter answering `decimals()` and `totalSupply()`).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use snowline_chain_evm::tables::EvTokens;
use snowline_store::{Direction, ReadView, Store};
use snowline_types::evm::{Address, U256, keccak256};
use snowline_types::rest::evm::ErcType;

use super::*;

/// EIP-165: `supportsInterface(bytes4)`'s id, which is its own selector.
const ERC165: &str = "01ffc9a7";
/// EIP-165: the id a compliant contract denies.
const INVALID: &str = "ffffffff";
/// EIP-721: "the ERC-165 identifier for this interface is 0x80ac58cd".
const ERC721: &str = "80ac58cd";
/// EIP-1155: "The ERC-165 identifier for this interface is 0xd9b67a26".
const ERC1155: &str = "d9b67a26";

/// The 4-byte selector of a function signature, as hex.
fn selector(signature: &str) -> String {
    keccak256(signature.as_bytes())[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The bytes a recorded `eth_call` of `data` on `to` at block `n` returned; `None` when the
/// node answered an error (reverted) or the call is not recorded.
fn call(lines: &[Value], to: Address, data: &str, n: u64) -> Option<Vec<u8>> {
    let params =
        json!([{"to": format!("{to:#x}"), "data": format!("0x{data}")}, format!("{n:#x}")]);
    recorded(lines, "eth_call", &params).map(bytes)
}

/// Whether the call of `data` on `to` at block `n` is recorded at all.
fn asked(lines: &[Value], to: Address, data: &str, n: u64) -> bool {
    let params =
        json!([{"to": format!("{to:#x}"), "data": format!("0x{data}")}, format!("{n:#x}")]);
    lines
        .iter()
        .any(|l| l["method"] == "eth_call" && l["params"] == params)
}

/// The recorded answer to `supportsInterface(id)`: a 32-byte word of 1 or 0, else no answer.
fn claim(lines: &[Value], to: Address, id: &str, n: u64) -> Option<bool> {
    let data = format!(
        "{}{id}{}",
        selector("supportsInterface(bytes4)"),
        "0".repeat(56)
    );
    let ret = call(lines, to, &data, n)?;
    let w = (ret.len() >= 32).then(|| U256::from_be_slice(&ret[..32]))?;
    (w <= U256::from(1)).then(|| w == U256::from(1))
}

/// An ABI `string` answer (offset word, length word, bytes), decoded by hand.
fn text(ret: &[u8]) -> Option<String> {
    let word = |i: usize| ret.get(i..i + 32).map(U256::from_be_slice);
    let at = usize::try_from(word(0)?).ok()?;
    let len = usize::try_from(word(at)?).ok()?;
    let body = ret.get(at + 32..at + 32 + len)?;
    Some(String::from_utf8_lossy(body).into_owned())
}

/// What the test expects of one contract's row.
#[derive(Debug, Default)]
struct Want {
    first_block: u64,
    named: bool,
    name: Option<String>,
    symbol: Option<String>,
    erc20_transfer: bool,
    decimals: Option<u8>,
    total_supply: bool,
    claims: [Option<bool>; 4],
}

impl Want {
    /// The ERC type by the EIPs' rules: ERC-165 detected (claims 0x01ffc9a7, denies
    /// 0xffffffff) then the interface claimed; else an ERC-20 `Transfer` emitter answering
    /// `decimals()` and `totalSupply()`.
    fn erc_type(&self) -> ErcType {
        let [erc165, invalid, erc721, erc1155] = self.claims;
        let implements_165 = erc165 == Some(true) && invalid == Some(false);
        if implements_165 && erc721 == Some(true) {
            ErcType::Erc721
        } else if implements_165 && erc1155 == Some(true) {
            ErcType::Erc1155
        } else if self.erc20_transfer && self.decimals.is_some() && self.total_supply {
            ErcType::Erc20
        } else {
            ErcType::Unknown
        }
    }
}

/// Checks `ev_tokens` of `chain` against the recording: every contract created (`created`:
/// contract → its block) or emitting a token event has a row from the block it was first seen,
/// with the names and ERC type the recorded answers give.
pub fn check_tokens(
    store: &Store,
    chain: u64,
    lines: &[Value],
    recs: &[RecBlock],
    created: &BTreeMap<Address, u64>,
) {
    let mut want: BTreeMap<Address, Want> = BTreeMap::new();
    for b in recs {
        let n = b.number;
        // Each emitter's first transfer-shaped log of the block gives its kind.
        let mut first_kind: BTreeMap<Address, u16> = BTreeMap::new();
        for r in b.receipts.as_array().into_iter().flatten() {
            for log in r["logs"].as_array().into_iter().flatten() {
                if let Some(x) = log_transfers(log).first() {
                    first_kind.entry(addr(&log["address"])).or_insert(x.0);
                }
            }
        }
        let seen = created
            .iter()
            .filter(|(_, at)| **at == n)
            .map(|(a, _)| *a)
            .chain(first_kind.keys().copied());
        for a in seen {
            want.entry(a).or_insert_with(|| Want {
                first_block: n,
                claims: [ERC165, INVALID, ERC721, ERC1155].map(|id| claim(lines, a, id, n)),
                ..Want::default()
            });
        }
        for (a, kind) in first_kind {
            let w = want.get_mut(&a).unwrap();
            if kind == 1155 || w.named {
                continue;
            }
            w.named = true;
            w.name = call(lines, a, &selector("name()"), n).and_then(|r| text(&r));
            w.symbol = call(lines, a, &selector("symbol()"), n).and_then(|r| text(&r));
            if kind == 20 {
                w.erc20_transfer = true;
                for f in ["decimals()", "totalSupply()"] {
                    assert!(asked(lines, a, &selector(f), n), "{f} of {a} recorded");
                }
                w.decimals = call(lines, a, &selector("decimals()"), n)
                    .filter(|r| r.len() >= 32)
                    .and_then(|r| u8::try_from(U256::from_be_slice(&r[..32])).ok());
                w.total_supply =
                    call(lines, a, &selector("totalSupply()"), n).is_some_and(|r| r.len() >= 32);
            }
        }
    }

    let got: BTreeMap<Address, _> = store
        .prefix_scan::<EvTokens, u64>(&chain, None, Direction::Forward)
        .unwrap()
        .map(|e| {
            let ((_, a), row) = e.unwrap();
            (Address::from(a), row.0)
        })
        .collect();
    assert_eq!(set(got.keys().copied()), set(want.keys().copied()));
    for (a, w) in &want {
        let row = &got[a];
        assert_eq!(row.first_block, w.first_block, "{a}");
        assert_eq!(row.named, w.named, "{a}");
        assert_eq!(row.name, w.name, "{a}");
        assert_eq!(row.symbol, w.symbol, "{a}");
        assert_eq!(row.probes.decimals(), w.decimals, "{a}");
        assert_eq!(row.erc_type(), w.erc_type(), "{a}: {w:?}");
    }

    // The recording holds the cases the rules are about.
    let types: Vec<ErcType> = want.values().map(Want::erc_type).collect();
    for t in [
        ErcType::Erc20,
        ErcType::Erc721,
        ErcType::Erc1155,
        ErcType::Unknown,
    ] {
        assert!(types.contains(&t), "a contract of type {t:?}");
    }
    assert!(
        want.values().any(|w| w.claims == [Some(true); 4]),
        "a contract claiming every interface, 0xffffffff included (not ERC-165)"
    );
    assert!(
        want.values()
            .any(|w| w.erc20_transfer && w.decimals.is_some() && !w.total_supply),
        "an ERC-20 Transfer emitter answering decimals() but not totalSupply()"
    );
}
