package limits

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// Who is asking: the client address that anonymous rate limits are kept by.
//
// What the plugin sees of the connection depends on how the node passes the
// request over its gRPC bridge (avalanchego v1.14.2,
// vms/rpcchainvm/ghttp/http_client.go, Client.ServeHTTP): a plain HTTP/1.1
// request without an Upgrade header goes through HandleSimple, whose message
// (HandleSimpleHTTPRequest: method, URL, headers, body) has no field for the
// peer's address or the Host, so the plugin's request has an empty
// RemoteAddr (ghttp/http_server.go, Server.HandleSimple). Only HTTP/2
// requests (h2c or TLS) and requests with an Upgrade header take the full
// Handle path, which copies RemoteAddr. Headers always arrive, so a proxy's
// X-Forwarded-For does.
//
// So a request's client is:
//   - the rightmost X-Forwarded-For address not itself a trusted proxy, when
//     the direct peer is a trusted proxy (or is unknown and TrustUnknownPeer
//     is set): proxies append the address they got the request from, so
//     only the entries that trusted proxies appended can be believed, and
//     anything left of the rightmost untrusted entry may be forged;
//   - else the direct peer;
//   - else (no address: plain HTTP/1.1 without a trusted proxy) nobody in
//     particular: all such requests share one bucket.
//
// IPv6 clients are bucketed by /64, the block one host usually gets: keyed
// by full address, one host could take a fresh bucket per request.

// maxForwardedHops bounds how many X-Forwarded-For entries are looked at
// from the right: more trusted proxies than this in a row is a loop or an
// attack, and the header is client-controlled text of any length.
const maxForwardedHops = 16

// clientAddr is the bucket key of an anonymous client: an IPv4 address as
// a /32, an IPv6 block as a /64, or the zero Prefix for an unknown client.
type clientAddr struct {
	prefix netip.Prefix
	source api.ClientSource
}

// String names the client for messages.
func (c clientAddr) String() string {
	switch {
	case !c.prefix.IsValid():
		return "clients whose address the node does not pass on (plain HTTP/1.1 without a trusted proxy share one limit)"
	case c.prefix.Addr().Is4():
		return "client " + c.prefix.Addr().String()
	default:
		return "client " + c.prefix.String()
	}
}

// clientAddressing finds the client of a request; it is read-only.
type clientAddressing struct {
	trusted          []netip.Prefix
	trustUnknownPeer bool
}

// clientOf returns r's client (see the top of this file).
func (a clientAddressing) clientOf(r *http.Request) clientAddr {
	peer, peerKnown := parseHostAddr(r.RemoteAddr)
	client := clientAddr{source: api.SourceUnknownPeer}
	trustedHop := a.trustUnknownPeer
	if peerKnown {
		client = clientAddr{prefix: bucketPrefix(peer), source: api.SourcePeer}
		trustedHop = a.isTrusted(peer)
	}
	if !trustedHop {
		return client
	}
	entries := forwardedFor(r.Header)
	for i, hops := len(entries)-1, 0; i >= 0 && trustedHop && hops < maxForwardedHops; i, hops = i-1, hops+1 {
		addr, ok := parseHostAddr(entries[i])
		if !ok {
			break // garbage from the hop we trusted: it stays the client
		}
		client = clientAddr{prefix: bucketPrefix(addr), source: api.SourceForwarded}
		trustedHop = a.isTrusted(addr)
	}
	return client
}

func (a clientAddressing) isTrusted(addr netip.Addr) bool {
	for _, p := range a.trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// forwardedFor splits every X-Forwarded-For header line into its entries,
// in order (several lines count as one comma-separated list, RFC 9110 5.3).
func forwardedFor(h http.Header) []string {
	var entries []string
	for _, line := range h.Values("X-Forwarded-For") {
		for entry := range strings.SplitSeq(line, ",") {
			entries = append(entries, strings.TrimSpace(entry))
		}
	}
	return entries
}

// parseHostAddr reads "ip", "ip:port" or "[ipv6]:port", as RemoteAddr and
// X-Forwarded-For entries come, dropping any IPv6 zone and unmapping
// IPv4-mapped IPv6 addresses.
func parseHostAddr(s string) (netip.Addr, bool) {
	if s == "" {
		return netip.Addr{}, false
	}
	addr, err := netip.ParseAddr(s)
	if err != nil {
		addrPort, err := netip.ParseAddrPort(s)
		if err != nil {
			return netip.Addr{}, false
		}
		addr = addrPort.Addr()
	}
	return addr.WithZone("").Unmap(), true
}

// bucketPrefix is the bucket key of addr: /32 for IPv4, /64 for IPv6.
func bucketPrefix(addr netip.Addr) netip.Prefix {
	bits := 32
	if addr.Is6() {
		bits = 64
	}
	p, _ := addr.Prefix(bits) // cannot fail: bits fits the address family
	return p
}

// ParseTrustedProxies reads the trustedProxies config: each entry an IP
// address or a CIDR block.
func ParseTrustedProxies(entries []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(entries))
	for _, e := range entries {
		if p, err := netip.ParsePrefix(e); err == nil {
			out = append(out, p.Masked())
			continue
		}
		addr, err := netip.ParseAddr(e)
		if err != nil {
			return nil, fmt.Errorf("trustedProxies: %q is neither an IP address nor a CIDR block (e.g. 10.0.0.5 or 10.0.0.0/8)", e)
		}
		addr = addr.WithZone("").Unmap()
		out = append(out, netip.PrefixFrom(addr, addr.BitLen()))
	}
	return out, nil
}
