//! The values of the metrics tables: a bucket's sums, maxima and distinct counts, the running
//! totals since the first block, the deriver's cursor, a page token's query and position. Each
//! is stored in the linear codec (`store::Linear`), fields in declaration order.

use snowline_store::row::{get_opt, get_string, put_opt};
use snowline_types::codec::{CodecError, Decode, Encode, Reader, Writer};

fn put_u128(w: &mut Writer, v: u128) {
    w.raw(&v.to_be_bytes());
}

fn get_u128(r: &mut Reader<'_>) -> Result<u128, CodecError> {
    r.array::<16>().map(u128::from_be_bytes)
}

/// An amount per some seconds, kept exact (a maximum compares by cross-multiplication).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rate {
    /// Txs or gas.
    pub amount: u64,
    /// Seconds (at least 1 once set).
    pub seconds: u64,
}

impl Rate {
    /// Whether `self` is a higher rate than `other` (an unset rate is the lowest).
    pub fn exceeds(&self, other: &Rate) -> bool {
        if other.seconds == 0 {
            return self.seconds != 0;
        }
        u128::from(self.amount) * u128::from(other.seconds)
            > u128::from(other.amount) * u128::from(self.seconds)
    }

    /// Per second (0 when unset).
    pub fn per_second(&self) -> f64 {
        if self.seconds == 0 {
            0.0
        } else {
            self.amount as f64 / self.seconds as f64
        }
    }
}

/// Counts since the first block the metrics cover.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Transactions.
    pub txs: u64,
    /// Distinct addresses active (tx or transfer `from` / `to`).
    pub addresses: u64,
    /// Contracts created.
    pub contracts: u64,
    /// Distinct deployers.
    pub deployers: u64,
}

impl Encode for Totals {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.txs);
        w.u64(self.addresses);
        w.u64(self.contracts);
        w.u64(self.deployers);
    }
}

impl Decode for Totals {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            txs: r.u64()?,
            addresses: r.u64()?,
            contracts: r.u64()?,
            deployers: r.u64()?,
        })
    }
}

/// One bucket (an hour, day, week or month) of one chain: what its blocks add up to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Bucket {
    /// Blocks in the bucket.
    pub blocks: u64,
    /// Transactions.
    pub txs: u64,
    /// Σ the blocks' `gasUsed`.
    pub gas_used: u64,
    /// Σ gasUsed × effectiveGasPrice over the txs, wei.
    pub fees: u128,
    /// Σ effectiveGasPrice over the txs, wei.
    pub gas_price_sum: u128,
    /// The highest effectiveGasPrice, wei.
    pub gas_price_max: u128,
    /// The highest txs per second of one block (txs over the seconds since its parent).
    pub max_tps: Rate,
    /// The highest gas per second of one block.
    pub max_gps: Rate,
    /// When the block before the bucket's first block was made (the first block's own time when
    /// the metrics hold none before it): where the bucket's averages start counting.
    pub span_from: u64,
    /// When the bucket's last block was made.
    pub last_time: u64,
    /// Distinct addresses active in the bucket.
    pub active_addresses: u64,
    /// Distinct senders.
    pub active_senders: u64,
    /// Contracts created.
    pub contracts: u64,
    /// Distinct deployers.
    pub deployers: u64,
    /// The running totals after the bucket's last block.
    pub totals: Totals,
}

impl Bucket {
    /// The seconds the bucket's averages divide by: from the block before it to its last block
    /// (at least 1).
    pub fn span(&self) -> u64 {
        self.last_time.saturating_sub(self.span_from).max(1)
    }
}

impl Encode for Bucket {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.blocks);
        w.u64(self.txs);
        w.u64(self.gas_used);
        put_u128(w, self.fees);
        put_u128(w, self.gas_price_sum);
        put_u128(w, self.gas_price_max);
        for rate in [self.max_tps, self.max_gps] {
            w.u64(rate.amount);
            w.u64(rate.seconds);
        }
        w.u64(self.span_from);
        w.u64(self.last_time);
        w.u64(self.active_addresses);
        w.u64(self.active_senders);
        w.u64(self.contracts);
        w.u64(self.deployers);
        self.totals.encode(w);
    }
}

impl Decode for Bucket {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let rate = |r: &mut Reader<'_>| -> Result<Rate, CodecError> {
            Ok(Rate {
                amount: r.u64()?,
                seconds: r.u64()?,
            })
        };
        Ok(Self {
            blocks: r.u64()?,
            txs: r.u64()?,
            gas_used: r.u64()?,
            fees: get_u128(r)?,
            gas_price_sum: get_u128(r)?,
            gas_price_max: get_u128(r)?,
            max_tps: rate(r)?,
            max_gps: rate(r)?,
            span_from: r.u64()?,
            last_time: r.u64()?,
            active_addresses: r.u64()?,
            active_senders: r.u64()?,
            contracts: r.u64()?,
            deployers: r.u64()?,
            totals: Totals::decode(r)?,
        })
    }
}

