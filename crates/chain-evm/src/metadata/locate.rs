//! Where a token's metadata is: in the URI itself (`data:`), at an `http(s)` URL (after the
//! operator's rewrites, `ipfs://` through the operator's gateway), or nowhere this service can
//! reach, with the status that says why.

use snowline_types::evm::U256;
use snowline_types::evm::nft_metadata::{InlineMetadata, erc1155_uri, inline_metadata};
use snowline_types::rest::evm::NftTokenMetadataStatus;

use crate::rows::TransferKind;

/// How URIs become URLs: the operator's choices.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Locating {
    /// The gateway `ipfs://CID/PATH` is fetched through: `GATEWAY/CID/PATH` (e.g.
    /// `https://ipfs.io/ipfs`); without one, `ipfs://` URIs are unreachable.
    pub ipfs_gateway: Option<String>,
    /// `(prefix, replacement)`: a URI starting with `prefix` is fetched from `replacement`
    /// followed by the rest (the first match applies): a mirror of a collection's host.
    pub rewrites: Vec<(String, String)>,
}

/// Where a token's metadata is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// In the URI (`data:`), read.
    Inline(Box<InlineMetadata>),
    /// At this `http` or `https` URL.
    Fetch(String),
    /// Nowhere reachable: the status, and why.
    Unavailable(NftTokenMetadataStatus, String),
}

/// The URI of token `id` (of standard `kind`) whose contract answered `uri`: trimmed, with
/// EIP-1155's `{id}` substituted in an ERC-1155 URI.
pub fn token_uri(uri: &str, id: &U256, kind: TransferKind) -> String {
    match kind {
        TransferKind::Erc1155 => erc1155_uri(uri.trim(), id),
        _ => uri.trim().to_owned(),
    }
}

/// Where the metadata of token `id` (of standard `kind`) whose contract answered `uri` is.
pub fn locate(uri: &str, id: &U256, kind: TransferKind, how: &Locating) -> Location {
    let uri = token_uri(uri, id, kind);
    if uri.is_empty() {
        return Location::Unavailable(
            NftTokenMetadataStatus::InvalidTokenUri,
            "the token URI is empty".to_owned(),
        );
    }
    if let Some(inline) = inline_metadata(&uri) {
        return Location::Inline(Box::new(inline));
    }
    let uri = how
        .rewrites
        .iter()
        .find_map(|(prefix, to)| {
            uri.strip_prefix(prefix.as_str())
                .map(|rest| format!("{to}{rest}"))
        })
        .unwrap_or(uri);
    let Some((scheme, rest)) = uri.split_once(':') else {
        return Location::Unavailable(
            NftTokenMetadataStatus::InvalidTokenUri,
            format!("{uri:?} has no scheme"),
        );
    };
    match scheme.to_ascii_lowercase().as_str() {
        "http" | "https" => Location::Fetch(uri.clone()),
        "ipfs" => {
            let path = rest.trim_start_matches('/');
            let path = path.strip_prefix("ipfs/").unwrap_or(path);
            match &how.ipfs_gateway {
                Some(gateway) if !path.is_empty() => {
                    Location::Fetch(format!("{}/{path}", gateway.trim_end_matches('/')))
                }
                Some(_) => Location::Unavailable(
                    NftTokenMetadataStatus::InvalidTokenUri,
                    format!("{uri:?} names no content"),
                ),
                None => Location::Unavailable(
                    NftTokenMetadataStatus::UnreachableTokenUri,
                    "no IPFS gateway is configured (--ipfs-gateway)".to_owned(),
                ),
            }
        }
        _ => Location::Unavailable(
            NftTokenMetadataStatus::InvalidTokenUriScheme,
            format!("{uri:?}: only http, https, ipfs and data URIs are read"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fetch(uri: &str, kind: TransferKind, how: &Locating) -> Option<String> {
        match locate(uri, &U256::from(1u8), kind, how) {
            Location::Fetch(url) => Some(url),
            _ => None,
        }
    }

    fn status(uri: &str, how: &Locating) -> Option<NftTokenMetadataStatus> {
        match locate(uri, &U256::from(1u8), TransferKind::Erc721, how) {
            Location::Unavailable(s, _) => Some(s),
            Location::Inline(m) => Some(m.common.index_status),
            Location::Fetch(_) => None,
        }
    }

    #[test]
    fn uris_become_urls_by_the_operators_rules() {
        let none = Locating::default();
        let how = Locating {
            ipfs_gateway: Some("http://gw.example/ipfs/".to_owned()),
            rewrites: vec![(
                "https://cdn.example/".to_owned(),
                "http://127.0.0.1:9/m/".to_owned(),
            )],
        };
        let erc721 = TransferKind::Erc721;
        assert_eq!(
            fetch("https://a.example/1", erc721, &none).as_deref(),
            Some("https://a.example/1")
        );
        // Both forms of IPFS URI in use (`ipfs://CID/...` and `ipfs://ipfs/CID/...`).
        for uri in ["ipfs://QmX/1.json", "ipfs://ipfs/QmX/1.json"] {
            assert_eq!(
                fetch(uri, erc721, &how).as_deref(),
                Some("http://gw.example/ipfs/QmX/1.json")
            );
        }
        assert_eq!(
            fetch("https://cdn.example/nft/7", erc721, &how).as_deref(),
            Some("http://127.0.0.1:9/m/nft/7")
        );
        // ERC-1155's `{id}` is substituted before the rewrite.
        assert_eq!(
            fetch("https://cdn.example/{id}.json", TransferKind::Erc1155, &how).as_deref(),
            Some(
                "http://127.0.0.1:9/m/0000000000000000000000000000000000000000000000000000000000000001.json"
            )
        );
        use NftTokenMetadataStatus::*;
        assert_eq!(
            status("ipfs://QmX/1.json", &none),
            Some(UnreachableTokenUri)
        );
        assert_eq!(status("ipfs://", &how), Some(InvalidTokenUri));
        assert_eq!(status("ar://tx", &none), Some(InvalidTokenUriScheme));
        assert_eq!(status("  ", &none), Some(InvalidTokenUri));
        assert_eq!(status("no-scheme", &none), Some(InvalidTokenUri));
        assert_eq!(status("data:,{\"name\":\"x\"}", &none), Some(Indexed));
    }
}
