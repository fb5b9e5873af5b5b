//! Prices: a pluggable source of what a token is worth. None is built in (the service runs
//! offline); without a source every price field is omitted, never invented.

use snowline_query::params::Currency;
use snowline_types::evm::Address;

/// Where prices come from.
pub trait PriceSource: Send + Sync {
    /// The price of one whole unit of chain `chain`'s native token (`token` `None`) or of the
    /// ERC-20 `token`, in `currency`, now (`at` `None`) or at Unix second `at`.
    fn price(
        &self,
        chain: u64,
        token: Option<Address>,
        currency: Currency,
        at: Option<u64>,
    ) -> Option<f64>;
}

/// No prices: every price field is omitted.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPrices;

impl PriceSource for NoPrices {
    fn price(&self, _: u64, _: Option<Address>, _: Currency, _: Option<u64>) -> Option<f64> {
        None
    }
}
