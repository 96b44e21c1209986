package follower

import (
	"context"
	"time"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Source reads one chain's accepted blocks from the node. Fetch must be
// stateless (no state carried from one call to the next), so that fetches of
// different ranges can run in parallel and a retry can never stamp a block
// with state from a later one.
type Source[B chaindata.Block] interface {
	// Head returns the height of the node's last accepted block (0 while
	// only genesis is accepted).
	Head(ctx context.Context) (uint64, error)
	// Fetch returns consecutive blocks starting at height from, at most max
	// of them; fewer (never a gap) when the node has fewer.
	Fetch(ctx context.Context, from uint64, max int) ([]B, error)
}

// Sink is where a follower writes: one of the store's per-domain writers.
type Sink[B chaindata.Block] interface {
	Cursor(ctx context.Context) (store.Cursor, error)
	// Apply writes consecutive blocks starting at the cursor and advances
	// it; it refuses blocks that do not start there (store.ErrNotContiguous).
	Apply(ctx context.Context, blocks []B, now time.Time) error
	// Start makes a stream never written begin at height first (the
	// store's StartStream).
	Start(ctx context.Context, first uint64) error
}

// Identity names a follower's chain in status, logs and metrics.
type Identity struct {
	Chain        netinfo.Chain
	Name         string // "P", "X", "C" or the chain's name
	BlockchainID string
}