/// When an address was last seen in each role (Unix seconds; `None`: never).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LastSeen {
    /// As a `from` or `to`.
    pub active: Option<u64>,
    /// As a `from`.
    pub sender: Option<u64>,
    /// As a deployer.
    pub deployer: Option<u64>,
}

impl Encode for LastSeen {
    fn encode(&self, w: &mut Writer) {
        for t in [self.active, self.sender, self.deployer] {
            put_opt(w, &t, |w, t| w.u64(*t));
        }
    }
}

impl Decode for LastSeen {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        let time = |r: &mut Reader<'_>| get_opt(r, |r| r.u64());
        Ok(Self {
            active: time(r)?,
            sender: time(r)?,
            deployer: time(r)?,
        })
    }
}

/// Where the metrics of one chain stand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetricsCursor {
    /// The first block the metrics cover.
    pub first: u64,
    /// The next block to derive.
    pub next: u64,
    /// When the last block was made.
    pub last_time: u64,
    /// The running totals after the last block.
    pub totals: Totals,
}

impl Encode for MetricsCursor {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.first);
        w.u64(self.next);
        w.u64(self.last_time);
        self.totals.encode(w);
    }
}

impl Decode for MetricsCursor {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            first: r.u64()?,
            next: r.u64()?,
            last_time: r.u64()?,
            totals: Totals::decode(r)?,
        })
    }
}

/// What a page token stands for: the query it pages (a string the API defines) and where the
/// next page starts, until it expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    /// Unix second after which the token is refused as expired.
    pub expires: u64,
    /// The query, as the API spells it.
    pub query: String,
    /// The position of the next page, as the API reads it.
    pub position: u64,
}

impl Encode for TokenRow {
    fn encode(&self, w: &mut Writer) {
        w.u64(self.expires);
        w.str(&self.query);
        w.u64(self.position);
    }
}

impl Decode for TokenRow {
    fn decode(r: &mut Reader<'_>) -> Result<Self, CodecError> {
        Ok(Self {
            expires: r.u64()?,
            query: get_string(r)?,
            position: r.u64()?,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use snowline_types::codec::{marshal, unmarshal};

    #[test]
    fn rows_round_trip() {
        let bucket = Bucket {
            blocks: 3,
            txs: 40,
            gas_used: 9_000_000,
            fees: u128::MAX - 7,
            gas_price_sum: 1 << 90,
            gas_price_max: 25_000_000_000,
            max_tps: Rate {
                amount: 18,
                seconds: 2,
            },
            max_gps: Rate {
                amount: 8_000_000,
                seconds: 1,
            },
            span_from: 1_700_000_000,
            last_time: 1_700_000_024,
            active_addresses: 12,
            active_senders: 5,
            contracts: 2,
            deployers: 1,
            totals: Totals {
                txs: 400,
                addresses: 30,
                contracts: 9,
                deployers: 4,
            },
        };
        assert_eq!(unmarshal::<Bucket>(&marshal(&bucket)).unwrap(), bucket);
        let cursor = MetricsCursor {
            first: 0,
            next: 13,
            last_time: 1_700_000_024,
            totals: bucket.totals,
        };
        assert_eq!(
            unmarshal::<MetricsCursor>(&marshal(&cursor)).unwrap(),
            cursor
        );
        let seen = LastSeen {
            active: Some(1_700_000_024),
            sender: None,
            deployer: Some(0),
        };
        assert_eq!(unmarshal::<LastSeen>(&marshal(&seen)).unwrap(), seen);
        let token = TokenRow {
            expires: 1_700_086_400,
            query: "v2|43112|txCount|day".into(),
            position: 1_699_920_000,
        };
        assert_eq!(unmarshal::<TokenRow>(&marshal(&token)).unwrap(), token);
    }

    #[test]
    fn rates_compare_exactly() {
        let unset = Rate::default();
        let a = Rate {
            amount: 1,
            seconds: 3,
        };
        let b = Rate {
            amount: 2,
            seconds: 6,
        };
        assert!(a.exceeds(&unset) && !unset.exceeds(&a));
        assert!(!a.exceeds(&b) && !b.exceeds(&a));
        assert!(
            Rate {
                amount: 3,
                seconds: 8
            }
            .exceeds(&a)
        );
    }
}
