package webhooks

import "net"

// Config is the webhooks chain config key's part the API enforces; zero
// values take the defaults below.
type Config struct {
	// ManagementKeys may create and change webhooks and read or rotate
	// the secret; any other accepted key may only read.
	ManagementKeys []string
	// AllowPrivateTargets accepts URLs whose host resolves to a loopback,
	// private, link-local or otherwise non-public address.
	AllowPrivateTargets bool
	// MaxWebhooks bounds the active webhooks, MaxAddresses the addresses
	// (keys) of one webhook.
	MaxWebhooks  int
	MaxAddresses int
	// Resolver looks URL hosts up; nil is net.DefaultResolver.
	Resolver Resolver
}

// Defaults (README.md, configuration).
const (
	defaultMaxWebhooks  = 100
	defaultMaxAddresses = 10_000
)

// recordsPerActive bounds the stored records, active or not, to this
// many times MaxWebhooks: deactivation keeps a record (no operation
// deletes one), so without it a client could grow the index for ever by
// creating and deactivating. An inactive webhook is reused by updating
// it (url, name, status) instead of creating another.
const recordsPerActive = 10

func (c Config) withDefaults() Config {
	if c.MaxWebhooks == 0 {
		c.MaxWebhooks = defaultMaxWebhooks
	}
	if c.MaxAddresses == 0 {
		c.MaxAddresses = defaultMaxAddresses
	}
	if c.Resolver == nil {
		c.Resolver = net.DefaultResolver
	}
	return c
}

// maxRecords bounds the stored records.
func (c Config) maxRecords() int { return recordsPerActive * c.MaxWebhooks }
