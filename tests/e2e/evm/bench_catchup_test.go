package evm

import (
	"context"
	"math/big"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmchain"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// benchBurst is how many txs ensureBlocks sends at once, so blocks hold
// real transfers and logs.
const benchBurst = 12

// benchBlocks is how many blocks the EVM catch-up benchmark needs
// (AVADATA_BENCH_BLOCKS). It runs on the local subnet-evm chain, whose
// blocks come ~20 ms apart; the C-chain's come 2 s apart on a fresh network
// (ACP-226), so 2,000 of them would take over an hour to make. Both chains
// go through the same source, follower and writer.
func benchBlocks() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("AVADATA_BENCH_BLOCKS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 2000
}

// benchChain is the fast EVM chain of the shared network.
func benchChain(b *testing.B) localnet.EVMChain {
	chains := env.Net(b).EVMChains()
	if len(chains) < 2 {
		b.Fatal("the local network has no subnet-evm chain")
	}
	return chains[1]
}

// ensureBlocks sends bursts of ERC-20 mints and value transfers until the
// chain has n blocks, and returns its head.
func ensureBlocks(b *testing.B, ctx context.Context, chain localnet.EVMChain, evm *nodeapi.EVMClient, n uint64) uint64 {
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
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
				h, err = c.SendTransact(ctx, token, contracts.TestERC20(), "mint", nil, common.BigToAddress(big.NewInt(int64(0x10000+i))), big.NewInt(1000))
			} else {
				h, err = c.SendValue(ctx, common.BigToAddress(big.NewInt(int64(0x10000+i))), big.NewInt(1))
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

// BenchmarkEVMCatchUp compares the EVM follower's catch-up (parallel fetch
// of blocks, receipts and traces; parse; ordered Badger writes with the
// cursor) with only fetching the same blocks with the same parallelism from
// the same node in the same run; the two alternate, each reporting its
// rate and CPU per block (BenchmarkEVMCatchUpFullBlocks).
func BenchmarkEVMCatchUp(b *testing.B) {
	b.StopTimer() // the meters time the runs alone, not making the blocks
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	chain := benchChain(b)
	evm, err := nodeapi.DialEVM(ctx, env.URI(b), chain.BlockchainID.String())
	if err != nil {
		b.Fatal(err)
	}
	defer evm.Close()
	head := ensureBlocks(b, ctx, chain, evm, benchBlocks())
	src := evmchain.NewSource(evm, evmchain.DefaultOptions())
	txs := countTxs(b, ctx, src, head)
	b.Logf("%s: %d blocks, %d txs", chain.Name, head, txs)

	fetch, follow := &harness.CPUMeter{Node: env.Net(b).PID()}, &harness.CPUMeter{Node: env.Net(b).PID()}
	for range b.N {
		fetch.Start(b)
		harness.FetchAll(b, ctx, src, head)
		fetch.Stop(b)
		harness.CatchUpOnce(b, ctx, netinfo.C, follower.Source[*evmdata.Block](src), head,
			func(st *store.Store) follower.Sink[*evmdata.Block] { return st.EVMWriter(netinfo.C) }, follow)
	}
	n := uint64(b.N)
	fetch.Report(b, "fetch-only", n*head)
	follow.Report(b, "follower", n*head)
	b.ReportMetric(float64(n*txs)/fetch.Wall.Seconds(), "fetch-only-tx/s")
	b.ReportMetric(float64(n*txs)/follow.Wall.Seconds(), "follower-tx/s")
	b.ReportMetric(fetch.Wall.Seconds()/follow.Wall.Seconds(), "ratio")
}

// BenchmarkEVMCatchUpFullBlocks is BenchmarkEVMCatchUp over the blocks of
// a busy chain: AVADATA_BENCH_FULL_BLOCKS blocks of AVADATA_BENCH_BLOCK_TXS
// transactions each (defaults 200 and 150; at least 100), most of them
// ERC-20 transfers, with ERC-721 mints and transfers, ERC-1155 transfers
// and value transfers, from 4 senders (bench_fullblocks_test.go). Both
// sides read only those blocks: the follower indexes from the first of
// them (IndexFrom), AVADATA_BENCH_FULL_BATCH blocks a fetch (fullBenchBatch).
// Fetch-only and follower runs alternate, so that whatever else the shared
// machine does (the node settling the blocks just made) weighs on both
// alike; each side reports its rate and its CPU per block, this process's
// and the node's. It is declared after BenchmarkEVMCatchUp so that, run
// together, the near-empty case's blocks 1..AVADATA_BENCH_BLOCKS come
// first and stay near-empty.
func BenchmarkEVMCatchUpFullBlocks(b *testing.B) {
	b.StopTimer() // the meters time the runs alone, not making the blocks
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	chain := benchChain(b)
	evm, err := nodeapi.DialEVM(ctx, env.URI(b), chain.BlockchainID.String())
	if err != nil {
		b.Fatal(err)
	}
	defer evm.Close()
	from, last := makeFullBlocks(b, ctx, chain, fullBenchBlocks(), fullBenchBlockTxs())
	src := evmchain.NewSource(evm, evmchain.DefaultOptions())
	stats := statsOf(b, ctx, src, from, last)
	blocks := last - from + 1
	batch := fullBenchBatch()
	b.Logf("%s: blocks %d..%d (%d), %d a fetch: %s", chain.Name, from, last, blocks, batch, stats)
	if stats.minTxs < fullBlockMinTxs || stats.failed > 0 {
		b.Fatalf("the blocks are not full blocks of successful txs: %s", stats)
	}

	fetch, follow := &harness.CPUMeter{Node: env.Net(b).PID()}, &harness.CPUMeter{Node: env.Net(b).PID()}
	for range b.N {
		fetch.Start(b)
		harness.FetchRange(b, ctx, src, from, last, batch)
		fetch.Stop(b)
		harness.CatchUpRange(b, ctx, netinfo.C, follower.Source[*evmdata.Block](src), from, last, batch,
			func(st *store.Store) follower.Sink[*evmdata.Block] { return st.EVMWriter(netinfo.C) }, follow)
	}
	n := uint64(b.N)
	fetch.Report(b, "fetch-only", n*blocks)
	follow.Report(b, "follower", n*blocks)
	b.ReportMetric(float64(n*stats.txs)/fetch.Wall.Seconds(), "fetch-only-tx/s")
	b.ReportMetric(float64(n*stats.txs)/follow.Wall.Seconds(), "follower-tx/s")
	b.ReportMetric(float64(stats.txs)/float64(blocks), "tx/block")
	b.ReportMetric(fetch.Wall.Seconds()/follow.Wall.Seconds(), "ratio")
}

// fullBenchBatch is how many full blocks a fetch reads, on both sides
// (AVADATA_BENCH_FULL_BATCH, default 8: 1,200 txs). With the near-empty
// case's 64, the 200 blocks would be 4 ranges, all fetched at once: the
// follower's time would be the fetch's plus writing nearly every block
// after it, the pipeline's fill and drain alone. A busy chain's catch-up
// runs over thousands of blocks, its writes overlapping the next fetches;
// 25 ranges measure that.
func fullBenchBatch() int { return int(envUint("AVADATA_BENCH_FULL_BATCH", 8)) }

func countTxs(b *testing.B, ctx context.Context, src *evmchain.Source, head uint64) uint64 {
	var txs uint64
	for from := uint64(1); from <= head; from += harness.BenchBatch {
		blocks, err := src.Fetch(ctx, from, int(min(harness.BenchBatch, head-from+1)))
		if err != nil {
			b.Fatal(err)
		}
		for _, blk := range blocks {
			txs += uint64(len(blk.Txs))
		}
	}
	return txs
}
