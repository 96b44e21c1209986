// Package safehttp makes the HTTP clients avadata calls addresses with that
// someone else chose (NFT token URIs, webhook URLs): every connection,
// redirects included, is checked after name resolution, so such an address
// can never make the node reach its own loopback services or the
// operator's private network unless the operator allows it.
package safehttp

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrForbiddenAddress is a connection to an address the client may not
// reach.
var ErrForbiddenAddress = errors.New("address not allowed: loopback, private, link-local or otherwise not public")

// Options shape a client.
type Options struct {
	// Allowed says which resolved addresses may be reached (PublicAddress
	// in production).
	Allowed func(netip.Addr) bool
	// ConnectTimeout bounds a connection (TCP, then TLS).
	ConnectTimeout time.Duration
	// Timeout bounds a whole request: connection, redirects, headers and
	// body.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; 0: none, the
	// redirect itself is the response.
	MaxRedirects int
	// MaxIdleConns bounds the kept-alive connections.
	MaxIdleConns int
	// IdleConnTimeout closes a kept-alive connection unused that long (0:
	// kept until the client closes it), so connections to receivers that
	// are no longer called do not stay open.
	IdleConnTimeout time.Duration
}

// NewClient returns a client that reaches only what opts.Allowed allows.
func NewClient(opts Options) *http.Client {
	dialer := &net.Dialer{Timeout: opts.ConnectTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !opts.Allowed(ap.Addr().Unmap()) {
			return fmt.Errorf("%s: %w", address, ErrForbiddenAddress)
		}
		return nil
	}}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would hide the real destination from the check
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   opts.ConnectTimeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConns:          opts.MaxIdleConns,
		MaxIdleConnsPerHost:   opts.MaxIdleConns,
		IdleConnTimeout:       opts.IdleConnTimeout,
	}
	return &http.Client{
		Transport: transport,
		Timeout:   opts.Timeout,
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if opts.MaxRedirects == 0 {
				return http.ErrUseLastResponse
			}
			if len(via) >= opts.MaxRedirects {
				return errors.New("too many redirects")
			}
			return nil
		},
	}
}

// notPublic are the ranges beyond Go's own predicates that no public
// service answers on, or that carry an IPv4 address the check would not
// see: "this network", shared address space (carrier NAT), IETF protocol
// assignments, benchmarking, the IPv4 reserved block; IPv6 translation and
// tunnelling prefixes (NAT64, 6to4, Teredo, IPv4-compatible, SIIT), whose
// IPv4 side may be a private one, and the deprecated site-local block.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"),
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),
	netip.MustParsePrefix("64:ff9b:1::/48"),
	netip.MustParsePrefix("2002::/16"),
	netip.MustParsePrefix("2001::/32"),
	netip.MustParsePrefix("fec0::/10"),
	netip.MustParsePrefix("::/96"),
	netip.MustParsePrefix("::ffff:0:0:0/96"),
}

// PublicAddress reports whether a is a public unicast address: not
// loopback, private, link-local, unspecified, multicast or one of the
// special ranges above.
func PublicAddress(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsGlobalUnicast() || a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() {
		return false
	}
	for _, p := range notPublic {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// AnyAddress allows every address (the operator allowed private targets).
func AnyAddress(netip.Addr) bool { return true }
