package vm

import (
	"github.com/avadata/avadata/handlers/webhooks"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// The webhook management API keeps its records in the index; the VM adds
// the node's heights, so a new webhook's events begin with the first block
// the node accepts after its creation.

var _ webhooks.Backend = webhookAPI{}

// webhookAPI is the webhook operations' backend.
type webhookAPI struct {
	*store.Store
	vm *VM
}

// NextHeight is one past the node's height of chain as its follower last
// polled it; 0 before the follower has (the store then bounds a new
// webhook's first height by the index's next block).
func (a webhookAPI) NextHeight(chain netinfo.Chain) uint64 {
	for _, st := range a.vm.Statuses() {
		if st.Chain == chain && st.NodeHeight > 0 {
			return st.NodeHeight + 1
		}
	}
	return 0
}

// webhooksAPIConfig is the webhooks key's part the API enforces.
func (c Config) webhooksAPIConfig() webhooks.Config {
	w := c.Webhooks
	return webhooks.Config{ManagementKeys: w.ManagementKeys, AllowPrivateTargets: w.AllowPrivateTargets,
		MaxWebhooks: w.MaxWebhooks, MaxAddresses: w.MaxAddresses}
}
