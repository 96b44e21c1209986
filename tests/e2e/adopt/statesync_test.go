//go:build e2e

package adopt

import (
	"context"
	"fmt"
	"math/big"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

const (
	// syncInterval is the serving node's subnet-evm state-sync commit
	// interval: it offers a summary at every multiple of it.
	syncInterval = 256
	// preSyncBlocks is how many subnet-evm blocks node 1 makes before the
	// second node joins: the summary is then at 2×syncInterval, and the
	// syncing node fetches only the syncInterval block bodies under it
	// (BlocksToFetch, 256), so blocks 1 to 256 are nowhere on it.
	preSyncBlocks = 2*syncInterval + 20
)

// TestAdoptStateSyncedNode: a second node joins the local network with
// state sync on for the subnet-evm chain and runs avadata with the default
// indexFrom (earliest-available). Node 1 offers a state summary every 256
// blocks (its chain config) and made a few hundred blocks of native
// transfers and ERC-20 activity before. Checked against the joining node's
// own eth API: it state-synced (an early block is null there, its earliest
// whole block is near the summary); avadata's historyFrom is that earliest
// block; the latest lists serve exactly the blocks, transactions and
// transfers from there on, activity after the sync included; requests
// about earlier blocks get a 4xx naming historyFrom; native and ERC-20
// balances equal eth_getBalance and balanceOf for addresses funded before
// and after the sync.
func TestAdoptStateSyncedNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	began := time.Now()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	dir := t.TempDir()
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(dir, "node1"),
		ChainConfig: harness.ChainConfig(), ExtraFlags: harness.NodeFlags(),
		SubnetEVMChainConfig: localnet.StateSyncServerChainConfig(syncInterval),
		Logf:                 t.Logf,
	})
	require.NoError(t, err)
	defer func() { require.NoError(t, net.Stop(context.Background())) }()
	chain := net.EVMChains()[1]
	require.Equal(t, localnet.SubnetEVMChainName, chain.Name)
	t.Logf("node 1 up in %s", time.Since(began).Round(time.Millisecond))

	// Before the sync: a token, holders and funded addresses, then enough
	// blocks for a summary above 256.
	step := time.Now()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	pre := newAddrs(1000, 3)
	post := newAddrs(2000, 3)
	token, deploy, err := c.Deploy(ctx, contracts.TestERC20(), "Adopt", "ADP")
	require.NoError(t, err)
	early, err := c.Transact(ctx, token, contracts.TestERC20(), "mint", nil, c.Address(), harness.Ether(1_000_000))
	require.NoError(t, err)
	for i, a := range pre {
		_, err := c.Transact(ctx, token, contracts.TestERC20(), "mint", nil, a, big.NewInt(int64(1000+i)))
		require.NoError(t, err)
		_, err = c.SendAndWait(ctx, evmtest.Tx{To: &a, Value: harness.Ether(int64(i + 1))})
		require.NoError(t, err)
	}
	fillBlocks(t, ctx, c, preSyncBlocks)
	head, err := c.BlockNumber(ctx)
	require.NoError(t, err)
	summary := head - head%syncInterval
	t.Logf("node 1: %d subnet-evm blocks in %s; summary at %d; token %s deployed in block %d",
		head, time.Since(step).Round(time.Millisecond), summary, token, deploy.BlockNumber)

	// The second node joins and state-syncs.
	step = time.Now()
	joined, err := net.Join(ctx, localnet.JoinConfig{
		DataDir: filepath.Join(dir, "node2"), ChainConfig: harness.ChainConfig(),
		ExtraFlags: harness.NodeFlags(), SubnetEVMChainConfig: localnet.StateSyncClientChainConfig(),
		Logf: t.Logf,
	})
	require.NoError(t, err)
	defer func() { require.NoError(t, joined.Stop(context.Background())) }()
	t.Logf("joined in %s: %s", time.Since(step).Round(time.Millisecond), joined.URI())
	require.True(t, dialNode(t, ctx, chain.RPCURL).servedWhole(t, ctx, 1), "node 1 does not serve block 1")
	node := dialNode(t, ctx, joined.EVMChains()[1].RPCURL)
	require.Nil(t, node.block(t, ctx, 1), "the joining node serves block 1: it did not state-sync")
	require.Nil(t, node.block(t, ctx, summary-syncInterval), "block %d (under the synced bodies) is served", summary-syncInterval)
	require.NotNil(t, node.block(t, ctx, summary), "the summary block %d is not served", summary)

	step = time.Now()
	base := joined.BaseURL()
	historyFrom := waitHistoryFrom(t, ctx, base, chain.Name, head)
	t.Logf("avadata on the joining node: historyFrom %d, indexed to %d in %s", historyFrom, head, time.Since(step).Round(time.Millisecond))
	require.Greater(t, historyFrom, uint64(1))
	require.Greater(t, historyFrom, summary-syncInterval, "historyFrom below the synced bodies")
	require.LessOrEqual(t, historyFrom, summary+1, "historyFrom above the summary's next block")
	require.True(t, node.servedWhole(t, ctx, historyFrom), "the node does not serve block %d (historyFrom) whole", historyFrom)
	require.False(t, node.servedWhole(t, ctx, historyFrom-1), "the node serves block %d, under historyFrom, whole", historyFrom-1)

	// After the sync: native transfers and ERC-20 activity, sent to node 1.
	step = time.Now()
	first := head + 1
	for i, a := range post {
		_, err := c.SendAndWait(ctx, evmtest.Tx{To: &a, Value: harness.Ether(int64(10 + i))})
		require.NoError(t, err)
		_, err = c.Transact(ctx, token, contracts.TestERC20(), "transfer", nil, a, big.NewInt(int64(500+i)))
		require.NoError(t, err)
	}
	_, err = c.Transact(ctx, token, contracts.TestERC20(), "transfer", nil, pre[0], big.NewInt(7))
	require.NoError(t, err)
	_, err = c.Transact(ctx, token, contracts.TestERC20(), "mint", nil, post[0], big.NewInt(9))
	require.NoError(t, err)
	_, err = c.SendAndWait(ctx, evmtest.Tx{To: &pre[1], Value: big.NewInt(12345)})
	require.NoError(t, err)
	last, err := c.BlockNumber(ctx)
	require.NoError(t, err)
	node.waitHead(t, ctx, last)
	harness.WaitIndexed(t, ctx, base, map[string]uint64{chain.Name: last})
	t.Logf("activity after the sync: blocks %d to %d, indexed in %s", first, last, time.Since(step).Round(time.Millisecond))

	truth := node.collect(t, ctx, historyFrom, last, token)
	evmURL := base + "/v1/chains/" + strconv.FormatUint(chain.EVMChainID, 10)
	t.Run("latest lists", func(t *testing.T) {
		checkLatestLists(t, ctx, evmURL, truth, c.Address(), post[0], token)
	})
	t.Run("earlier ranges", func(t *testing.T) {
		checkEarlierRanges(t, ctx, evmURL, historyFrom, c.Address(), early.TxHash, token)
	})
	// pre[1] and pre[2] moved the token only before historyFrom: the index
	// cannot know they hold it, so only a listErc20Balances naming the
	// contract surely finds their balance; without contractAddresses the
	// reply must not show it wrong (a holding it cannot see is missing,
	// never a wrong amount): the last subtest.
	movedSince := append([]common.Address{c.Address(), pre[0]}, post...)
	t.Run("balances", func(t *testing.T) {
		for _, a := range append(movedSince, pre[1:]...) {
			checkBalances(t, ctx, evmURL, node, a, token, last, slices.Contains(movedSince, a))
		}
	})
	t.Run("balances moved only before historyFrom", func(t *testing.T) {
		for _, a := range pre[1:] {
			checkErc20Balances(t, ctx, evmURL, node, a, token, last, false, strconv.FormatUint(historyFrom, 10))
		}
	})
	t.Logf("TestAdoptStateSyncedNode: %s in all", time.Since(began).Round(time.Millisecond))
}

