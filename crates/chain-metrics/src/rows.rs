//! The values of the metrics tables: a bucket's sums, maxima and distinct counts, the running
//! totals since the first block, when each address was last seen, the deriver's cursor, a page
//! token's query and position. A bucket has a fixed layout ([`BUCKET_LEN`]); the others are
//! stored in the linear codec (`store::Linear`), fields in declaration order.

use snowline_store::row::{get_opt, get_string, put_opt};
use snowline_store::{DecodeError, ValueCodec};
use snowline_types::codec::{CodecError, Decode, Encode, Reader, Writer};

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

/// The bytes of a stored [`Bucket`]: every field fixed-width big-endian, in declaration order.
pub const BUCKET_LEN: usize = 3 * 8 + 3 * 16 + 4 * 8 + 6 * 8 + 4 * 8;

/// A fixed layout rather than the linear codec: a series decodes one row per point, and fixed
/// offsets took a 2,160-point page from 550 to 430 µs of server CPU (`docs/benchmarks.md`).
impl ValueCodec for Bucket {
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.reserve(BUCKET_LEN);
        for v in [self.blocks, self.txs, self.gas_used] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        for v in [self.fees, self.gas_price_sum, self.gas_price_max] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        let t = &self.totals;
        for v in [
            self.max_tps.amount,
            self.max_tps.seconds,
            self.max_gps.amount,
            self.max_gps.seconds,
            self.span_from,
            self.last_time,
            self.active_addresses,
            self.active_senders,
            self.contracts,
            self.deployers,
            t.txs,
            t.addresses,
            t.contracts,
            t.deployers,
        ] {
            out.extend_from_slice(&v.to_be_bytes());
        }
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let b: &[u8; BUCKET_LEN] = bytes.try_into().map_err(|_| {
            DecodeError::Other(format!(
                "a bucket is {BUCKET_LEN} bytes, not {}",
                bytes.len()
            ))
        })?;
        let u = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_be_bytes(w)
        };
        let w = |at: usize| {
            let mut x = [0u8; 16];
            x.copy_from_slice(&b[at..at + 16]);
            u128::from_be_bytes(x)
        };
        // Offsets of the u64 fields after the three u64s and three u128s.
        let v = |i: usize| u(72 + 8 * i);
        Ok(Self {
            blocks: u(0),
            txs: u(8),
            gas_used: u(16),
            fees: w(24),
            gas_price_sum: w(40),
            gas_price_max: w(56),
            max_tps: Rate {
                amount: v(0),
                seconds: v(1),
            },
            max_gps: Rate {
                amount: v(2),
                seconds: v(3),
            },
            span_from: v(4),
            last_time: v(5),
            active_addresses: v(6),
            active_senders: v(7),
            contracts: v(8),
            deployers: v(9),
            totals: Totals {
                txs: v(10),
                addresses: v(11),
                contracts: v(12),
                deployers: v(13),
            },
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
        let mut bytes = Vec::new();
        bucket.encode_value(&mut bytes);
        assert_eq!(bytes.len(), BUCKET_LEN);
        assert_eq!(Bucket::decode_value(&bytes).unwrap(), bucket);
        assert!(Bucket::decode_value(&bytes[1..]).is_err());
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
