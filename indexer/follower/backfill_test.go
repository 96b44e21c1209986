package follower

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// evmFake is an EVM chain whose head and oldest served block the test moves.
type evmFake struct {
	mu     sync.Mutex
	head   uint64
	oldest uint64
}

func (s *evmFake) set(head, oldest uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.head, s.oldest = head, oldest
}

func (s *evmFake) Head(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.head, nil
}

func (s *evmFake) Earliest(context.Context) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.oldest, nil
}

func (s *evmFake) Fetch(_ context.Context, from uint64, max int) ([]*evmdata.Block, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*evmdata.Block
	for h := max64(from, s.oldest); h <= s.head && len(out) < max; h++ {
		to := common.BigToAddress(big.NewInt(int64(h % 3)))
		tx := evmdata.Tx{Hash: common.BigToHash(big.NewInt(int64(h))), From: common.HexToAddress("0xa11ce"), To: &to,
			Status: 1, Value: big.NewInt(1), GasUsed: 21000, GasPrice: big.NewInt(25)}
		out = append(out, &evmdata.Block{Number: h, Hash: common.BigToHash(big.NewInt(int64(1_000_000 + h))),
			ParentHash: common.BigToHash(big.NewInt(int64(1_000_000 + h - 1))),
			Timestamp:  1_700_000_000 + h, BaseFee: big.NewInt(25), Txs: []evmdata.Tx{tx}})
	}
	return out, nil
}

func max64(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// A chain indexed from the oldest block a node served is filled down to
// genesis once the node serves it, while the follower keeps indexing new
// blocks; the status shows it, and the block rows count every tx.
func TestBackfillFillsToGenesisWhileFollowing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	defer st.Close()
	m, err := NewMetrics(prometheus.NewRegistry())
	require.NoError(t, err)
	chain := netinfo.FirstRegistered
	src := &evmFake{}
	src.set(300, 250)
	cfg := Config{PollInterval: 5 * time.Millisecond, BatchSize: 9, Fetchers: 3, IndexFrom: EarliestAvailable}
	id := Identity{Chain: chain, Name: "subnet"}
	f := New(id, Source[*evmdata.Block](src), Sink[*evmdata.Block](st.EVMWriter(chain)), cfg, logging.NoLog{}, m)
	bf := NewBackfill(id, Source[*evmdata.Block](src), BackfillSink[*evmdata.Block](st.EVMWriter(chain)), cfg, logging.NoLog{})
	bf.SetRecheck(20 * time.Millisecond)
	f.SetBackfill(bf)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Add(2)
	go func() { defer wg.Done(); _ = f.Run(ctx) }()
	go func() { defer wg.Done(); _ = bf.Run(ctx) }()

	waitIndexed(t, f, 300)
	require.Equal(t, uint64(250), f.Status().HistoryFrom)
	require.Nil(t, f.Status().Backfill, "nothing to back-fill: no status")

	src.set(400, 1) // the node now serves the whole chain, and keeps accepting
	go func() {
		for h := uint64(401); h <= 500 && ctx.Err() == nil; h++ {
			src.set(h, 1)
			time.Sleep(time.Millisecond)
		}
	}()
	require.Eventually(t, func() bool {
		s := f.Status()
		return s.Backfill != nil && s.Backfill.State == BackfillDone && s.IndexedHeight == 500
	}, 20*time.Second, 5*time.Millisecond, "%+v", f.Status())
	s := f.Status()
	require.Equal(t, uint64(1), s.HistoryFrom)
	require.Equal(t, uint64(1), s.Backfill.FirstHeight)
	pending, err := st.BackfillPending(ctx, chain)
	require.NoError(t, err)
	require.False(t, pending)
	for _, h := range []uint64{1, 249, 250, 500} {
		b, ok, err := st.EVMBlock(ctx, chain, h)
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, h, b.CumulativeTxs, "block %d counts every tx from genesis", h)
	}
}

func TestBackfillTarget(t *testing.T) {
	for _, c := range []struct {
		from   IndexFrom
		oldest uint64
		want   uint64
	}{
		{IndexFrom{Genesis: true}, 1, 1},
		{IndexFrom{Genesis: true}, 700, 700}, // as far as the node serves
		{EarliestAvailable, 1, 1},
		{EarliestAvailable, 700, 700},
		{IndexFrom{Height: 300}, 1, 300},
		{IndexFrom{Height: 300}, 700, 700},
	} {
		require.Equal(t, c.want, backfillTarget(c.from, c.oldest), "%s, oldest %d", c.from, c.oldest)
	}
}
