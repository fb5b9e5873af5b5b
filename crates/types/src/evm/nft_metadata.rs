//! NFT metadata carried inside the token URI itself: a `data:` URI (RFC 2397,
//! `data:[<mediatype>][;base64],<data>`) holding the metadata JSON of EIP-721's "ERC721
//! Metadata JSON Schema" / EIP-1155's "Metadata JSON schema" (`name`, `description`, `image`,
//! `decimals`, `properties`) with the members marketplaces add (`animation_url`, `external_url`,
//! `background_color`, `attributes`). Reading it needs no fetch; any other URI is not inline.
//! A document fetched from elsewhere is read by the same rules ([`metadata_document`]); an
//! ERC-1155 URI names its token by EIP-1155's `{id}` substitution ([`erc1155_uri`]).

use base64::Engine as _;
use serde_json::Value;

use crate::evm::U256;
use crate::rest::evm::{NftMetadata, NftTokenMetadataStatus};

/// The largest metadata document read, in bytes (after decoding).
pub const MAX_METADATA_BYTES: usize = 1 << 20;

/// What a token URI's inline metadata says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineMetadata {
    /// The members both standards share, with the status of the reading.
    pub common: NftMetadata,
    /// `attributes` (ERC-721 use), as JSON text.
    pub attributes: Option<String>,
    /// `properties` (ERC-1155), as JSON text.
    pub properties: Option<String>,
    /// `decimals` (ERC-1155).
    pub decimals: Option<u8>,
}

impl InlineMetadata {
    /// No metadata, for the reason `status` says.
    pub fn status(status: NftTokenMetadataStatus) -> Self {
        Self {
            common: NftMetadata {
                index_status: status,
                ..NftMetadata::unindexed()
            },
            attributes: None,
            properties: None,
            decimals: None,
        }
    }
}

/// The metadata `uri` carries, when it is a `data:` URI (`None` otherwise: the metadata is
/// elsewhere). A malformed `data:` URI is `INVALID_TOKEN_URI`, a document over
/// [`MAX_METADATA_BYTES`] `METADATA_CONTENT_TOO_LARGE`, one that is not JSON
/// `INVALID_METADATA_JSON`, JSON that is not an object `INVALID_METADATA`.
pub fn inline_metadata(uri: &str) -> Option<InlineMetadata> {
    let rest = uri
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("data:"))
        .map(|_| &uri[5..])?;
    let Some((header, data)) = rest.split_once(',') else {
        return Some(InlineMetadata::status(
            NftTokenMetadataStatus::InvalidTokenUri,
        ));
    };
    let base64 = header
        .rsplit(';')
        .next()
        .is_some_and(|p| p.eq_ignore_ascii_case("base64"));
    if data.len() > MAX_METADATA_BYTES.saturating_mul(2) {
        return Some(InlineMetadata::status(
            NftTokenMetadataStatus::MetadataContentTooLarge,
        ));
    }
    let bytes = if base64 {
        let compact: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let engine = base64::engine::general_purpose::GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
        );
        match engine.decode(compact.as_bytes()) {
            Ok(b) => b,
            Err(_) => {
                return Some(InlineMetadata::status(
                    NftTokenMetadataStatus::InvalidTokenUri,
                ));
            }
        }
    } else {
        match percent_decode(data) {
            Some(b) => b,
            None => {
                return Some(InlineMetadata::status(
                    NftTokenMetadataStatus::InvalidTokenUri,
                ));
            }
        }
    };
    Some(metadata_document(&bytes))
}

/// What a metadata document says: over [`MAX_METADATA_BYTES`] `METADATA_CONTENT_TOO_LARGE`,
/// not JSON `INVALID_METADATA_JSON`, JSON that is not an object `INVALID_METADATA`, else
/// `INDEXED` with its members.
pub fn metadata_document(bytes: &[u8]) -> InlineMetadata {
    if bytes.len() > MAX_METADATA_BYTES {
        return InlineMetadata::status(NftTokenMetadataStatus::MetadataContentTooLarge);
    }
    let Ok(doc) = serde_json::from_slice::<Value>(bytes) else {
        return InlineMetadata::status(NftTokenMetadataStatus::InvalidMetadataJson);
    };
    let Some(obj) = doc.as_object() else {
        return InlineMetadata::status(NftTokenMetadataStatus::InvalidMetadata);
    };
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_owned);
    let json = |k: &str| obj.get(k).filter(|v| !v.is_null()).map(Value::to_string);
    InlineMetadata {
        common: NftMetadata {
            index_status: NftTokenMetadataStatus::Indexed,
            metadata_last_updated_timestamp: None,
            name: text("name"),
            symbol: text("symbol"),
            image_uri: text("image").or_else(|| text("image_url")),
            description: text("description"),
            animation_uri: text("animation_url"),
            external_url: text("external_url"),
            background: text("background_color"),
        },
        attributes: json("attributes"),
        properties: json("properties"),
        decimals: obj
            .get("decimals")
            .and_then(Value::as_u64)
            .and_then(|d| u8::try_from(d).ok()),
    }
}

