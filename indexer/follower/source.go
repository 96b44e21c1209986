package follower

import (
	"context"
	"time"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Source reads one chain's accepted blocks from the node.
type Source interface {
	Chain() netinfo.Chain
	// Head returns the height of the node's last accepted block (0 while
	// only genesis is accepted).
	Head(ctx context.Context) (uint64, error)
	// Fetch returns consecutive blocks starting at height from, at most max
	// of them; fewer (never a gap) when the node has fewer.
	Fetch(ctx context.Context, from uint64, max int) ([]store.BlockSummary, error)
}

// Sink is where a follower writes; *store.Store implements it.
type Sink interface {
	Cursor(chain netinfo.Chain) (store.Cursor, error)
	ApplyBlocks(chain netinfo.Chain, blocks []store.BlockSummary, now time.Time) error
}
