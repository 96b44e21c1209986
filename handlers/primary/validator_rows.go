package primary

import (
	"context"
	"fmt"
	"sync"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// validatorRowsCache keeps every validation's row as listValidators reads
// them (bare: without delegations), as of one indexed P-chain height. The
// rows change only when the P writer commits a block, so while the height
// stands every request filters and sorts the same rows, and only the first
// one reads them: with thousands of validations that read is most of a
// listing's cost.
//
// The height is read before the rows: the follower reports a height once
// its block is committed, so rows read after it are at least that new, and
// a later height makes the next request read them again.
type validatorRowsCache struct {
	// mu is held while the rows are read, so that concurrent requests wait
	// for one read instead of each starting its own.
	mu     sync.Mutex
	height uint64
	filled bool
	rows   []pdata.IndexedStaker
}

// get returns every validation's row at the P-chain height the request
// reads (heights). The rows are shared: callers only read them.
func (c *validatorRowsCache) get(ctx context.Context, s *server, heights *api.Heights) ([]pdata.IndexedStaker, error) {
	reader, err := s.stakingReader()
	if err != nil {
		return nil, err
	}
	height, known := heights.Height(api.ChainStream(s.Network(), netinfo.P))
	c.mu.Lock()
	defer c.mu.Unlock()
	if known && c.filled && c.height == height {
		return c.rows, nil
	}
	rows, err := reader.Stakers(ctx, pdata.StakerQuery{Bare: true})
	if err != nil {
		return nil, fmt.Errorf("listing validators: %w", err)
	}
	c.rows, c.height, c.filled = rows, height, known
	return rows, nil
}
