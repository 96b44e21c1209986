package handlers

import (
	"net/netip"
	"time"
)

// Defaults applied by Config.withDefaults to fields left at zero (or set
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
	DefaultVersion        = "dev"
	// DefaultMaxBodyBytes bounds every request body. The largest body any
	// route takes is aggregateSignatures' warp message and justification,
	// far below 1 MiB.
	DefaultMaxBodyBytes = 1 << 20
	// DefaultRequestTimeout stays below the node's 30 s HTTP write timeout,
	// so a slow query ends with a 503 the client can read instead of a
	// connection the node cuts mid-reply.
	DefaultRequestTimeout = 20 * time.Second
)

// Config tunes the HTTP layer. The zero value is usable: every limit falls
// back to its Default* constant and no API key is known (so only anonymous
// requests are accepted).
type Config struct {
	// APIKeys are the keys that earn the higher, per-key rate limit. A request
	// carrying any other key is rejected with 401.
	APIKeys []string
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
	// MaxBodyBytes bounds every request body (413 beyond); routes may have
	// a smaller bound of their own.
	MaxBodyBytes int64
	// Version is reported by the index, /v1/status and the OpenAPI document.
	Version string
	// RequestTimeout bounds the time one request may take; every store read
	// runs under it. Zero or negative: DefaultRequestTimeout.
	RequestTimeout time.Duration
	// NativeTokens names the native token of EVM chains other than the
	// C-chain (whose token is AVAX), by EVM chain id. A chain without an
	// entry shows its chain name and the symbol "NATIVE".
	NativeTokens map[uint64]NativeToken
	// CuratedContracts holds operator-supplied contract metadata
	// (description, links, logo, ...); see LoadCuratedContracts. Nil: none.
	CuratedContracts CuratedContracts
	// Prices supplies token prices; nil means none, and every price field is
	// left out of the responses.
	Prices PriceSource
}

// NativeToken describes the native token of an EVM chain. Its decimals are
// always 18: EVM balances and values are counted in wei.
type NativeToken struct {
	Name        string
	Symbol      string
	LogoURI     string
	Description string
}

// withDefaults returns a copy of c with every unset field filled in, so the
// rest of the package never has to special-case zero values.
func (c Config) withDefaults() Config {
	if c.AnonymousRPS <= 0 {
		c.AnonymousRPS = DefaultAnonymousRPS
	}
	if c.AnonymousBurst <= 0 {
		c.AnonymousBurst = DefaultAnonymousBurst
	}
	if c.KeyRPS <= 0 {
		c.KeyRPS = DefaultKeyRPS
	}
	if c.KeyBurst <= 0 {
		c.KeyBurst = DefaultKeyBurst
	}
	if c.TrustedProxies == nil {
		c.TrustedProxies = DefaultTrustedProxies()
	}
	if c.MaxClients <= 0 {
		c.MaxClients = DefaultMaxClients
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.Version == "" {
		c.Version = DefaultVersion
	}
	if c.RequestTimeout <= 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	return c
}

// DefaultTrustedProxies is loopback: a reverse proxy on the node's own host.
// A function, not a variable, so that no caller can change the default.
func DefaultTrustedProxies() []netip.Prefix {
	return []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
}
