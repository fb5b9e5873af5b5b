//! [`Target`]: a URL checked for its form before anything is resolved: `http` or `https`, a
//! host, no credentials, at most [`MAX_URL_LEN`] characters.

use hyper::Uri;

use crate::error::OutboundError;

/// The longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// A checked URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The URL.
    pub uri: Uri,
    /// Whether the scheme is `https`.
    pub https: bool,
    /// The host as written (a name, an IPv4 address or a bracketed IPv6 one).
    pub host: String,
    /// The port, the scheme's default when none is written.
    pub port: u16,
}

impl Target {
    /// Checks `raw`.
    pub fn parse(raw: &str) -> Result<Self, OutboundError> {
        let bad = |why: &str| OutboundError::Url(format!("{why}, got {raw:?}"));
        if raw.len() > MAX_URL_LEN {
            return Err(bad("a URL has at most 2048 characters"));
        }
        let uri: Uri = raw.parse().map_err(|_| bad("not a URL"))?;
        let https = match uri.scheme_str() {
            Some(s) if s.eq_ignore_ascii_case("http") => false,
            Some(s) if s.eq_ignore_ascii_case("https") => true,
            _ => return Err(bad("the scheme must be http or https")),
        };
        let host = match uri.host() {
            Some(h) if !h.is_empty() => h.to_owned(),
            _ => return Err(bad("a host is required")),
        };
        if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
            return Err(bad("credentials in the URL are not allowed"));
        }
        let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
        Ok(Self {
            uri,
            https,
            host,
            port,
        })
    }

    /// The path and query to request (`/` when the URL has none).
    pub fn path(&self) -> &str {
        self.uri.path_and_query().map_or("/", |p| p.as_str())
    }

    /// The `Host` header: the authority as written.
    pub fn authority(&self) -> &str {
        self.uri.authority().map_or("", |a| a.as_str())
    }

    /// Where a redirect's `Location` points, resolved against this URL (RFC 9110 section
    /// 10.2.2: an absolute URL, a scheme-relative `//host/...`, an absolute path or a path
    /// relative to this one's directory).
    pub fn join(&self, location: &str) -> Result<Target, OutboundError> {
        let location = location.trim();
        if location.contains("://") {
            return Target::parse(location);
        }
        let scheme = if self.https { "https" } else { "http" };
        if let Some(rest) = location.strip_prefix("//") {
            return Target::parse(&format!("{scheme}://{rest}"));
        }
        let base = format!("{scheme}://{}", self.authority());
        if location.starts_with('/') {
            return Target::parse(&format!("{base}{location}"));
        }
        let path = self.uri.path();
        let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let dir = if dir.is_empty() { "/" } else { dir };
        Target::parse(&format!("{base}{dir}{location}"))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn urls_must_be_http_or_https_with_a_host_and_no_credentials() {
        let t = Target::parse("http://example.com:8080/hook?x=1");
        assert_eq!(
            t.as_ref().map(|t| (t.port, t.path())),
            Ok((8080, "/hook?x=1"))
        );
        let t = Target::parse("https://example.com");
        assert_eq!(
            t.as_ref().map(|t| (t.https, t.port, t.path())),
            Ok((true, 443, "/"))
        );
        assert_eq!(
            Target::parse("http://[::1]/").map(|t| t.host),
            Ok("[::1]".to_owned())
        );
        for bad in [
            "ftp://example.com/",
            "ipfs://Qm/1",
            "example.com/hook",
            "http:///x",
            "http://user:pw@example.com/",
            "not a url",
        ] {
            assert!(
                matches!(Target::parse(bad), Err(OutboundError::Url(_))),
                "{bad}"
            );
        }
        let long = format!("http://example.com/{}", "a".repeat(MAX_URL_LEN));
        assert!(Target::parse(&long).is_err());
    }

    #[test]
    fn locations_resolve_against_the_request() {
        // RFC 3986 section 5.4.1's normal examples that apply to a Location without dot segments.
        let base = Target::parse("http://a/b/c/d;p?q").unwrap();
        let joined = |l: &str| base.join(l).map(|t| t.uri.to_string()).unwrap_or_default();
        assert_eq!(joined("g"), "http://a/b/c/g");
        assert_eq!(joined("g?y"), "http://a/b/c/g?y");
        assert_eq!(joined("/g"), "http://a/g");
        assert_eq!(joined("//g"), "http://g/");
        assert_eq!(joined("https://other:8443/x"), "https://other:8443/x");
        assert!(base.join("ftp://a/").is_err());
    }
}
