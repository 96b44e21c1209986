package evm

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The block tests' history: the shared fixtures (C-chain txs in blocks 10
// to 15, a subnet tx in block 3) with the blocks they sit in, C-chain
// blocks 1..15 and subnet blocks 1..3. BlockRef gives block n of either
// chain the same timestamp, so merged listings meet ties.

// fixtureBlock is block n of a chain holding txs transactions.
func fixtureBlock(n, txs, cumulative uint64) evmdata.BlockSummary {
	ref := handlertest.BlockRef(n)
	ms := ref.Timestamp*1000 + 500
	return evmdata.BlockSummary{
		BlockRef: ref, ParentHash: handlertest.HashN(0xb1, n-1), GasUsed: 21_000 * txs, GasLimit: 15_000_000,
		BlockGasCost: big.NewInt(0), TimestampMs: &ms, TxCount: txs,
		FeesSpent: new(big.Int).Mul(big.NewInt(int64(txs)), big.NewInt(1_000)), CumulativeTxs: cumulative,
	}
}

// addFixtureBlocks indexes the blocks of chain up to height, counting the
// fake's txs in each.
func addFixtureBlocks(backend *handlertest.Fakes, chain netinfo.Chain, from, height uint64) {
	var cumulative uint64
	for n := uint64(1); n <= height; n++ {
		var txs uint64
		for _, tx := range backend.EVM.Txs[chain] {
			if tx.Block.Number == n {
				txs++
			}
		}
		cumulative += txs
		if n >= from {
			backend.EVM.AddBlock(chain, fixtureBlock(n, txs, cumulative))
		}
	}
}

func withBlockFixtures(t *testing.T) *handlertest.Fakes {
	t.Helper()
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	addFixtureBlocks(backend, netinfo.C, 1, handlertest.FixtureHeight)
	addFixtureBlocks(backend, fakenet.SubnetChain, 1, 3)
	return backend
}

// arriveBlock indexes C-chain block height with one tx of Alice's.
func arriveBlock(backend *handlertest.Fakes, height uint64) {
	handlertest.Arrive(backend, height)
	addFixtureBlocks(backend, netinfo.C, height, height)
}

// blockNumbersOf lists the blockNumber of each block of a page.
func blockNumbersOf(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, b := range body["blocks"].([]any) {
		out = append(out, b.(map[string]any)["blockNumber"].(string))
	}
	return out
}

// nativeTxsOf lists "chainId/blockNumber/blockIndex" of each transaction of
// a ListNativeTransactionsResponse page.
func nativeTxsOf(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, x := range body["transactions"].([]any) {
		tx := x.(map[string]any)
		out = append(out, tx["chainId"].(string)+"/"+tx["blockNumber"].(string)+"/"+formatIndex(tx["blockIndex"]))
	}
	return out
}

func formatIndex(v any) string {
	f, _ := v.(float64)
	return big.NewInt(int64(f)).String()
}

// pageAll follows nextPageToken from path to the last page, calling
// between before each next page, and returns every page's items.
func pageAll(t *testing.T, srv *handlertest.API, path string, items func(*testing.T, map[string]any) []string, between func(page int)) []string {
	t.Helper()
	var all []string
	body := srv.GetBody(t, path)
	for page := 1; ; page++ {
		require.Less(t, page, 100, "paging does not end")
		all = append(all, items(t, body)...)
		if _, more := body["nextPageToken"]; !more {
			return all
		}
		if between != nil {
			between(page)
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
}
