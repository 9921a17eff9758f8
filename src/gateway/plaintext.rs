//! Which hosts may receive the Gateway's secret over plaintext `ws://` (docs/openclaw/GATEWAY.md
//! §1): loopback only, so that a token or password never crosses a network in clear. OpenClaw's
//! own client (`isSecureWebSocketUrl`) also lets private addresses, `.local` and `.ts.net`
//! names through; this tool, which only ever talks to the Gateway of its own host, takes them
//! only when the admin sets OpenClaw's own break-glass variable for them,
//! `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1`, and then as OpenClaw does with it.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

/// OpenClaw's break-glass for plaintext `ws://` to private hosts.
pub const ALLOW_PRIVATE_WS: &str = "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS";

/// Why a secret must not go to `host` (resolved to `addr`) over plaintext `ws://`, or `None`
/// when it may. `host` is the URL's host without brackets.
pub fn refusal(host: &str, addr: &SocketAddr, allow_private: bool) -> Option<String> {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    let literal = name.parse::<IpAddr>().ok();
    // A literal is judged as written; a name by where it resolved (a `localhost` that a hosts
    // file points elsewhere is not loopback).
    if literal.unwrap_or(addr.ip()).to_canonical().is_loopback()
        && (literal.is_some() || name == "localhost")
    {
        return None;
    }
    if allow_private {
        let trusted = match literal {
            Some(ip) => is_private(ip.to_canonical()),
            // OpenClaw's break-glass takes any name that is not an address.
            None => true,
        };
        if trusted {
            return None;
        }
    }
    Some(format!(
        "{host} is not a loopback address, and plaintext ws:// would send the Gateway's secret \
         in clear; this tool sends it over ws:// only to 127.0.0.0/8, ::1 or localhost{}",
        if allow_private {
            ""
        } else {
            " (with OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1 also to a private address or a name)"
        }
    ))
}

/// OpenClaw's private-or-loopback ranges: IPv4 loopback, private, link-local and carrier-grade
/// NAT; IPv6 loopback, link-local, unique-local and site-local.
fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || in_v4(v4, Ipv4Addr::new(100, 64, 0, 0), 10)
        }
        IpAddr::V6(v6) => {
            let first = v6.segments()[0];
            v6.is_loopback()
                || (first & 0xffc0) == 0xfe80
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfec0
        }
    }
}

fn in_v4(ip: Ipv4Addr, net: Ipv4Addr, bits: u32) -> bool {
    let mask = u32::MAX << (32 - bits);
    u32::from(ip) & mask == u32::from(net) & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_only_unless_the_break_glass_is_set() {
        // (host, where it resolved, taken by default, taken with the break-glass)
        for (host, addr, by_default, with_variable) in [
            ("127.0.0.1", "127.0.0.1", true, true),
            ("127.5.5.5", "127.5.5.5", true, true),
            ("::1", "::1", true, true),
            ("::ffff:127.0.0.1", "::ffff:127.0.0.1", true, true),
            ("localhost", "127.0.0.1", true, true),
            ("LOCALHOST.", "::1", true, true),
            // Refused by default, taken with the break-glass as OpenClaw takes them.
            ("192.168.1.5", "192.168.1.5", false, true),
            ("10.1.2.3", "10.1.2.3", false, true),
            ("172.20.0.1", "172.20.0.1", false, true),
            ("100.64.0.1", "100.64.0.1", false, true),
            ("169.254.1.1", "169.254.1.1", false, true),
            ("fd00::1", "fd00::1", false, true),
            ("fe80::1", "fe80::1", false, true),
            ("gateway.local", "192.0.2.2", false, true),
            ("gw.example.com", "192.0.2.2", false, true),
            // Never: a public address, the unspecified one, a localhost resolved elsewhere.
            ("8.8.8.8", "8.8.8.8", false, false),
            ("192.0.2.2", "192.0.2.2", false, false),
            ("0.0.0.0", "0.0.0.0", false, false),
            ("2001:4860::1", "2001:4860::1", false, false),
            ("localhost", "192.0.2.2", false, true),
        ] {
            let addr = SocketAddr::new(addr.parse().unwrap(), 1);
            let why = refusal(host, &addr, false);
            assert_eq!(why.is_none(), by_default, "{host} at {addr}: {why:?}");
            if let Some(why) = why {
                assert!(why.contains(host) && why.contains("in clear"), "{why}");
            }
            let why = refusal(host, &addr, true);
            assert_eq!(why.is_none(), with_variable, "{host} at {addr}: {why:?}");
        }
    }
}
