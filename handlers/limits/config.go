// Package limits bounds what one client can ask of the API: request rates
// per client address or API key, request body sizes, and the time one
// request may take.
package limits

import "net/netip"

// Defaults applied by Rates.WithDefaults to fields left at zero (or set
// negative).
//
// The rate limits are sized for one operator's own node, where the clients
// are the operator's own programs: one client paging every list endpoint to
// its end with the official SDK, one request after the other as fast as it
// can, must never see a 429 (the SDK does not retry a 429; it throws). A
// sequential client cannot go faster than one request per round trip
// through the node's HTTP server and its gRPC bridge to the plugin: the e2e
// test TestRateLimits/DefaultsLetOneClientPage, a Go client paging with
// pageSize=1 (faster than the SDK, which validates every reply), reaches
// about 760 requests/s on two shared cores, and the cheapest request
// (GET /v1/status) about 1,200/s. 5,000/s leaves room for a node four times
// faster per request than that, and a burst of 10,000 for a few lists paged
// in parallel; what the limit still stops is one client flooding the node
// with concurrent requests. A key earns five times as much, as the
// spec promises more to keyed clients. An operator who opens the node to
// the public lowers them (README, "Limits"). MaxClients bounds the memory of
// the per-address buckets: about 250 bytes each, so 2.5 MB at the default.
const (
	DefaultAnonymousRPS   = 5000.0
	DefaultAnonymousBurst = 10000
	DefaultKeyRPS         = 25000.0
	DefaultKeyBurst       = 50000
	DefaultMaxClients     = 10000
)

// Rates are the request rate limits. The zero value takes every default.
type Rates struct {
	// AnonymousRPS and AnonymousBurst size the bucket of each client
	// without an API key: one per client address (see clientaddr.go).
	AnonymousRPS   float64
	AnonymousBurst int
	// KeyRPS and KeyBurst size the bucket each known API key gets.
	KeyRPS   float64
	KeyBurst int
	// TrustedProxies are the direct peers whose X-Forwarded-For is believed.
	// Nil: loopback only (DefaultTrustedProxies); empty: nobody.
	TrustedProxies []netip.Prefix
	// TrustUnknownPeer believes X-Forwarded-For on requests whose direct
	// peer the node does not name (every plain HTTP/1.1 request; see
	// clientaddr.go), as if that peer were a trusted proxy.
	TrustUnknownPeer bool
	// MaxClients bounds how many per-address buckets are kept; beyond it
	// the least recently seen client's bucket is dropped.
	MaxClients int
}

// WithDefaults returns r with every unset limit at its default.
func (r Rates) WithDefaults() Rates {
	if r.AnonymousRPS <= 0 {
		r.AnonymousRPS = DefaultAnonymousRPS
	}
	if r.AnonymousBurst <= 0 {
		r.AnonymousBurst = DefaultAnonymousBurst
	}
	if r.KeyRPS <= 0 {
		r.KeyRPS = DefaultKeyRPS
	}
	if r.KeyBurst <= 0 {
		r.KeyBurst = DefaultKeyBurst
	}
	if r.TrustedProxies == nil {
		r.TrustedProxies = DefaultTrustedProxies()
	}
	if r.MaxClients <= 0 {
		r.MaxClients = DefaultMaxClients
	}
	return r
}

// DefaultTrustedProxies is loopback: a reverse proxy on the node's own host.
// A function, not a variable, so that no caller can change the default.
func DefaultTrustedProxies() []netip.Prefix {
	return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}
