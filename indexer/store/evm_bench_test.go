package store

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// benchTxs is how many synthetic transactions the store benchmarks index
// (AVADATA_BENCH_TXS; the target is 1M).
func benchTxs() int {
	if n, err := strconv.Atoi(os.Getenv("AVADATA_BENCH_TXS")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// syntheticBlocks makes blocks shaped like busy C-chain traffic: 20 txs a
// block, half plain transfers between 1,000 accounts, half ERC-20 transfers
// (one log each) of 10 tokens, with 68-byte inputs.
func syntheticBlocks(from uint64, count int) []*evmdata.Block {
	const perBlock = 20
	out := make([]*evmdata.Block, count)
	input := make([]byte, 68)
	for i := range out {
		n := from + uint64(i)
		txs := make([]evmdata.Tx, perBlock)
		for j := range txs {
			seq := int64(n)*perBlock + int64(j)
			fromAddr := common.BigToAddress(big.NewInt(1 + seq%1000))
			to := common.BigToAddress(big.NewInt(1 + (seq*7)%1000))
			tx := evmdata.Tx{Index: uint32(j), Hash: common.BigToHash(big.NewInt(seq)), Type: 2, From: fromAddr, To: &to,
				Nonce: uint64(seq), Value: big.NewInt(seq), Gas: 60000, MaxFeePerGas: big.NewInt(50e9),
				MaxPriorityFeePerGas: big.NewInt(1e9), Status: 1, GasUsed: 21000, EffectiveGasPrice: big.NewInt(26e9)}
			if j%2 == 1 {
				token := common.BigToAddress(big.NewInt(5000 + seq%10))
				tx.To, tx.Input, tx.GasUsed = &token, input, 51000
				tx.Transfers = []evmdata.TokenTransfer{{LogIndex: uint32(j), Token: token, Kind: evmdata.Erc20,
					From: fromAddr, To: to, Value: big.NewInt(seq)}}
			}
			txs[j] = tx
		}
		out[i] = &evmdata.Block{Number: n, Hash: common.BigToHash(big.NewInt(int64(n))), Timestamp: 1_700_000_000 + n,
			BaseFee: big.NewInt(25e9), GasUsed: 700000, GasLimit: 15e6, Txs: txs, Traced: true}
	}
	return out
}

// fillStore writes txs synthetic transactions in batches of 256 blocks.
func fillStore(b *testing.B, s *Store, txs int) {
	w := s.EVMWriter(evmChain)
	blocks := txs / 20
	for from := 1; from <= blocks; from += 256 {
		n := min(256, blocks-from+1)
		if err := w.Apply(context.Background(), syntheticBlocks(uint64(from), n), time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

func dirBytes(dir string) int64 {
	var total int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			total += info.Size()
		}
		return nil
	})
	return total
}

// BenchmarkEVMWrite measures the EVM writer alone (rows, indexes, cursor
// and TPS per commit) and the index's size per transaction.
func BenchmarkEVMWrite(b *testing.B) {
	txs := benchTxs()
	for range b.N {
		b.StopTimer()
		dir := b.TempDir()
		s, err := Open(dir, logging.NoLog{})
		require.NoError(b, err)
		b.StartTimer()
		fillStore(b, s, txs)
		b.StopTimer()
		require.NoError(b, s.Close()) // flushes the memtables, so the size is what stays
		b.ReportMetric(float64(dirBytes(dir))/float64(txs), "bytes/tx")
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*txs)/b.Elapsed().Seconds(), "tx/s")
}

// BenchmarkAddressTxsPage reads the first page (10 entries) of address
// listings from 32 goroutines over an index of benchTxs transactions.
func BenchmarkAddressTxsPage(b *testing.B) {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	defer s.Close()
	fillStore(b, s, benchTxs())
	ctx := context.Background()
	var mu sync.Mutex
	var latencies []time.Duration
	b.SetParallelism(max(1, 32/runtime.GOMAXPROCS(0))) // 32 concurrent readers
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			addr := common.BigToAddress(big.NewInt(int64(1 + i%1000)))
			start := time.Now()
			page, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: addr, Desc: true, Limit: 11})
			took := time.Since(start)
			if err != nil || len(page) != 11 {
				b.Errorf("page of %s: %d items, %v", addr, len(page), err)
				return
			}
			mu.Lock()
			latencies = append(latencies, took)
			mu.Unlock()
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(percentile(latencies, 0.99).Microseconds()), "p99-µs")
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	return sorted[int(p*float64(len(sorted)-1))]
}
