package evm

import (
	"context"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// latencyPoll is how often both sides are polled; it bounds the resolution
// of the measurement.
const latencyPoll = time.Millisecond

// BenchmarkEVMAcceptedToQueryable measures, per transaction on each EVM
// chain, the time from the node answering its receipt (the block is accepted)
// to avadata answering it by hash (the block is indexed): the live-following
// latency the newHeads subscription is there to keep small.
func BenchmarkEVMAcceptedToQueryable(b *testing.B) {
	for _, chain := range env.Net(b).EVMChains() {
		b.Run(chain.Name, func(b *testing.B) { benchAcceptedToQueryable(b, chain) })
	}
}

func benchAcceptedToQueryable(b *testing.B, chain localnet.EVMChain) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	chainID := strconv.FormatUint(chain.EVMChainID, 10)
	base := env.Base(b)
	var latencies []time.Duration
	for i := range b.N {
		hash, err := c.SendValue(ctx, common.BigToAddress(big.NewInt(int64(7000+i))), big.NewInt(1))
		if err != nil {
			b.Fatal(err)
		}
		accepted := waitUntil(b, ctx, func() bool {
			r, err := c.Receipt(ctx, hash)
			return err == nil && r != nil
		})
		queryable := waitUntil(b, ctx, func() bool { return avadataHasTx(ctx, base, chainID, hash) })
		latencies = append(latencies, queryable.Sub(accepted))
	}
	slices.Sort(latencies)
	b.ReportMetric(float64(latencies[len(latencies)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(latencies[(len(latencies)-1)*99/100].Microseconds())/1000, "p99-ms")
}

func waitUntil(b *testing.B, ctx context.Context, done func() bool) time.Time {
	for !done() {
		select {
		case <-ctx.Done():
			b.Fatal(ctx.Err())
		case <-time.After(latencyPoll):
		}
	}
	return time.Now()
}

// avadataHasTx reports whether the avadata at base serves the transaction.
func avadataHasTx(ctx context.Context, base, chainID string, hash common.Hash) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/chains/"+chainID+"/transactions/"+hash.Hex(), nil)
	if err != nil {
		return false
	}
	resp, err := harness.HTTPClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
