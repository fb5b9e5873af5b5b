//! The identity of a query, hashed: what a page token is bound to.

use sha2::{Digest as _, Sha256};

/// Domain separation: no other SHA-256 input of this service starts with these bytes.
const DOMAIN: &[u8] = b"snowline-query/filter-digest/v1";

/// Builds the [`Digest`] of a query: its endpoint name, then every filter and the sort field and
/// order, in an order fixed by the endpoint. Each string is length-prefixed, so
/// `("ab", "c")` and `("a", "bc")` hash differently.
///
/// Absent optional filters should go through [`FilterDigest::optional`], which marks absence
/// distinctly from an empty value.
#[derive(Debug, Clone)]
pub struct FilterDigest {
    hasher: Sha256,
}

/// 16 bytes (the first half of a SHA-256) naming one query's endpoint, filters and order. Page
/// tokens are MAC'd over it, so a token replayed with other filters is rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digest(pub [u8; Digest::LEN]);

impl Digest {
    /// Bytes in a digest.
    pub const LEN: usize = 16;
}

impl FilterDigest {
    /// Starts the digest of a query on `endpoint` (a stable name such as `"xchain.utxos"`).
    pub fn new(endpoint: &str) -> Self {
        let mut hasher = Sha256::new();
        hasher.update(DOMAIN);
        let mut this = Self { hasher };
        this.put(endpoint.as_bytes());
        this
    }

    /// Adds a filter or sort parameter by name with its canonical value.
    pub fn field(self, name: &str, value: &str) -> Self {
        self.field_bytes(name, value.as_bytes())
    }

    /// Adds a filter whose canonical value is bytes (sorted address ids, a raw id).
    pub fn field_bytes(mut self, name: &str, value: &[u8]) -> Self {
        self.put(name.as_bytes());
        self.hasher.update([1u8]);
        self.put(value);
        self
    }

    /// Adds an optional filter: absent hashes differently from any present value, even `""`.
    pub fn optional(mut self, name: &str, value: Option<&str>) -> Self {
        match value {
            Some(v) => self.field(name, v),
            None => {
                self.put(name.as_bytes());
                self.hasher.update([0u8]);
                self
            }
        }
    }

    /// The digest: the first 16 bytes of the SHA-256 of everything added.
    pub fn finish(self) -> Digest {
        let full = self.hasher.finalize();
        let mut out = [0u8; Digest::LEN];
        out.copy_from_slice(full.get(..Digest::LEN).unwrap_or(&[0u8; Digest::LEN]));
        Digest(out)
    }

    /// Appends `u64 BE length ‖ bytes`.
    fn put(&mut self, bytes: &[u8]) {
        self.hasher.update((bytes.len() as u64).to_be_bytes());
        self.hasher.update(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_length_prefixed() {
        let a = FilterDigest::new("e").field("ab", "c").finish();
        let b = FilterDigest::new("e").field("a", "bc").finish();
        assert_ne!(a, b);
        let c = FilterDigest::new("ea").field("b", "c").finish();
        assert_ne!(a, c);
    }

    #[test]
    fn same_inputs_same_digest_and_every_input_matters() {
        let base = || {
            FilterDigest::new("xchain.utxos")
                .field("addresses", "x")
                .field("sortBy", "amount")
        };
        assert_eq!(base().finish(), base().finish());
        assert_ne!(
            base().finish(),
            FilterDigest::new("pchain.utxos")
                .field("addresses", "x")
                .field("sortBy", "amount")
                .finish()
        );
        assert_ne!(base().finish(), base().field("sortOrder", "asc").finish());
        assert_ne!(
            base().field("sortOrder", "asc").finish(),
            base().field("sortOrder", "desc").finish()
        );
    }

    #[test]
    fn absent_differs_from_empty() {
        let absent = FilterDigest::new("e").optional("assetId", None).finish();
        let empty = FilterDigest::new("e")
            .optional("assetId", Some(""))
            .finish();
        let omitted = FilterDigest::new("e").finish();
        assert_ne!(absent, empty);
        assert_ne!(absent, omitted);
        assert_eq!(empty, FilterDigest::new("e").field("assetId", "").finish());
    }
}
