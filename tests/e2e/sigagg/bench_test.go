package sigagg

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
)

// benchSigAggMessages is how many fresh off-chain messages the benchmark
// network knows. Each fresh iteration uses one up; at the default
// -benchtime (1 s per benchmark) the four benchmarks use a few thousand.
const benchSigAggMessages = 20_000

// benchSigAggCachedMessages cached messages are cycled through by the
// cached benchmarks, so that concurrent clients ask for different ones (the
// same message asked at once would share one collection instead).
const benchSigAggCachedMessages = 64

// BenchmarkSigAgg measures the aggregator through the node's HTTP API on
// its own 5-validator network (the shared network has one node and no
// validator sets): the time to a 67% quorum for a fresh message, which
// every validator is asked to sign, and for a cached one, which is
// answered without any network traffic; and requests per second from 16
// concurrent clients, for fresh and for cached messages. Every request
// must answer 200. Nodes and the benchmark share the machine's cores, so
// absolute numbers depend on it.
//
//	go test -count=1 -run '^$' -bench 'SigAgg' ./tests/e2e/
func BenchmarkSigAgg(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	on := startOffChainSigAggNet(b, ctx, benchSigAggMessages)
	cached := on.take(b, benchSigAggCachedMessages)
	for _, msg := range cached {
		on.mustAggregate(b, ctx, msg)
	}
	on.settle(b, ctx) // late answers included

	b.Run("FreshMessage", func(b *testing.B) {
		msgs := on.take(b, b.N)
		on.benchSequential(b, ctx, func(i int) *avalancheWarp.UnsignedMessage { return msgs[i] })
	})
	b.Run("CachedMessage", func(b *testing.B) {
		on.benchSequential(b, ctx, func(i int) *avalancheWarp.UnsignedMessage { return cached[i%len(cached)] })
	})
	b.Run("Fresh16Clients", func(b *testing.B) {
		msgs := on.take(b, b.N)
		on.benchConcurrent(b, ctx, 16, func(i int) *avalancheWarp.UnsignedMessage { return msgs[i] })
	})
	b.Run("Cached16Clients", func(b *testing.B) {
		on.benchConcurrent(b, ctx, 16, func(i int) *avalancheWarp.UnsignedMessage { return cached[i%len(cached)] })
	})
}

// mustAggregate asks for msg and fails unless it is signed.
func (on *offChainNet) mustAggregate(b *testing.B, ctx context.Context, msg *avalancheWarp.UnsignedMessage) {
	b.Helper()
	r, err := on.post(ctx, messageRequest(msg, nil))
	if err != nil {
		b.Fatal(err)
	}
	if r.Status != http.StatusOK {
		b.Fatalf("aggregating %s: %d %s", msg.ID(), r.Status, r.Body)
	}
}

// benchSequential asks for message(i), one request at a time, and reports
// the median and 99th percentile time to quorum next to the mean (ns/op).
func (on *offChainNet) benchSequential(b *testing.B, ctx context.Context, message func(int) *avalancheWarp.UnsignedMessage) {
	took := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		on.mustAggregate(b, ctx, message(i))
		took[i] = time.Since(start)
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
}

// benchConcurrent asks for message(0..b.N-1) from clients concurrent
// clients and reports requests per second.
func (on *offChainNet) benchConcurrent(b *testing.B, ctx context.Context, clients int, message func(int) *avalancheWarp.UnsignedMessage) {
	next := make(chan int, b.N)
	for i := range b.N {
		next <- i
	}
	close(next)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		failures []string
	)
	b.ResetTimer()
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := on.post(ctx, messageRequest(message(i), nil))
				if err == nil && r.Status != http.StatusOK {
					err = fmt.Errorf("%d %s", r.Status, r.Body)
				}
				if err != nil {
					mu.Lock()
					failures = append(failures, err.Error())
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(failures) > 0 {
		b.Fatalf("%d of %d requests failed, the first: %s", len(failures), b.N, failures[0])
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}