/// The URI of token `id` of an ERC-1155 contract whose `uri(id)` answered `template`: EIP-1155
/// ("Metadata"): every `{id}` is replaced by the id in lowercase hex, zero-padded to 64
/// characters, without `0x`.
pub fn erc1155_uri(template: &str, id: &U256) -> String {
    if template.contains("{id}") {
        let hex: String = id
            .to_be_bytes::<32>()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        template.replace("{id}", &hex)
    } else {
        template.to_owned()
    }
}

/// RFC 3986 percent-decoding (`%` and two hex digits); `None` on a malformed escape.
fn percent_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn status(uri: &str) -> Option<NftTokenMetadataStatus> {
        inline_metadata(uri).map(|m| m.common.index_status)
    }

    /// RFC 2397 section 4's forms: base64 and percent-encoded data, with and without a media
    /// type; the members of EIP-721's metadata schema and the marketplaces' additions.
    #[test]
    fn data_uris_are_read_as_metadata() {
        let doc = r#"{"name":"Snow #1","description":"d","image":"ipfs://img","animation_url":"ipfs://a","external_url":"https://e.invalid","background_color":"ffffff","attributes":[{"trait_type":"t","value":1}]}"#;
        let b64 = base64::engine::general_purpose::STANDARD.encode(doc);
        let m = inline_metadata(&format!("data:application/json;base64,{b64}")).unwrap();
        assert_eq!(m.common.index_status, NftTokenMetadataStatus::Indexed);
        assert_eq!(m.common.name.as_deref(), Some("Snow #1"));
        assert_eq!(m.common.image_uri.as_deref(), Some("ipfs://img"));
        assert_eq!(m.common.animation_uri.as_deref(), Some("ipfs://a"));
        assert_eq!(m.common.external_url.as_deref(), Some("https://e.invalid"));
        assert_eq!(m.common.background.as_deref(), Some("ffffff"));
        assert_eq!(
            m.attributes.as_deref(),
            Some(r#"[{"trait_type":"t","value":1}]"#)
        );
        // Percent-encoded, no media type (RFC 2397: text/plain by default; read all the same).
        let m = inline_metadata("data:,%7B%22name%22%3A%22B%22%2C%22decimals%22%3A2%7D").unwrap();
        assert_eq!(m.common.name.as_deref(), Some("B"));
        assert_eq!(m.decimals, Some(2));
        // The unencoded form many on-chain collections write.
        let m = inline_metadata(r#"data:application/json;utf8,{"name":"C","properties":{"x":1}}"#)
            .unwrap();
        assert_eq!(m.common.name.as_deref(), Some("C"));
        assert_eq!(m.properties.as_deref(), Some(r#"{"x":1}"#));
        // Base64 without padding, and the scheme in capitals.
        let m = inline_metadata("DATA:application/json;base64,eyJuYW1lIjoiRCJ9").unwrap();
        assert_eq!(m.common.name.as_deref(), Some("D"));
    }

    /// EIP-1155's example: `https://token-cdn-domain/{id}.json` for id 314592 (0x4CCE0) is
    /// `https://token-cdn-domain/000000000000000000000000000000000000000000000000000000000004cce0.json`.
    #[test]
    fn erc1155_uris_substitute_the_id() {
        let id = U256::from(314_592u64);
        assert_eq!(
            erc1155_uri("https://token-cdn-domain/{id}.json", &id),
            "https://token-cdn-domain/000000000000000000000000000000000000000000000000000000000004cce0.json"
        );
        assert_eq!(erc1155_uri("ipfs://Qm/x.json", &id), "ipfs://Qm/x.json");
        let doc = metadata_document(br#"{"name":"A","image_url":"https://i"}"#);
        assert_eq!(doc.common.index_status, NftTokenMetadataStatus::Indexed);
        assert_eq!(doc.common.image_uri.as_deref(), Some("https://i"));
        assert_eq!(
            metadata_document(b"null").common.index_status,
            NftTokenMetadataStatus::InvalidMetadata
        );
    }

    #[test]
    fn every_failure_has_its_status() {
        use NftTokenMetadataStatus::*;
        assert_eq!(status("https://example.invalid/1.json"), None);
        assert_eq!(status("ipfs://Qm/1"), None);
        assert_eq!(status(""), None);
        assert_eq!(
            status("data:application/json;base64"),
            Some(InvalidTokenUri)
        );
        assert_eq!(
            status("data:application/json;base64,@@@"),
            Some(InvalidTokenUri)
        );
        assert_eq!(status("data:,%7"), Some(InvalidTokenUri));
        assert_eq!(status("data:,%zz"), Some(InvalidTokenUri));
        assert_eq!(
            status("data:application/json,{not json"),
            Some(InvalidMetadataJson)
        );
        assert_eq!(status("data:application/json,[1,2]"), Some(InvalidMetadata));
        let huge = format!("data:,{}", "a".repeat(MAX_METADATA_BYTES + 1));
        assert_eq!(status(&huge), Some(MetadataContentTooLarge));
        let huge = format!("data:;base64,{}", "QUFB".repeat(MAX_METADATA_BYTES));
        assert_eq!(status(&huge), Some(MetadataContentTooLarge));
    }
}
