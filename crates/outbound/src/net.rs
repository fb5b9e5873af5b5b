//! The private-network rule: no outbound request reaches a loopback, private, link-local or
//! otherwise non-public address unless the operator allows its network ([`AllowList`]). A
//! host is resolved and every address checked ([`resolve`]); the client connects to a checked
//! address itself, so a second resolution cannot change it.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;

use crate::error::OutboundError;

/// One network, `ADDRESS/BITS` (a bare address is a /32 or /128).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    bits: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (s, None),
        };
        let net: IpAddr = addr
            .trim()
            .parse()
            .map_err(|_| format!("{s:?} is not an IP network (ADDRESS/BITS)"))?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(b) => b
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= max)
                .ok_or_else(|| format!("{s:?}: the prefix length must be 0 to {max}"))?,
            None => max,
        };
        Ok(Cidr { net, bits })
    }
}

impl Cidr {
    /// Whether `ip` is in this network (an IPv4-mapped IPv6 address counts as its IPv4 one).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, canonical(ip)) {
            (IpAddr::V4(n), IpAddr::V4(a)) => prefix_eq(&n.octets(), &a.octets(), self.bits),
            (IpAddr::V6(n), IpAddr::V6(a)) => prefix_eq(&n.octets(), &a.octets(), self.bits),
            _ => false,
        }
    }
}

fn prefix_eq(a: &[u8], b: &[u8], bits: u8) -> bool {
    let (whole, rest) = (usize::from(bits / 8), bits % 8);
    if a[..whole] != b[..whole] {
        return false;
    }
    rest == 0 || (a[whole] ^ b[whole]) >> (8 - rest) == 0
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether `ip` is not a public unicast address: loopback, RFC 1918 private, link-local,
/// unspecified, carrier-grade NAT (RFC 6598), multicast, broadcast, reserved, IPv6 unique local.
pub fn is_private(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(a) => v4_private(a),
        IpAddr::V6(a) => v6_private(a),
    }
}

fn v4_private(a: Ipv4Addr) -> bool {
    let o = a.octets();
    a.is_loopback()
        || a.is_private()
        || a.is_link_local()
        || a.is_unspecified()
        || a.is_broadcast()
        || a.is_multicast()
        || o[0] == 0
        || (o[0] == 100 && (o[1] & 0xc0) == 64)
        || o[0] >= 240
}

fn v6_private(a: Ipv6Addr) -> bool {
    let s = a.segments();
    a.is_loopback()
        || a.is_unspecified()
        || a.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00
        || (s[0] & 0xffc0) == 0xfe80
}

/// The networks the operator allows despite [`is_private`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowList(Vec<Cidr>);

impl FromStr for AllowList {
    type Err = String;

    /// `CIDR,CIDR,...`.
    fn from_str(s: &str) -> Result<Self, String> {
        s.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(AllowList)
    }
}

impl AllowList {
    /// Whether a request may connect to `ip`.
    pub fn permits(&self, ip: IpAddr) -> bool {
        !is_private(ip) || self.0.iter().any(|c| c.contains(ip))
    }
}

/// The addresses `host` (a name, an IPv4 address or a bracketed IPv6 one) resolves to on
/// `port` that `allow` permits; [`OutboundError::Refused`] when it resolves only to refused ones
/// (naming `flag`, the operator's option that allows networks), [`OutboundError::Unreachable`]
/// when it resolves to none.
pub async fn resolve(
    host: &str,
    port: u16,
    allow: &AllowList,
    flag: &str,
) -> Result<Vec<SocketAddr>, OutboundError> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let all: Vec<SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| OutboundError::Unreachable(format!("cannot resolve {host}: {e}")))?
        .collect();
    let permitted: Vec<SocketAddr> = all
        .iter()
        .copied()
        .filter(|a| allow.permits(a.ip()))
        .collect();
    if permitted.is_empty() {
        return Err(match all.first() {
            Some(a) => OutboundError::Refused(format!(
                "{host} resolves to {}, a loopback, private or link-local address, which \
                 outbound requests may not reach (the operator may allow networks with {flag})",
                a.ip()
            )),
            None => OutboundError::Unreachable(format!("{host} resolves to no address")),
        });
    }
    Ok(permitted)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::panic)]

    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn special_purpose_ranges_are_private() {
        // RFC 6890's special-purpose registries (and RFC 6598 shared space, RFC 4193 ULA,
        // RFC 4291 link-local): none of them is a public receiver.
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_private(ip(s)), "{s}");
        }
        for s in ["8.8.8.8", "172.32.0.1", "100.128.0.1", "2001:4860::8888"] {
            assert!(!is_private(ip(s)), "{s}");
        }
    }

    #[tokio::test]
    async fn names_and_addresses_resolve_through_the_rule() {
        let allow: AllowList = "127.0.0.0/8".parse().unwrap_or_default();
        let open = resolve("127.0.0.1", 80, &allow, "--flag").await;
        assert_eq!(
            open.ok(),
            Some(vec![SocketAddr::from(([127, 0, 0, 1], 80))])
        );
        match resolve("127.0.0.1", 80, &AllowList::default(), "--flag").await {
            Err(OutboundError::Refused(m)) => assert!(m.contains("--flag"), "{m}"),
            other => panic!("loopback without the allowance: {other:?}"),
        }
        match resolve("[::1]", 80, &AllowList::default(), "--flag").await {
            Err(OutboundError::Refused(_)) => {}
            other => panic!("IPv6 loopback without the allowance: {other:?}"),
        }
    }

    #[test]
    fn allow_list_opens_only_its_networks() {
        let allow: AllowList = "127.0.0.0/8, ::1".parse().unwrap_or_default();
        assert!(allow.permits(ip("127.0.0.1")));
        assert!(allow.permits(ip("::ffff:127.0.0.2")));
        assert!(allow.permits(ip("::1")));
        assert!(!allow.permits(ip("10.0.0.1")));
        assert!(allow.permits(ip("8.8.8.8")));
        assert!(!AllowList::default().permits(ip("127.0.0.1")));
        let odd: AllowList = "10.0.0.0/9".parse().unwrap_or_default();
        assert!(odd.permits(ip("10.127.0.1")) && !odd.permits(ip("10.128.0.1")));
        for bad in ["10.0.0.0/33", "x", "::/129", "1.2.3.4/x"] {
            assert!(bad.parse::<AllowList>().is_err(), "{bad}");
        }
    }
}
