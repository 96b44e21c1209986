package vm

import (
	"errors"
	"slices"
)

// Webhooks: the management API (handlers/webhooks) keeps the records in the
// index, the chain writers put the events of each block into the outbox in
// the block's own commit (indexer/store), and the delivery runner
// (handlers/webhooks/delivery) sends them until Shutdown (vm.ctx); what is
// not yet delivered is sent after the next start.

// WebhooksConfig is the webhooks key; zero values take the defaults of the
// packages that use them (README.md lists them).
type WebhooksConfig struct {
	// ManagementKeys are the API keys that may create and change webhooks
	// and read or rotate the shared secret. They are accepted API keys
	// like apiKeys; a key of apiKeys alone may only list and read
	// webhooks (403 on the rest).
	ManagementKeys []string `json:"managementKeys"`
	// AllowPrivateTargets lets webhook URLs resolve to loopback, private
	// and link-local addresses (a receiver beside the node, tests).
	AllowPrivateTargets bool `json:"allowPrivateTargets"`
	// MaxWebhooks bounds the active webhooks; MaxAddresses the addresses
	// (keys) of one webhook.
	MaxWebhooks  int `json:"maxWebhooks"`
	MaxAddresses int `json:"maxAddresses"`
	// MaxAge is how long deliveries of a webhook may keep failing before
	// it is made inactive, with the reason in its record.
	MaxAge Duration `json:"maxAge"`
	// ConnectTimeout bounds connecting to a receiver (TCP and TLS);
	// ResponseTimeout bounds one delivery from its start to the end of the
	// receiver's answer.
	ConnectTimeout  Duration `json:"connectTimeout"`
	ResponseTimeout Duration `json:"responseTimeout"`
	// Concurrency bounds the deliveries in flight at once, over every
	// webhook (each webhook has at most one: its events go in order).
	Concurrency int `json:"concurrency"`
}

func (c WebhooksConfig) validate() error {
	if c.MaxWebhooks < 0 || c.MaxAddresses < 0 || c.Concurrency < 0 {
		return errors.New("webhooks: maxWebhooks, maxAddresses and concurrency must not be negative")
	}
	if c.MaxAge < 0 || c.ConnectTimeout < 0 || c.ResponseTimeout < 0 {
		return errors.New("webhooks: maxAge, connectTimeout and responseTimeout must not be negative")
	}
	for _, k := range c.ManagementKeys {
		if k == "" {
			return errors.New("webhooks: managementKeys holds an empty key")
		}
	}
	return nil
}

// acceptedAPIKeys are every key a request may carry: apiKeys and the
// webhook management keys.
func (c Config) acceptedAPIKeys() []string {
	keys := slices.Clone(c.APIKeys)
	for _, k := range c.Webhooks.ManagementKeys {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}
