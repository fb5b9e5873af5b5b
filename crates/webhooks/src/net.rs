//! The private-network rule of deliveries, which is the outbound client's
//! ([`snowline_outbound::net`]): deliveries never reach loopback, private, link-local or otherwise
//! non-public addresses unless the operator allows their networks ([`AllowList`], from
//! `--webhook-allow-private CIDR,...`). A URL's host is resolved and every address checked;
//! delivery connects to a checked address itself, so a second resolution cannot change it.

use std::net::SocketAddr;

pub use snowline_outbound::{AllowList, Cidr, Uri, is_private};
use snowline_outbound::{OutboundError, Target};

use crate::error::WebhookError;

/// The operator's option that allows private networks to deliveries.
pub const ALLOW_FLAG: &str = "--webhook-allow-private";

/// A delivery URL checked for its form: `http` or `https`, a host, no credentials.
pub fn check_url(raw: &str) -> Result<Uri, WebhookError> {
    Target::parse(raw)
        .map(|t| t.uri)
        .map_err(|e| WebhookError::invalid(format!("Invalid url: {e}")))
}

/// The addresses `uri`'s host resolves to that `allow` permits; an error when it resolves to
/// none, or only to refused ones.
pub async fn resolve(uri: &Uri, allow: &AllowList) -> Result<Vec<SocketAddr>, String> {
    let target = Target::parse(&uri.to_string()).map_err(|e| e.to_string())?;
    snowline_outbound::resolve(&target.host, target.port, allow, ALLOW_FLAG)
        .await
        .map_err(|e: OutboundError| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_http_or_https_with_a_host() {
        assert!(check_url("http://example.com:8080/hook?x=1").is_ok());
        assert!(check_url("https://example.com/hook").is_ok());
        for bad in [
            "ftp://example.com/",
            "example.com/hook",
            "http:///x",
            "http://user:pw@example.com/",
            "not a url",
        ] {
            assert!(check_url(bad).is_err(), "{bad}");
        }
    }
}
