//! The contracts an address deployed, newest first, and how one contract was deployed.

use snowline_query::params::BlockRange;
use snowline_query::{encode_position, take_page};
use snowline_store::{Linear, ReadView as _};
use snowline_types::evm::Address;

use super::scan::newest_first;
use super::txs::tx_detail;
use super::{EvmPages, EvmReadError, TxDetail};
use crate::error::EvmError;
use crate::rows::{ContractRow, TokenRow};
use crate::tables::{EvContracts, EvContractsByDeployer};

/// A deployed contract.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deployed {
    /// Its address.
    pub address: Address,
    /// How it was created.
    pub row: ContractRow,
    /// What it told of itself, when it was asked.
    pub token: Option<TokenRow>,
}

/// One page of deployed contracts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractPage {
    /// Newest first.
    pub contracts: Vec<Deployed>,
    /// Where the next page starts, when more may follow.
    pub next: Option<Vec<u8>>,
}

impl EvmPages {
    /// One page of the contracts `deployer` created on `chain` (as the sender of the creating
    /// tx, or as the factory that ran the `CREATE`), newest first, resuming strictly past
    /// `from`.
    pub fn deployments(
        &self,
        chain: u64,
        deployer: Address,
        page_size: u32,
        from: Option<&[u8]>,
    ) -> Result<ContractPage, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let entries = newest_first::<EvContractsByDeployer, u32, u32>(
            &snapshot,
            chain,
            deployer.0.0,
            BlockRange::default(),
            from,
            (page_size as usize).saturating_add(1),
        )?;
        let page = take_page(entries, page_size, |((_, _, b, t, f), _)| {
            encode_position(&(*b, *t, *f))
        });
        let addresses: Vec<Address> = page.items.iter().map(|(_, c)| Address::from(*c)).collect();
        let keys: Vec<(u64, [u8; 20])> = page.items.iter().map(|(_, c)| (chain, *c)).collect();
        let rows = snapshot.multi_get::<EvContracts>(&keys)?;
        let tokens = self.token_rows(&snapshot, chain, addresses.iter().copied())?;
        let contracts = addresses
            .into_iter()
            .zip(rows)
            .map(|(address, row)| {
                let Linear(row) = row.ok_or_else(|| missing(address))?;
                Ok(Deployed {
                    address,
                    row,
                    token: tokens.get(&address).cloned(),
                })
            })
            .collect::<Result<_, EvmReadError>>()?;
        Ok(ContractPage {
            contracts,
            next: page.next,
        })
    }

    /// The contract at `address` on `chain` and the tx that deployed it, if indexed.
    pub fn deployment(
        &self,
        chain: u64,
        address: Address,
    ) -> Result<Option<(Deployed, TxDetail)>, EvmReadError> {
        let (snapshot, _) = self.open(chain)?;
        let Some(Linear(row)) = snapshot.get::<EvContracts>(&(chain, address.0.0))? else {
            return Ok(None);
        };
        let detail = tx_detail(&snapshot, self.tokens.as_deref(), chain, row.tx_hash)?.ok_or_else(|| {
            EvmReadError::Read(EvmError::Corrupt(format!(
                "the index names tx {} as contract {address}'s deployment, but does not hold it",
                row.tx_hash
            )))
        })?;
        let token = self
            .token_rows(&snapshot, chain, [address])?
            .remove(&address);
        Ok(Some((
            Deployed {
                address,
                row,
                token,
            },
            detail,
        )))
    }
}

fn missing(address: Address) -> EvmReadError {
    EvmReadError::Read(EvmError::Corrupt(format!(
        "an index names contract {address}, which is not stored"
    )))
}
