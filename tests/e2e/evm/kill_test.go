package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"path/filepath"
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

// crashEVMBlocks is how many blocks the EVM kill test makes on the fast
// subnet-evm chain (≥ 500, as the issue asks).
const crashEVMBlocks = 520

// TestEVMKillDuringCatchUpResumesExactly makes a backlog of EVM blocks full
// of transfers and logs, lets avadata index it, then re-indexes it from
// scratch with several blocks per fetch and parallel fetchers, SIGKILLs the
// node in the middle of that catch-up (a kill may land inside a commit),
// restarts it and checks that the finished index serves exactly what the
// uninterrupted one did, and what the node's receipts say.
func TestEVMKillDuringCatchUpResumesExactly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	config["batchSize"], config["fetchers"] = 8, 4
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	chain := net.EVMChains()[1]

	sent := makeEVMBacklog(t, ctx, chain, crashEVMBlocks)
	head := sent.head
	target := map[string]uint64{chain.Name: head}
	base := net.ChainURL()
	harness.WaitIndexed(t, ctx, base, target)
	uninterrupted := evmSnapshot(t, ctx, base, chain, sent)
	require.Len(t, uninterrupted.ewoqTxs, len(sent.ewoqHashes), "every tx EWOQ sent is listed")

	killed := 0
	for attempt := 1; attempt <= 4 && killed < 2; attempt++ {
		require.NoError(t, net.Stop(ctx))
		harness.RemoveIndex(t, net.DataDir())
		if harness.RestartAndKillMidCatchUp(t, ctx, net, base, target) {
			killed++
			// Kill again while it resumes from the interrupted index.
			if harness.RestartAndKillMidCatchUp(t, ctx, net, base, target) {
				killed++
			}
		}
		t.Logf("attempt %d: %d kills during catch-up so far", attempt, killed)
	}
	require.Positive(t, killed, "never caught avadata in the middle of catching up")

	require.NoError(t, net.Restart(ctx))
	harness.WaitIndexed(t, ctx, base, target)
	resumed := evmSnapshot(t, ctx, base, chain, sent)
	require.Equal(t, uninterrupted, resumed)
}

// evmBacklog is what makeEVMBacklog sent.
type evmBacklog struct {
	head       uint64
	token      common.Address
	nft        common.Address
	ewoqHashes map[common.Hash]bool
}

// makeEVMBacklog sends bursts of ERC-20 mints, ERC-721 mints and value
// transfers until the chain has n blocks.
func makeEVMBacklog(t *testing.T, ctx context.Context, chain localnet.EVMChain, n uint64) evmBacklog {
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	out := evmBacklog{ewoqHashes: map[common.Hash]bool{}}
	var r *evmtest.Receipt
	out.token, r, err = c.Deploy(ctx, contracts.TestERC20(), "Crash", "CRS")
	require.NoError(t, err)
	out.ewoqHashes[r.TxHash] = true
	out.nft, r, err = c.Deploy(ctx, contracts.TestERC721(), "CrashNFT", "CNF")
	require.NoError(t, err)
	out.ewoqHashes[r.TxHash] = true
	for i := int64(0); ; i++ {
		head, err := c.BlockNumber(ctx)
		require.NoError(t, err)
		if head >= n {
			out.head = head
			return out
		}
		to := common.BigToAddress(big.NewInt(100 + i%7))
		hashes := []common.Hash{}
		for _, send := range []func() (common.Hash, error){
			func() (common.Hash, error) {
				return c.SendTransact(ctx, out.token, contracts.TestERC20(), "mint", nil, to, big.NewInt(i+1))
			},
			func() (common.Hash, error) {
				return c.SendTransact(ctx, out.nft, contracts.TestERC721(), "mint", nil, to)
			},
			func() (common.Hash, error) { return c.SendValue(ctx, to, big.NewInt(i+1)) },
		} {
			h, err := send()
			require.NoError(t, err)
			hashes = append(hashes, h)
			out.ewoqHashes[h] = true
		}
		_, err = c.WaitReceipts(ctx, hashes...)
		require.NoError(t, err)
	}
}

// evmIndexSnapshot is what the index serves of the backlog, page tokens
// left out (they are signed with a key the rebuilt index makes anew).
type evmIndexSnapshot struct {
	ewoqTxs        []json.RawMessage
	tokenTransfers []json.RawMessage
	nftTransfers   []json.RawMessage
	holders        []json.RawMessage
	totals         string
}

func evmSnapshot(t *testing.T, ctx context.Context, base string, chain localnet.EVMChain, sent evmBacklog) evmIndexSnapshot {
	t.Helper()
	id := fmt.Sprint(chain.EVMChainID)
	// Token names come from a background reader; wait for them so both
	// snapshots show the same thing.
	for _, contract := range []common.Address{sent.token, sent.nft} {
		harness.WaitDescribed(t, ctx, base+"/v1/chains/"+id+"/addresses/"+contract.Hex())
	}
	// So are the NFTs' URIs and metadata, which their transfers show; when
	// they were read differs between two indexes.
	harness.WaitTokensRead(t, ctx, base+"/v1/chains/"+id+"/nfts/collections/"+sent.nft.Hex()+"/tokens")
	s := evmIndexSnapshot{
		ewoqTxs:        harness.PageThrough(t, ctx, base+"/v1/chains/"+id+"/addresses/"+genesis.EWOQKey.EthAddress().Hex()+"/transactions", "transactions", 100),
		tokenTransfers: harness.PageThrough(t, ctx, base+"/v1/chains/"+id+"/tokens/"+sent.token.Hex()+"/transfers", "transfers", 100),
		nftTransfers:   harness.WithoutReadTimes(harness.PageThrough(t, ctx, base+"/v1/chains/"+id+"/tokens/"+sent.nft.Hex()+"/transfers", "transfers", 100)),
	}
	holdersURL := base + "/metrics/v2/chains/" + id + "/contracts/" + sent.nft.Hex() + "/nfts:listHolders"
	s.holders = harness.PageThrough(t, ctx, holdersURL, "addresses", 5000)
	r := harness.Get(t, ctx, holdersURL)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var totals struct {
		Holders int `json:"totalHolders"`
		Tokens  int `json:"totalTokens"`
	}
	r.Decode(t, &totals)
	s.totals = fmt.Sprintf("%d holders, %d tokens", totals.Holders, totals.Tokens)
	var listed []struct {
		Native struct {
			TxHash common.Hash `json:"txHash"`
		} `json:"nativeTransaction"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.ewoqTxs)), &listed))
	for _, tx := range listed {
		require.True(t, sent.ewoqHashes[tx.Native.TxHash], "listed tx %s was not sent by EWOQ", tx.Native.TxHash)
	}
	return s
}
