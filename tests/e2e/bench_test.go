package e2e

import (
	"context"
	"math/big"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/indexer/evmchain"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/evmtest"
)

// Catch-up benchmark settings: the C-chain blocks it needs
// (AVADATA_BENCH_C_BLOCKS) and how each pass reads them.
const (
	benchBatch    = 64
	benchFetchers = 4
	benchBurst    = 40 // txs sent at once, so blocks hold real transfers and logs
)

func benchCBlocks() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("AVADATA_BENCH_C_BLOCKS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 200
}

// ensureCBlocks sends bursts of ERC-20 and value transfers until the C-chain
// has n blocks, and returns the head and the number of transactions up to it.
func ensureCBlocks(b *testing.B, ctx context.Context, evm *nodeapi.EVMClient, n uint64) uint64 {
	c, err := evmtest.Dial(ctx, env.uri+"/ext/bc/C/rpc", genesis.EWOQKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	token, _, err := c.Deploy(ctx, contracts.TestERC20(), "Bench", "BNC")
	if err != nil {
		b.Fatal(err)
	}
	for {
		head, err := evm.BlockNumber(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if head >= n {
			return head
		}
		hashes := make([]common.Hash, 0, benchBurst)
		for i := range benchBurst {
			var h common.Hash
			if i%2 == 0 {
				h, err = c.SendTransact(ctx, token, contracts.TestERC20(), "mint", nil, common.BigToAddress(big.NewInt(int64(i+1))), big.NewInt(1000))
			} else {
				h, err = c.SendValue(ctx, common.BigToAddress(big.NewInt(int64(i+1))), big.NewInt(1))
			}
			if err != nil {
				b.Fatal(err)
			}
			hashes = append(hashes, h)
		}
		if _, err := c.WaitReceipts(ctx, hashes...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCChainCatchUp compares the EVM follower's catch-up (parallel
// fetch of blocks, receipts and traces; parse; ordered Badger writes with
// the cursor) with only fetching the same blocks with the same parallelism
// from the same node in the same run.
func BenchmarkCChainCatchUp(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	evm, err := nodeapi.DialEVM(ctx, env.uri, "C")
	if err != nil {
		b.Fatal(err)
	}
	defer evm.Close()
	head := ensureCBlocks(b, ctx, evm, benchCBlocks())
	src := evmchain.NewSource(evm, evmchain.DefaultOptions())
	txs := countTxs(b, ctx, src, head)
	b.Logf("C-chain: %d blocks, %d txs", head, txs)

	report := func(b *testing.B) {
		secs := b.Elapsed().Seconds()
		b.ReportMetric(float64(uint64(b.N)*head)/secs, "blocks/s")
		b.ReportMetric(float64(uint64(b.N)*txs)/secs, "tx/s")
	}
	b.Run("fetch-only", func(b *testing.B) {
		for range b.N {
			fetchAll(b, ctx, src, head)
		}
		report(b)
	})
	b.Run("follower", func(b *testing.B) {
		for range b.N {
			catchUpOnce(b, ctx, src, head)
		}
		report(b)
	})
}

func countTxs(b *testing.B, ctx context.Context, src *evmchain.Source, head uint64) uint64 {
	var txs uint64
	for from := uint64(1); from <= head; from += benchBatch {
		blocks, err := src.Fetch(ctx, from, int(min(benchBatch, head-from+1)))
		if err != nil {
			b.Fatal(err)
		}
		for _, blk := range blocks {
			txs += uint64(len(blk.Txs))
		}
	}
	return txs
}

// fetchAll fetches blocks 1..head with benchFetchers parallel workers.
func fetchAll(b *testing.B, ctx context.Context, src *evmchain.Source, head uint64) {
	ranges := make(chan uint64)
	var wg sync.WaitGroup
	for range benchFetchers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for from := range ranges {
				if _, err := src.Fetch(ctx, from, int(min(benchBatch, head-from+1))); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	for from := uint64(1); from <= head; from += benchBatch {
		ranges <- from
	}
	close(ranges)
	wg.Wait()
}

// catchUpOnce runs a follower on a fresh store until it reaches head.
func catchUpOnce(b *testing.B, ctx context.Context, src *evmchain.Source, head uint64) {
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
	cfg := follower.Config{PollInterval: time.Millisecond, BatchSize: benchBatch, Fetchers: benchFetchers}
	sink := follower.Sink[*evmdata.Block](st.EVMWriter(netinfo.C))
	f := follower.New(follower.Identity{Chain: netinfo.C, Name: "C"}, follower.Source[*evmdata.Block](src), sink, cfg, logging.NoLog{}, m)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	b.StartTimer()
	go func() { done <- f.Run(runCtx) }()
	for f.Status().IndexedHeight < head {
		select {
		case err := <-done:
			b.Fatalf("follower stopped: %v", err)
		case <-time.After(100 * time.Microsecond):
		}
	}
	b.StopTimer()
	stop()
	<-done
	if c, _ := st.Cursor(ctx, netinfo.C, store.StreamBlocks); c.NextHeight != head+1 {
		b.Fatalf("cursor %d after catching up to %d", c.NextHeight, head)
	}
	b.StartTimer()
}
