//! What every EVM endpoint shares: the pages, the chain registry, prices, the page-token codec,
//! and the resolution of `{chainId}` and `{address}`.

use std::collections::BTreeMap;
use std::sync::Arc;

use snowline_chain_evm::metadata::MetadataQueue;
use snowline_chain_evm::pages::{EvmPages, EvmReadError};
use snowline_chain_icm::IcmPages;
use snowline_chain_registry::ChainRegistry;
use snowline_query::params::{BlockRange, Currency, evm_address, page_size};
use snowline_query::{Digest, FilterDigest, SealedPageTokens};
use snowline_rest_api::{ApiError, Profile, Request};
use snowline_types::evm::{Address, U256};
use snowline_types::network::NetworkInfo;
use snowline_types::rest::evm::checksummed;
use snowline_types::rest::evm_balances::TokenReputation;
use snowline_types::rest::{ChainRecord, Money, MoneyValue};

use super::prices::PriceSource;
use crate::chains::lookup_error;
use crate::params::{bad, invalid_token, page_token};

/// Shared state of the EVM endpoints.
pub struct EvmApi {
    pub(crate) pages: Arc<EvmPages>,
    registry: ChainRegistry,
    prices: Arc<dyn PriceSource>,
    pub(crate) tokens: SealedPageTokens,
    /// The ICM messages, for a deployment's `teleporterMessageInfo`.
    pub(crate) icm: Option<IcmPages>,
    /// The operator's token reputation list, by chain.
    reputations: TokenReputations,
    /// The NFT metadata queue `reindexNft` adds to.
    pub(crate) metadata: Arc<MetadataQueue>,
}

/// An operator's token reputation list: per EVM chain id, the tokens it rates.
pub type TokenReputations = BTreeMap<u64, BTreeMap<Address, TokenReputation>>;

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
        tokens: SealedPageTokens,
        icm: Option<IcmPages>,
        reputations: TokenReputations,
        metadata: Arc<MetadataQueue>,
    ) -> Self {
        Self {
            pages,
            registry,
            prices,
            tokens,
            icm,
            reputations,
            metadata,
        }
    }

    /// What the operator's list says of `token` on `chain` (`None`: not rated).
    pub(crate) fn reputation(&self, chain: u64, token: &Address) -> Option<TokenReputation> {
        self.reputations.get(&chain)?.get(token).copied()
    }

    /// The tokens of `chain` the operator's list flags as malicious, sorted.
    pub(crate) fn flagged(&self, chain: u64) -> Vec<Address> {
        self.reputations
            .get(&chain)
            .into_iter()
            .flatten()
            .filter(|(_, r)| **r == TokenReputation::Malicious)
            .map(|(a, _)| *a)
            .collect()
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

    /// The EVM chain ids of the registry's chains (of `network`, when given), in its order.
    pub(crate) fn chain_ids(&self, network: Option<&'static NetworkInfo>) -> Vec<u64> {
        self.registry
            .list(network, None)
            .filter_map(|r| r.chain_id.parse().ok())
            .collect()
    }

    /// The registry's record of EVM chain `chain`.
    pub(crate) fn record(&self, chain: u64) -> Option<&ChainRecord> {
        self.registry.lookup(&chain.to_string()).ok()
    }

    /// The price of one whole native token (`token` `None`) or ERC-20 `token`, when the price
    /// source knows it, in the shape of `profile` ([`money`]).
    pub(crate) fn price(
        &self,
        chain: u64,
        token: Option<Address>,
        currency: Currency,
        at: Option<u64>,
        profile: Profile,
    ) -> Option<Money> {
        self.prices
            .price(chain, token, currency, at)
            .map(|value| money(currency, value, profile))
    }
}

/// A value in `currency`: under the `spec` profile `value` is a decimal string (the spec's
/// `Price`), under `glacier` a JSON number (the OpenAPI's `Money`, which the official SDK
/// requires).
pub(crate) fn money(currency: Currency, value: f64, profile: Profile) -> Money {
    Money {
        currency_code: currency.as_str().to_owned(),
        value: match profile {
            Profile::Spec => MoneyValue::decimal(value),
            Profile::Glacier => MoneyValue::Number(value),
        },
    }
}

/// What `amount` smallest units of a token with `decimals` are worth at `price`, in the shape
/// of `price`.
pub(crate) fn value_of(amount: U256, decimals: u8, price: &Money) -> Money {
    let whole =
        amount.to_string().parse::<f64>().unwrap_or(f64::MAX) / 10f64.powi(i32::from(decimals));
    let value = whole * price.value.as_f64();
    Money {
        currency_code: price.currency_code.clone(),
        value: match price.value {
            MoneyValue::Number(_) => MoneyValue::Number(value),
            MoneyValue::Decimal(_) => MoneyValue::decimal(value),
        },
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
        self.range_listing_with(req, listing, &[])
    }

    /// [`EvmApi::range_listing`] with more filters (name, canonical value) in its digest.
    pub(crate) fn range_listing_with(
        &self,
        req: &Request,
        listing: &str,
        extra: &[(&str, &str)],
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
            .optional("endBlock", range.end.map(|b| b.to_string()).as_deref());
        let digest = extra
            .iter()
            .fold(digest, |d, (name, value)| d.field(name, value))
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
pub(crate) fn page_error(e: EvmReadError) -> ApiError {
    match e {
        EvmReadError::NotIndexed(_)
        | EvmReadError::Untraced(_)
        | EvmReadError::GenesisUnknown { .. }
        | EvmReadError::PartialHistory { .. } => ApiError::not_found(e.to_string()),
        EvmReadError::BadPosition => invalid_token(),
        EvmReadError::BeyondTip { .. } => ApiError::bad_request(e.to_string()),
        EvmReadError::Read(e) => ApiError::internal(format!("reading the EVM index failed: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prices_take_the_shape_of_the_profile() {
        // Regression: a price was a JSON number under every profile. The spec's `Price.value`
        // is a decimal string (the `spec` profile); the OpenAPI schema `Money` (`value: number`),
        // which the official SDK enforces, is the `glacier` profile's.
        let spec = money(Currency::Usd, 12.5, Profile::Spec);
        let glacier = money(Currency::Eur, 12.5, Profile::Glacier);
        let to = |m: &Money| serde_json::to_value(m).ok();
        assert_eq!(
            to(&spec),
            Some(json!({"currencyCode": "usd", "value": "12.5"}))
        );
        assert_eq!(
            to(&glacier),
            Some(json!({"currencyCode": "eur", "value": 12.5}))
        );
        // A holding's value follows its price's shape: 2.5 tokens of 18 decimals at 12.5.
        let amount = U256::from(2_500_000_000_000_000_000u128);
        assert_eq!(
            to(&value_of(amount, 18, &spec)),
            Some(json!({"currencyCode": "usd", "value": "31.25"}))
        );
        assert_eq!(
            to(&value_of(amount, 18, &glacier)),
            Some(json!({"currencyCode": "eur", "value": 31.25}))
        );
        // No exponent in a decimal, however small or large.
        let tiny = money(Currency::Usd, 1e-7, Profile::Spec);
        assert_eq!(tiny.value, MoneyValue::Decimal("0.0000001".to_owned()));
        let huge = money(Currency::Usd, 1e21, Profile::Spec);
        assert_eq!(
            huge.value,
            MoneyValue::Decimal("1000000000000000000000".to_owned())
        );
    }
}
