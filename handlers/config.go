package handlers

// Defaults applied by Config.withDefaults to fields left at zero (or set
// negative). The anonymous limits are deliberately modest: every client
// without a key shares one bucket (see ratelimit.go), so they bound the load
// the whole anonymous public can put on the node.
const (
	DefaultAnonymousRPS   = 20.0
	DefaultAnonymousBurst = 40
	DefaultKeyRPS         = 200.0
	DefaultKeyBurst       = 400
	DefaultVersion        = "dev"
)

// Config tunes the HTTP layer. The zero value is usable: every limit falls
// back to its Default* constant and no API key is known (so only anonymous
// requests are accepted).
type Config struct {
	// APIKeys are the keys that earn the higher, per-key rate limit. A request
	// carrying any other key is rejected with 401.
	APIKeys []string
	// AnonymousRPS and AnonymousBurst size the single bucket shared by all
	// requests without an API key.
	AnonymousRPS   float64
	AnonymousBurst int
	// KeyRPS and KeyBurst size the bucket each known API key gets.
	KeyRPS   float64
	KeyBurst int
	// Version is reported by the index, /v1/status and the OpenAPI document.
	Version string
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
	if c.Version == "" {
		c.Version = DefaultVersion
	}
	return c
}
