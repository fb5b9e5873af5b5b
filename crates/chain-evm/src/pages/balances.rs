//! Native balances as of a block.

use snowline_store::{Direction, ReadView};
use snowline_types::evm::{Address, U256};

use super::{EvmPages, EvmReadError, last_block};
use crate::tables::{EvGenesis, EvNative};

/// An address's native balance at a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NativeBalance {
    /// The block the balance is as of (the one asked, or the last indexed).
    pub block: u64,
    /// Wei.
    pub balance: U256,
}

impl EvmPages {
    /// The native balance of `address` on `chain` after block `at` (the last indexed block when
    /// `None`): the node's `eth_getBalance` at the last indexed block at or before it that
    /// touched the address; zero when none did and the chain's genesis is known. A block past the last indexed one is
    /// [`EvmReadError::BeyondTip`].
    pub fn native_balance(
        &self,
        chain: u64,
        address: Address,
        at: Option<u64>,
    ) -> Result<NativeBalance, EvmReadError> {
        let (snapshot, cursor) = self.open(chain)?;
        let last = last_block(&cursor).ok_or(EvmReadError::NotIndexed(chain))?;
        let block = at.unwrap_or(last);
        if block > last {
            return Err(EvmReadError::BeyondTip { asked: block, last });
        }
        Ok(NativeBalance {
            block,
            balance: balance_at(&snapshot, chain, address, block)?,
        })
    }
}

/// The last balance row of `address` at or before `block`; zero when there is none and the
/// chain's genesis allocation is known (the address was not funded), else
/// [`EvmReadError::GenesisUnknown`].
pub(crate) fn balance_at(
    view: &impl ReadView,
    chain: u64,
    address: Address,
    block: u64,
) -> Result<U256, EvmReadError> {
    let a = address.0.0;
    let row = view
        .scan::<EvNative, _>((chain, a, 0)..=(chain, a, block), Direction::Reverse)?
        .next()
        .transpose()?;
    match row {
        Some((_, w)) => Ok(U256::from_be_bytes(w)),
        None if view.get::<EvGenesis>(&chain)?.is_some() => Ok(U256::ZERO),
        None => Err(EvmReadError::GenesisUnknown { chain, address }),
    }
}
