package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// A chain's index need not begin at genesis. On a node that state-synced a
// chain, or prunes its blocks, the follower starts where the node's history
// does (indexFrom), and the blocks stream's cursor records that first
// height (Cursor.FirstHeight) beside the next one: the index holds every
// block from the first height to the last indexed, never a gap. Readers
// ask HistoryFrom before answering anything a missing prefix could change.
// A back-fill behind the follower lowers the first height toward genesis,
// writing older blocks under the same chain lock the follower commits
// under, so the two never interleave inside one chain.

// chainLocks serialise the commits of one chain's writers (the follower
// and a back-fill), so that neither overwrites what the other just read.
type chainLocks struct {
	locks [256]sync.Mutex // by netinfo.Chain
}

func (l *chainLocks) lock(chain netinfo.Chain) func() {
	m := &l.locks[chain]
	m.Lock()
	return m.Unlock
}

// ErrStreamStarted means StartStream found the stream written already.
var ErrStreamStarted = errors.New("the stream has been written already")

// StartStream makes a stream that was never written begin at height first
// (at least 1): its cursor says first is both the next height and the
// first one held. A stream already started at first is left as it is; one
// started elsewhere is ErrStreamStarted.
func (s *Store) StartStream(ctx context.Context, chain netinfo.Chain, stream Stream, first uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	first = max(first, 1)
	defer s.chainLocks.lock(chain)()
	err := s.db.Update(func(txn *badger.Txn) error {
		c, err := readCursor(txn, chain, stream)
		if err != nil {
			return err
		}
		if !c.Fresh {
			if c.FirstHeight == first {
				return nil
			}
			return fmt.Errorf("%w (it holds heights from %d, not %d)", ErrStreamStarted, c.FirstHeight, first)
		}
		return txn.Set(cursorKey(chain, stream), Cursor{NextHeight: first, FirstHeight: first}.encode())
	})
	if err != nil {
		return fmt.Errorf("starting %s stream %d at height %d: %w", chain, stream, first, err)
	}
	if stream == StreamBlocks {
		s.historyFrom[chain].Store(first)
		s.running.set(chain, nil)
	}
	return nil
}

// HistoryFrom is the first block height of chain the index holds: 1 when
// it holds the chain from genesis (or holds nothing of it yet).
func (s *Store) HistoryFrom(ctx context.Context, chain netinfo.Chain) (uint64, error) {
	if h := s.historyFrom[chain].Load(); h != 0 {
		return h, nil
	}
	c, err := s.Cursor(ctx, chain, StreamBlocks)
	if err != nil {
		return 0, fmt.Errorf("reading where %s's history starts: %w", chain, err)
	}
	if !c.Fresh {
		// A fresh stream may still be started higher: only a written one
		// is remembered. Only into an empty cache: a back-fill that
		// committed after this read lowered the first height and noted
		// it, and storing this older height over it would keep refusing
		// blocks the index holds until its next commit (never, after its
		// last).
		s.historyFrom[chain].CompareAndSwap(0, c.FirstHeight)
	}
	return c.FirstHeight, nil
}

// forgetHistoryFrom drops chain's cached first height (after a commit
// that may or may not have lowered it): the next HistoryFrom reads it.
func (s *Store) forgetHistoryFrom(chain netinfo.Chain) {
	s.historyFrom[chain].Store(0)
}

// noteHistoryFrom records a first height a commit wrote (a back-fill
// lowering it).
func (s *Store) noteHistoryFrom(chain netinfo.Chain, first uint64) {
	s.historyFrom[chain].Store(first)
}

// runningStates caches RunningStateFrom per chain: every EVM reply that
// shows a cumulative count or NFT holdings asks it. A writer that changes
// it (a back-fill or re-derive commit, a stream's start) calls set after
// its commit, which moves the chain's generation on; an answer is served
// only while the generation it was read at is the chain's, so one a
// reader read before a commit is never served after it.
type runningStates struct {
	states [256]atomic.Pointer[runningState] // by netinfo.Chain; nil: unknown
	gens   [256]atomic.Uint64
}

type runningState struct {
	from uint64
	ok   bool
	gen  uint64 // the chain's generation it was read or written at
}

func (r *runningStates) get(chain netinfo.Chain) *runningState {
	rs := r.states[chain].Load()
	if rs == nil || rs.gen != r.gens[chain].Load() {
		return nil
	}
	return rs
}

func (r *runningStates) generation(chain netinfo.Chain) uint64 { return r.gens[chain].Load() }

// keep records what a reader read at generation gen.
func (r *runningStates) keep(chain netinfo.Chain, gen uint64, rs runningState) {
	rs.gen = gen
	r.states[chain].Store(&rs)
}

// set records what a writer's commit made the running state (nil:
// unknown, read again).
func (r *runningStates) set(chain netinfo.Chain, rs *runningState) {
	gen := r.gens[chain].Add(1)
	if rs != nil {
		rs.gen = gen
	}
	r.states[chain].Store(rs)
}
