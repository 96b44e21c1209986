package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// prunedStateHistory is how many recent blocks' state the pruned node
// keeps (coreth's state-history; the shared network keeps all).
const prunedStateHistory = 4

// TestEVMTokenBalancesPrunedNode runs a node of its own whose C-chain
// prunes old state, as a non-archive node does, and checks that a
// blockNumber whose state the node no longer has gets a 400 that says so
// (the node itself fails eth_call there), while a recent one is answered
// and equals balanceOf.
func TestEVMTokenBalancesPrunedNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	net := startPrunedNode(t, ctx)
	rpcURL := net.URI() + "/ext/bc/C/rpc"
	ewoq, err := evmtest.Dial(ctx, rpcURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer ewoq.Close()
	erc20 := contracts.TestERC20()
	token, r, err := ewoq.Deploy(ctx, erc20, "Pruned", "PRN")
	require.NoError(t, err)
	holder := common.HexToAddress("0x00000000000000000000000000000000000b0b01")
	r, err = ewoq.Transact(ctx, token, erc20, "mint", nil, holder, harness.Ether(3))
	require.NoError(t, err)
	old := r.BlockNumber
	// More blocks than the node keeps the state of.
	for i := range 2 * prunedStateHistory {
		r, err = ewoq.Transact(ctx, token, erc20, "mint", nil, holder, big.NewInt(int64(i+1)))
		require.NoError(t, err)
	}
	head := r.BlockNumber
	var cChain struct {
		BlockchainID string `json:"blockchainID"`
	}
	require.NoError(t, json.Unmarshal(harness.CallRPC(t, ctx, net.URI()+"/ext/info", "info.getBlockchainID", map[string]any{"alias": "C"}), &cChain))
	waitIndexedAt(t, ctx, net.BaseURL(), cChain.BlockchainID, head)

	// The node no longer answers at the old block, and does at the head.
	data, err := erc20.Pack("balanceOf", holder)
	require.NoError(t, err)
	call := map[string]any{"to": token, "data": hexutil.Bytes(data)}
	var out hexutil.Bytes
	err = ewoq.RPC().CallContext(ctx, &out, "eth_call", call, hexutil.Uint64(old))
	require.Error(t, err, "the pruned node answers eth_call at block %d (head %d)", old, head)
	t.Logf("eth_call at block %d of the pruned node: %v", old, err)
	require.NoError(t, ewoq.RPC().CallContext(ctx, &out, "eth_call", call, hexutil.Uint64(head)))
	want := new(big.Int).SetBytes(out)

	base := net.BaseURL() + "/v1/chains/43112/addresses/" + holder.Hex()
	for _, path := range []string{"/balances:listErc20", "/balances:listErc1155"} {
		u := fmt.Sprintf("%s%s?blockNumber=%d", base, path, old)
		r := harness.GetWithRetryAfter(t, ctx, u)
		requireAPIError(t, r, http.StatusBadRequest, false, "no longer has the state")
		requireAPIError(t, r, http.StatusBadRequest, false, fmt.Sprintf("blockNumber %d", old))
	}
	var page struct {
		Erc20 []struct {
			Address string `json:"address"`
			Balance string `json:"balance"`
		} `json:"erc20TokenBalances"`
	}
	r2 := harness.GetWithRetryAfter(t, ctx, fmt.Sprintf("%s/balances:listErc20?blockNumber=%d", base, head))
	require.Equal(t, http.StatusOK, r2.Status, "%s", r2.Body)
	require.NoError(t, json.Unmarshal(r2.Body, &page))
	require.Len(t, page.Erc20, 1, "%s", r2.Body)
	requireAddress(t, token, page.Erc20[0].Address, "token")
	harness.RequireDecimal(t, want, page.Erc20[0].Balance, "balance at the head")
}

// startPrunedNode starts a single-node network (no subnet-evm chain) whose
// C-chain prunes state older than prunedStateHistory blocks.
func startPrunedNode(t *testing.T, ctx context.Context) *localnet.Network {
	t.Helper()
	avalanchego, plugins, err := harness.Binaries()
	require.NoError(t, err)
	dir := t.TempDir()
	cfg := localnet.CChainConfig()
	cfg["pruning-enabled"] = true
	cfg["state-history"] = prunedStateHistory
	b, err := json.Marshal(cfg)
	require.NoError(t, err)
	cdir := filepath.Join(dir, "configs", "chains", "C")
	require.NoError(t, os.MkdirAll(cdir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cdir, "config.json"), b, 0o644))
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: plugins, DataDir: dir,
		ChainConfig: harness.ChainConfig(), ExtraFlags: harness.NodeFlags(), SkipSubnetEVM: true,
	})
	require.NoError(t, err, "starting the pruned node")
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := net.Stop(stopCtx); err != nil {
			t.Errorf("stopping the pruned node: %v", err)
		}
	})
	return net
}

// waitIndexedAt waits until the follower of blockchainID of the avadata at
// base has indexed height.
func waitIndexedAt(t *testing.T, ctx context.Context, base, blockchainID string, height uint64) {
	t.Helper()
	for {
		r := harness.GetWithRetryAfter(t, ctx, base+"/v1/status")
		if r.Status == http.StatusOK {
			var body struct {
				Chains []struct {
					BlockchainID  string `json:"blockchainId"`
					IndexedHeight uint64 `json:"indexedHeight"`
				} `json:"chains"`
			}
			r.Decode(t, &body)
			for _, c := range body.Chains {
				if c.BlockchainID == blockchainID && c.IndexedHeight >= height {
					return
				}
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata at %s did not index block %d of %s: %d %s", base, height, blockchainID, r.Status, r.Body)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
