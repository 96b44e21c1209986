// Package indexer runs avadata's followers: one per followed chain, each
// moving the node's accepted blocks into the store. Subpackages hold the
// pieces along the data's path: nodeapi (the node's APIs), blockindex,
// pchain, xchain, cchain (reading and parsing each chain), follower (the
// catch-up/live loop) and store (the Badger index).
package indexer

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/cchain"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/xchain"
)

// restartDelay is how long a follower that failed waits before it restarts.
const restartDelay = 5 * time.Second

// Indexer owns the followers of the configured chains.
type Indexer struct {
	log       logging.Logger
	followers map[netinfo.Chain]*follower.Follower
}

// New creates followers of chains that read from client and write to st.
func New(chains []netinfo.Chain, client *nodeapi.Client, st *store.Store, cfg follower.Config,
	log logging.Logger, metrics *follower.Metrics,
) (*Indexer, error) {
	ix := &Indexer{log: log, followers: map[netinfo.Chain]*follower.Follower{}}
	for _, chain := range chains {
		src, err := newSource(chain, client, st)
		if err != nil {
			return nil, err
		}
		ix.followers[chain] = follower.New(src, st, cfg, log, metrics)
	}
	return ix, nil
}

func newSource(chain netinfo.Chain, client *nodeapi.Client, st *store.Store) (follower.Source, error) {
	switch chain {
	case netinfo.P:
		cursor, err := st.Cursor(netinfo.P)
		if err != nil {
			return nil, err
		}
		return pchain.NewSource(client.BlockIndex(netinfo.P), cursor.LastBlockTs), nil
	case netinfo.X:
		return xchain.NewSource(client.BlockIndex(netinfo.X))
	case netinfo.C:
		return cchain.NewSource(client), nil
	default:
		return nil, fmt.Errorf("no source for chain %s", chain)
	}
}

// Run runs every follower until ctx ends, restarting one that fails or
// panics after restartDelay.
func (ix *Indexer) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, f := range ix.followers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix.runFollower(ctx, f)
		}()
	}
	wg.Wait()
}

func (ix *Indexer) runFollower(ctx context.Context, f *follower.Follower) {
	for ctx.Err() == nil {
		err := runRecovered(ctx, f)
		if ctx.Err() != nil {
			return
		}
		ix.log.Error("follower stopped; restarting", zap.Stringer("chain", f.Chain()),
			zap.Duration("after", restartDelay), zap.Error(err))
		select {
		case <-ctx.Done():
		case <-time.After(restartDelay):
		}
	}
}

func runRecovered(ctx context.Context, f *follower.Follower) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("follower %s panicked: %v\n%s", f.Chain(), r, debug.Stack())
		}
	}()
	return f.Run(ctx)
}

// Statuses reports every follower, in netinfo.Chains order.
func (ix *Indexer) Statuses() []follower.Status {
	out := make([]follower.Status, 0, len(ix.followers))
	for _, chain := range netinfo.Chains {
		if f, ok := ix.followers[chain]; ok {
			out = append(out, f.Status())
		}
	}
	return out
}

// Pause pauses chain's follower.
func (ix *Indexer) Pause(chain netinfo.Chain) error {
	f, err := ix.follower(chain)
	if err == nil {
		f.Pause()
	}
	return err
}

// Resume resumes chain's follower.
func (ix *Indexer) Resume(chain netinfo.Chain) error {
	f, err := ix.follower(chain)
	if err == nil {
		f.Resume()
	}
	return err
}

func (ix *Indexer) follower(chain netinfo.Chain) (*follower.Follower, error) {
	f, ok := ix.followers[chain]
	if !ok {
		return nil, fmt.Errorf("chain %s is not followed", chain)
	}
	return f, nil
}
