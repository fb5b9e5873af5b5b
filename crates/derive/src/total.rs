//! A running total of UTXOs of one asset, as the balance tables of every chain keep it.

use std::hash::Hash;

use snowline_store::value::ValueCodec;
use snowline_store::{DecodeError, ReadView, StoreError, Table};

use crate::PendingRows;

/// The sum of some UTXOs' amounts and how many they are (`amount`, `utxoCount`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AssetTotal {
    /// Sum of the UTXOs' amounts (u128: a sum of u64 amounts of one asset may exceed u64).
    pub amount: u128,
    /// How many UTXOs.
    pub utxo_count: u64,
}

impl AssetTotal {
    /// Adds one UTXO of `amount`.
    pub fn add(&mut self, amount: u64) {
        self.amount = self.amount.saturating_add(u128::from(amount));
        self.utxo_count = self.utxo_count.saturating_add(1);
    }

    /// Adds another total.
    pub fn merge(&mut self, other: AssetTotal) {
        self.amount = self.amount.saturating_add(other.amount);
        self.utxo_count = self.utxo_count.saturating_add(other.utxo_count);
    }

    /// Removes one UTXO of `amount`.
    pub fn sub(&mut self, amount: u64) {
        self.amount = self.amount.saturating_sub(u128::from(amount));
        self.utxo_count = self.utxo_count.saturating_sub(1);
    }
}

impl<T: Table<Value = AssetTotal>> PendingRows<T>
where
    T::Key: Eq + Hash,
{
    /// Adds one UTXO of `amount` to `key`'s total (`add`) or takes one out, reading the total
    /// through the unwritten batches, then the store (`view`); a total left counting no UTXO is
    /// deleted, so a balance table holds only what is unspent.
    pub fn adjust_total(
        &mut self,
        view: &impl ReadView,
        key: T::Key,
        amount: u64,
        add: bool,
    ) -> Result<(), StoreError> {
        let (mut total, stored) = match self.get(&key) {
            Some((t, stored)) => (t.copied().unwrap_or_default(), stored),
            None => match view.get::<T>(&key)? {
                Some(t) => (t, true),
                None => (AssetTotal::default(), false),
            },
        };
        if add {
            total.add(amount);
        } else {
            total.sub(amount);
        }
        if total.utxo_count == 0 {
            self.delete(key, stored);
        } else {
            self.put(key, total, stored);
        }
        Ok(())
    }
}

impl ValueCodec for AssetTotal {
    /// `u128 amount ‖ u64 count`, big-endian.
    fn encode_value(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.amount.to_be_bytes());
        out.extend_from_slice(&self.utxo_count.to_be_bytes());
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, DecodeError> {
        let (amount, count) = match (bytes.get(..16), bytes.get(16..24)) {
            (Some(a), Some(c)) => (a, c),
            _ => {
                return Err(DecodeError::UnexpectedEnd {
                    needed: 24,
                    remaining: bytes.len(),
                });
            }
        };
        if bytes.len() > 24 {
            return Err(DecodeError::TrailingBytes(bytes.len() - 24));
        }
        let mut a = [0u8; 16];
        a.copy_from_slice(amount);
        let mut c = [0u8; 8];
        c.copy_from_slice(count);
        Ok(Self {
            amount: u128::from_be_bytes(a),
            utxo_count: u64::from_be_bytes(c),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::AssetTotal;
    use snowline_store::value::ValueCodec;

    #[test]
    fn layout_is_amount_then_count_big_endian() {
        let t = AssetTotal {
            amount: (1u128 << 64) + 2,
            utxo_count: 3,
        };
        let mut out = Vec::new();
        t.encode_value(&mut out);
        let mut want = vec![0u8; 24];
        want[7] = 1;
        want[15] = 2;
        want[23] = 3;
        assert_eq!(out, want);
        assert_eq!(AssetTotal::decode_value(&out), Ok(t));
        assert!(AssetTotal::decode_value(&out[..23]).is_err());
        out.push(0);
        assert!(AssetTotal::decode_value(&out).is_err());
    }

    #[test]
    fn sums_saturate_instead_of_wrapping() {
        let mut t = AssetTotal::default();
        t.sub(5);
        assert_eq!(t, AssetTotal::default());
        t.add(u64::MAX);
        t.add(u64::MAX);
        assert_eq!(t.amount, 2 * u128::from(u64::MAX));
        assert_eq!(t.utxo_count, 2);
    }
}
