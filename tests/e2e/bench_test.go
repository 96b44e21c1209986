package e2e

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/indexer/cchain"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/store"
)

// benchCBlocks is how many C-chain blocks the catch-up benchmark needs
// (AVADATA_BENCH_C_BLOCKS). ACP-226 spaces back-to-back C blocks ~2 s
// apart on a local node, so making them costs about 2 s each.
func benchCBlocks() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("AVADATA_BENCH_C_BLOCKS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 30
}

// ensureCBlocks issues one C tx at a time until the chain has n blocks.
func ensureCBlocks(b *testing.B, ctx context.Context, client *nodeapi.Client, n uint64) uint64 {
	issuer := newTxIssuer(b, ctx, env.uri)
	for {
		head, err := client.EthBlockNumber(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if head >= n {
			return head
		}
		issuer.issueC(b, ctx, 1)
	}
}

// BenchmarkCChainCatchUp compares the C-chain follower's catch-up rate
// (fetch, parse, write to Badger with the cursor) with only fetching the
// same blocks from the node in the same batches.
func BenchmarkCChainCatchUp(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	client, err := nodeapi.New(env.uri)
	if err != nil {
		b.Fatal(err)
	}
	defer client.Close()
	head := ensureCBlocks(b, ctx, client, benchCBlocks())
	const batch = 256

	b.Run("fetch-only", func(b *testing.B) {
		for range b.N {
			for from := uint64(1); from <= head; from += batch {
				if _, err := client.EthBlocks(ctx, from, int(min(batch, head-from+1))); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(uint64(b.N)*head)/b.Elapsed().Seconds(), "blocks/s")
	})

	b.Run("follower", func(b *testing.B) {
		for range b.N {
			catchUpOnce(b, ctx, client, head, batch)
		}
		b.ReportMetric(float64(uint64(b.N)*head)/b.Elapsed().Seconds(), "blocks/s")
	})
}

// catchUpOnce runs a follower on a fresh store until it reaches head.
func catchUpOnce(b *testing.B, ctx context.Context, client *nodeapi.Client, head uint64, batch int) {
	b.StopTimer()
	st, err := store.Open(b.TempDir(), logging.NoLog{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m, err := follower.NewMetrics(prometheus.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	f := follower.New(cchain.NewSource(client), st, follower.Config{PollInterval: time.Millisecond, BatchSize: batch}, logging.NoLog{}, m)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	b.StartTimer()
	go func() {
		defer close(done)
		_ = f.Run(runCtx)
	}()
	for f.Status().IndexedHeight < head {
		time.Sleep(100 * time.Microsecond)
	}
	b.StopTimer()
	stop()
	<-done
	if c, _ := st.Cursor(netinfo.C); c.NextHeight != head+1 {
		b.Fatalf("cursor %d after catching up to %d", c.NextHeight, head)
	}
	b.StartTimer()
}
