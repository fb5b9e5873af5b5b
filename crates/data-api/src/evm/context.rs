//! What every EVM endpoint shares: the pages, the chain registry, prices, the page-token codec,
//! and the resolution of `{chainId}` and `{address}`.

use std::sync::Arc;

use snowline_chain_evm::pages::{EvmPages, PageError};
use snowline_chain_registry::ChainRegistry;
use snowline_query::params::{BlockRange, Currency, evm_address, page_size};
use snowline_query::{Digest, FilterDigest, PageTokens};
use snowline_rest::{ApiError, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::rest::evm::checksummed;
use snowline_types::rest::{ChainRecord, Money};

use super::prices::PriceSource;
use crate::chains::lookup_error;
use crate::params::{bad, invalid_token, page_token};

/// Shared state of the EVM endpoints.
pub struct EvmApi {
    pub(crate) pages: Arc<EvmPages>,
    registry: ChainRegistry,
    prices: Arc<dyn PriceSource>,
    pub(crate) tokens: PageTokens,
}

/// The chain a request names.
pub(crate) struct EvmChain<'a> {
    /// Its EVM chain id.
    pub(crate) id: u64,
    /// Its registry record.
    pub(crate) record: &'a ChainRecord,
}

impl EvmApi {
    /// The endpoints' state for the chains of `registry`, read through `pages`.
    pub fn new(
        pages: Arc<EvmPages>,
        registry: ChainRegistry,
        prices: Arc<dyn PriceSource>,
        tokens: PageTokens,
    ) -> Self {
        Self {
            pages,
            registry,
            prices,
            tokens,
        }
    }

    /// Resolves `{chainId}`: malformed is a 400, a chain not listed a 404.
    pub(crate) fn chain(&self, req: &Request) -> Result<EvmChain<'_>, ApiError> {
        let raw = req.required_param("chainId")?;
        let record = self.registry.lookup(raw).map_err(lookup_error)?;
        let id = record
            .chain_id
            .parse()
            .map_err(|_| ApiError::internal(format!("registry chainId {:?}", record.chain_id)))?;
        Ok(EvmChain { id, record })
    }

    /// The price of one whole native token (`token` `None`) or ERC-20 `token`, when the price
    /// source knows it.
    pub(crate) fn price(
        &self,
        chain: u64,
        token: Option<Address>,
        currency: Currency,
        at: Option<u64>,
    ) -> Option<Money> {
        self.prices
            .price(chain, token, currency, at)
            .map(|value| money(currency, value))
    }
}

/// A value in `currency`.
pub(crate) fn money(currency: Currency, value: f64) -> Money {
    Money {
        currency_code: currency.as_str().to_owned(),
        value,
    }
}

/// What `amount` smallest units of a token with `decimals` are worth at `price`.
pub(crate) fn value_of(amount: U256, decimals: u8, price: &Money) -> Money {
    let whole =
        amount.to_string().parse::<f64>().unwrap_or(f64::MAX) / 10f64.powi(i32::from(decimals));
    Money {
        currency_code: price.currency_code.clone(),
        value: whole * price.value,
    }
}

/// The `{address}` path value.
pub(crate) fn path_address(req: &Request) -> Result<Address, ApiError> {
    evm_address("address", req.required_param("address")?)
        .map(Address::from)
        .map_err(bad)
}

/// What a block-range listing of one address asks (token transfers, internal transactions):
/// the chain, the address, `[startBlock, endBlock)`, the page size (1..100) and the position
/// its page token carries, checked against the query's digest.
pub(crate) struct RangeListing<'a> {
    pub(crate) chain: EvmChain<'a>,
    pub(crate) address: Address,
    pub(crate) range: BlockRange,
    pub(crate) size: u32,
    pub(crate) digest: Digest,
    pub(crate) from: Option<Vec<u8>>,
}

impl EvmApi {
    /// Parses a block-range listing named `listing` (its page tokens open no other listing).
    pub(crate) fn range_listing(
        &self,
        req: &Request,
        listing: &str,
    ) -> Result<RangeListing<'_>, ApiError> {
        let chain = self.chain(req)?;
        let address = path_address(req)?;
        let range =
            BlockRange::parse(req.query("startBlock"), req.query("endBlock")).map_err(bad)?;
        let size = page_size(req.query("pageSize"), 100).map_err(bad)?;
        let digest = FilterDigest::new(listing)
            .field("chainId", &chain.id.to_string())
            .field("address", &checksummed(&address))
            .optional("startBlock", range.start.map(|b| b.to_string()).as_deref())
            .optional("endBlock", range.end.map(|b| b.to_string()).as_deref())
            .finish();
        let from = page_token(&self.tokens, req, &digest)?;
        Ok(RangeListing {
            chain,
            address,
            range,
            size,
            digest,
            from,
        })
    }
}

/// The optional `currency` (default `usd`).
pub(crate) fn currency(req: &Request) -> Result<Currency, ApiError> {
    Currency::parse_or(req.query("currency"), Currency::Usd).map_err(bad)
}

/// A page that could not be read: a chain not indexed or data not known is a 404 saying which,
/// a position that does not fit the listing the same 400 as any invalid token, a block past the
/// indexed tip a 400, a read failure ours (500).
pub(crate) fn page_error(e: PageError) -> ApiError {
    match e {
        PageError::NotIndexed(_) | PageError::Untraced(_) => ApiError::not_found(e.to_string()),
        PageError::BadPosition => invalid_token(),
        PageError::BeyondTip { .. } => ApiError::bad_request(e.to_string()),
        PageError::Read(e) => ApiError::internal(format!("reading the EVM index failed: {e}")),
    }
}
