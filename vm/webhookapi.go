package vm

import (
	"context"

	"go.uber.org/zap"

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

// NextHeight is one past the node's height of chain, read from the node at
// the time of the call; false when it is not known: before the chain's
// follower has read the node's head once (a height of 0 cannot tell that
// from a chain at genesis, and falling back to the index's next block
// would replay every block the index has yet to catch up on), or when the
// node does not answer now. The follower's last polled height is not
// enough: while it catches up it reads the head only once per window of
// batches, and after failed reads it backs off, so that height can be
// minutes old and a webhook would get the blocks of those minutes. A read
// now bounds the first block to what the node accepts after the call
// began; the store then takes the later of that and its own next block.
func (a webhookAPI) NextHeight(ctx context.Context, chain netinfo.Chain) (uint64, bool) {
	ix, err := a.vm.currentIndexer()
	if err != nil {
		return 0, false
	}
	head, known, err := ix.NodeHead(ctx, chain)
	if err != nil {
		a.vm.log.Debug("reading the node's height for a webhook", zap.Stringer("chain", chain), zap.Error(err))
		return 0, false
	}
	if !known {
		return 0, false
	}
	return head + 1, true
}

// webhooksAPIConfig is the webhooks key's part the API enforces.
func (c Config) webhooksAPIConfig() webhooks.Config {
	w := c.Webhooks
	return webhooks.Config{ManagementKeys: w.ManagementKeys, AllowPrivateTargets: w.AllowPrivateTargets,
		MaxWebhooks: w.MaxWebhooks, MaxAddresses: w.MaxAddresses}
}
