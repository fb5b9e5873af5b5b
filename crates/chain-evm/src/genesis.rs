//! A chain's genesis allocation: the accounts its genesis funds, which no block names. Read from
//! the genesis document (an operator's file, or the genesis bytes of the chain's `CreateChainTx`
//! on the P-Chain, which for an EVM chain are coreth's / subnet-evm's genesis JSON), or given as
//! a list of accounts whose balances the node is asked at block 0. When none is known the index
//! says so: a balance before the index saw an address is then unknown, never a made-up zero.

use std::sync::Arc;

use serde::Deserialize;
use snowline_types::evm::{Address, U256};

use crate::enrich::genesis_balances;
use crate::error::EvmError;
use crate::source::EvmSource;

/// Where a chain's genesis allocation came from (the stable one-byte code `ev_genesis` keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GenesisOrigin {
    /// The operator's genesis file (`genesisFile`).
    File,
    /// The genesis bytes of the chain's `CreateChainTx`, from the P-Chain index.
    PChain,
    /// The operator's list of funded accounts (`genesisAccounts`), read from the node at block 0.
    Accounts,
}

impl GenesisOrigin {
    /// The stable code (never renumber).
    pub const fn code(self) -> u8 {
        match self {
            Self::File => 1,
            Self::PChain => 2,
            Self::Accounts => 3,
        }
    }
}

/// Finds a chain's genesis document when its block 0 is derived (the P-Chain index may hold it
/// by then): `None` when it does not.
pub type GenesisLookup = Arc<dyn Fn() -> Option<Vec<u8>> + Send + Sync>;

/// What is known of a chain's genesis allocation.
#[derive(Clone, Default)]
pub enum Genesis {
    /// The funded accounts with their balances.
    Alloc(GenesisOrigin, Vec<(Address, U256)>),
    /// The funded accounts, their balances to be read from the node at block 0.
    Accounts(Vec<Address>),
    /// The genesis document, looked up when block 0 is derived.
    Lookup(GenesisLookup),
    /// Not known.
    #[default]
    Unknown,
}

impl std::fmt::Debug for Genesis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Alloc(o, a) => write!(f, "Alloc({o:?}, {} accounts)", a.len()),
            Self::Accounts(a) => write!(f, "Accounts({})", a.len()),
            Self::Lookup(_) => f.write_str("Lookup"),
            Self::Unknown => f.write_str("Unknown"),
        }
    }
}

impl Genesis {
    /// The funded accounts and their balances, and where they came from: `None` when the
    /// allocation is not known (a lookup that finds no document, or one that does not parse,
    /// is logged and not known). An account list is read from `source` at block 0.
    pub(crate) async fn balances(
        &self,
        source: &Arc<EvmSource>,
        chain: u64,
    ) -> Result<Option<(GenesisOrigin, Vec<(Address, U256)>)>, EvmError> {
        Ok(match self {
            Self::Alloc(origin, accounts) => Some((*origin, accounts.clone())),
            Self::Accounts(accounts) => Some((
                GenesisOrigin::Accounts,
                genesis_balances(source, accounts).await?,
            )),
            Self::Lookup(find) => match find().map(|doc| parse_alloc(&doc)) {
                Some(Ok(accounts)) => Some((GenesisOrigin::PChain, accounts)),
                Some(Err(e)) => {
                    tracing::warn!(chain, error = %e, "the chain's genesis on the P-Chain does not parse: its genesis balances are not known");
                    None
                }
                None => {
                    tracing::warn!(
                        chain,
                        "the P-Chain index holds no genesis of the chain: its genesis balances are not known"
                    );
                    None
                }
            },
            Self::Unknown => None,
        })
    }
}

#[derive(Deserialize)]
struct Document {
    #[serde(default)]
    alloc: std::collections::BTreeMap<String, Account>,
}

#[derive(Deserialize)]
struct Account {
    #[serde(default)]
    balance: Option<String>,
}

