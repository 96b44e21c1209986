package store

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// BenchmarkWebhookChangeHoldsTheChainLock changes one of 100 webhooks of
// a chain, each watching 10,000 addresses, and measures how long the
// change keeps that chain's commits waiting: a goroutine takes and lets go
// of the chain's commit lock in a loop, as the chain's writer would, and
// the longest wait it sees is the lock's longest hold by a change.
func BenchmarkWebhookChangeHoldsTheChainLock(b *testing.B) {
	const hooks, addresses = 100, 10_000
	ctx := context.Background()
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	require.NoError(b, s.StartStream(ctx, netinfo.C, StreamBlocks, 1))
	for i := range hooks {
		h := webhookdata.Webhook{ID: webhookdata.ID{byte(i), 1}, EventType: webhookdata.AddressActivity,
			Chain: netinfo.C, ChainID: "43112", Status: webhookdata.Active, FromHeight: 1}
		for j := range addresses {
			h.Metadata.Addresses = append(h.Metadata.Addresses, fmt.Sprintf("0x%020x%020x", i, j))
		}
		// Written directly: through CreateWebhook the set-up alone would
		// take minutes before the change was fast.
		require.NoError(b, s.db.Update(func(txn *badger.Txn) error { return writeWebhook(txn, h) }))
	}
	require.NoError(b, s.LoadWebhooks(ctx))

	var (
		stop     atomic.Bool
		longest  atomic.Int64
		contends sync.WaitGroup
	)
	contends.Add(1)
	go func() {
		defer contends.Done()
		for !stop.Load() {
			start := time.Now()
			s.chainLocks.lock(netinfo.C)()
			if d := int64(time.Since(start)); d > longest.Load() {
				longest.Store(d)
			}
			time.Sleep(50 * time.Microsecond) // a writer's work between commits
		}
	}()
	target := webhookdata.ID{byte(hooks / 2), 1}
	b.ResetTimer()
	for i := range b.N {
		_, err := s.UpdateWebhook(ctx, target, netinfo.C, 0, func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
			h.Name = fmt.Sprint(i)
			return h, nil
		})
		require.NoError(b, err)
	}
	b.StopTimer()
	stop.Store(true)
	contends.Wait()
	b.ReportMetric(float64(longest.Load())/float64(time.Millisecond), "lock-held-max-ms")
	require.Len(b, s.WebhookWatches().Chain(netinfo.C).Hooks, hooks)
}