// newAddrs are n fresh addresses from seed on.
func newAddrs(seed int64, n int) []common.Address {
	out := make([]common.Address, n)
	for i := range out {
		out[i] = common.BigToAddress(big.NewInt(seed + int64(i)))
	}
	return out
}

// fillBlocks sends one value transfer a block until the chain has n blocks.
func fillBlocks(t *testing.T, ctx context.Context, c *evmtest.Client, n uint64) {
	t.Helper()
	for i := int64(0); ; i++ {
		head, err := c.BlockNumber(ctx)
		require.NoError(t, err)
		if head >= n {
			return
		}
		to := common.BigToAddress(big.NewInt(3000 + i%11))
		_, err = c.SendAndWait(ctx, evmtest.Tx{To: &to, Value: big.NewInt(i + 1)})
		require.NoError(t, err)
	}
}

// waitHistoryFrom waits until avadata's /v1/status shows chain indexed up
// to height with a historyFrom, and returns that.
func waitHistoryFrom(t *testing.T, ctx context.Context, base, chain string, height uint64) uint64 {
	t.Helper()
	var last string
	for {
		var body struct {
			Chains []struct {
				Chain         string `json:"chain"`
				IndexedHeight uint64 `json:"indexedHeight"`
				HistoryFrom   uint64 `json:"historyFrom"`
				LastError     string `json:"lastError"`
			} `json:"chains"`
		}
		r := harness.Get(t, ctx, base+"/v1/status")
		if r.Status == 200 {
			r.Decode(t, &body)
			for _, c := range body.Chains {
				if c.Chain == chain {
					last = fmt.Sprintf("%+v", c)
					if c.IndexedHeight >= height && c.HistoryFrom > 0 {
						return c.HistoryFrom
					}
				}
			}
		} else {
			last = fmt.Sprintf("%d %s", r.Status, r.Body)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s not indexed to %d with a historyFrom: last status %s", chain, height, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// query is u with q's parameters.
func query(u string, q url.Values) string {
	if len(q) == 0 {
		return u
	}
	return u + "?" + q.Encode()
}