/// The funded accounts of a coreth / subnet-evm genesis document (its `alloc`: addresses with
/// or without `0x`, balances as `0x` hex or decimal strings; an entry without a balance holds
/// zero), sorted by address.
pub fn parse_alloc(document: &[u8]) -> Result<Vec<(Address, U256)>, String> {
    let doc: Document = serde_json::from_slice(document)
        .map_err(|e| format!("not a genesis document with an alloc: {e}"))?;
    let mut out = doc
        .alloc
        .into_iter()
        .map(|(key, account)| {
            let hex = key.strip_prefix("0x").unwrap_or(&key);
            let address: Address = format!("0x{hex}")
                .parse()
                .map_err(|_| format!("alloc key {key:?} is not an address"))?;
            let balance = match account.balance.as_deref() {
                None => U256::ZERO,
                Some(b) => parse_amount(b)
                    .ok_or_else(|| format!("alloc {key}: balance {b:?} is not an amount"))?,
            };
            Ok((address, balance))
        })
        .collect::<Result<Vec<_>, String>>()?;
    out.sort_unstable();
    Ok(out)
}

/// A `0x` hex or decimal amount.
fn parse_amount(s: &str) -> Option<U256> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => U256::from_str_radix(hex, 16).ok(),
        None => U256::from_str_radix(s, 10).ok(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// avalanchego `genesis/genesis_local.json`, `cChainGenesis`: the local C-Chain funds the
    /// EWOQ key's address with 0x295BE96E64066972000000 wei (50 M AVAX).
    const LOCAL_C_CHAIN: &str = r#"{"config":{"chainId":43112,"homesteadBlock":0,"daoForkBlock":0,"daoForkSupport":true,"eip150Block":0,"eip150Hash":"0x2086799aeebeae135c246c65021c82b4e15a2c451340993aacfd2751886514f0","eip155Block":0,"eip158Block":0,"byzantiumBlock":0,"constantinopleBlock":0,"petersburgBlock":0,"istanbulBlock":0,"muirGlacierBlock":0,"apricotPhase1BlockTimestamp":0,"apricotPhase2BlockTimestamp":0},"nonce":"0x0","timestamp":"0x5FCB13D0","extraData":"0x00","gasLimit":"0x5f5e100","difficulty":"0x0","mixHash":"0x0000000000000000000000000000000000000000000000000000000000000000","coinbase":"0x0000000000000000000000000000000000000000","alloc":{"8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"0x295BE96E64066972000000"}},"number":"0x0","gasUsed":"0x0","parentHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}"#;

    #[test]
    fn the_local_c_chain_genesis_funds_ewoq() {
        let alloc = parse_alloc(LOCAL_C_CHAIN.as_bytes()).unwrap();
        let ewoq: Address = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"
            .parse()
            .unwrap();
        let fifty_million_avax = U256::from(50_000_000u64) * U256::from(10u64).pow(U256::from(18));
        assert_eq!(alloc, vec![(ewoq, fifty_million_avax)]);
    }

    /// subnet-evm's `README` genesis form: `0x`-prefixed keys, decimal balances, contracts with
    /// code and no balance.
    #[test]
    fn subnet_evm_forms_and_bad_documents() {
        let doc = br#"{"config":{"chainId":99999},"alloc":{
            "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"1000000000000000000"},
            "0x0100000000000000000000000000000000000000":{"code":"0x60","storage":{}}}}"#;
        let alloc = parse_alloc(doc).unwrap();
        assert_eq!(alloc.len(), 2);
        assert_eq!(alloc[0].1, U256::ZERO);
        assert_eq!(alloc[1].1, U256::from(10u64).pow(U256::from(18)));
        assert!(parse_alloc(br#"{"alloc":{"0x12":{"balance":"1"}}}"#).is_err());
        assert!(
            parse_alloc(
                br#"{"alloc":{"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC":{"balance":"-1"}}}"#
            )
            .is_err()
        );
        assert!(parse_alloc(b"not json").is_err());
        assert_eq!(parse_alloc(b"{}").unwrap(), vec![]);
    }
}
