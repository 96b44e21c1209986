//go:build e2e

package adopt

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
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

// activity sends EWOQ's mixed traffic on one EVM chain: value transfers,
// ERC-20 mints, ERC-721 mints to EWOQ then transfers away (so ownership
// changes hands), ERC-1155 mints to EWOQ then part transfers. Several
// goroutines may not share it; one round at a time.
type activity struct {
	c       *evmtest.Client
	token   common.Address // ERC-20
	nft     common.Address // ERC-721
	multi   common.Address // ERC-1155
	round   int64
	holders []common.Address
}

func newActivity(t *testing.T, ctx context.Context, chain localnet.EVMChain) *activity {
	t.Helper()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	a := &activity{c: c}
	for i := range 5 {
		a.holders = append(a.holders, common.BigToAddress(big.NewInt(int64(500+i))))
	}
	a.token, _, err = c.Deploy(ctx, contracts.TestERC20(), "Backfill", "BKF")
	require.NoError(t, err)
	a.nft, _, err = c.Deploy(ctx, contracts.TestERC721(), "BackfillNFT", "BNF")
	require.NoError(t, err)
	a.multi, _, err = c.Deploy(ctx, contracts.TestERC1155(), "https://avadata.invalid/erc1155/{id}.json")
	require.NoError(t, err)
	return a
}

// roundOnce sends one round and waits for its receipts.
func (a *activity) roundOnce(ctx context.Context) error {
	i := a.round
	a.round++
	ewoq := a.c.Address()
	to := a.holders[i%int64(len(a.holders))]
	sends := []func() (common.Hash, error){
		func() (common.Hash, error) { return a.c.SendValue(ctx, to, big.NewInt(i+1)) },
		func() (common.Hash, error) {
			return a.c.SendTransact(ctx, a.token, contracts.TestERC20(), "mint", nil, to, big.NewInt(i+1))
		},
		func() (common.Hash, error) {
			return a.c.SendTransact(ctx, a.nft, contracts.TestERC721(), "mint", nil, ewoq)
		},
		func() (common.Hash, error) {
			return a.c.SendTransact(ctx, a.multi, contracts.TestERC1155(), "mint", nil, ewoq, big.NewInt(i%3), big.NewInt(5))
		},
	}
	if err := a.send(ctx, sends); err != nil {
		return err
	}
	out, err := a.c.Call(ctx, a.nft, contracts.TestERC721(), "totalMinted")
	if err != nil {
		return err
	}
	minted := out[0].(*big.Int)
	// EWOQ gives two of every three NFTs it mints away (it keeps the third),
	// and part of each ERC-1155 mint: owners and balances change hands.
	moves := []func() (common.Hash, error){
		func() (common.Hash, error) {
			return a.c.SendTransact(ctx, a.multi, contracts.TestERC1155(), "safeTransferFrom", nil,
				ewoq, to, big.NewInt(i%3), big.NewInt(2), []byte{})
		},
	}
	if i%3 != 2 {
		moves = append(moves, func() (common.Hash, error) {
			return a.c.SendTransact(ctx, a.nft, contracts.TestERC721(), "transferFrom", nil, ewoq, to, minted)
		})
	}
	return a.send(ctx, moves)
}

func (a *activity) send(ctx context.Context, sends []func() (common.Hash, error)) error {
	var hashes []common.Hash
	for _, send := range sends {
		h, err := send()
		if err != nil {
			return err
		}
		hashes = append(hashes, h)
	}
	_, err := a.c.WaitReceipts(ctx, hashes...)
	return err
}

// recover waits for the node to answer again after a round failed (it was
// stopped or killed) and takes the nonce from it (a stopped node forgets
// its mempool).
func (a *activity) recover(ctx context.Context, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-time.After(200 * time.Millisecond):
		}
		if a.c.Resync(ctx) == nil {
			return
		}
	}
}

// until sends rounds until the chain has n blocks and returns its head.
func (a *activity) until(t *testing.T, ctx context.Context, n uint64) uint64 {
	t.Helper()
	for {
		head, err := a.c.BlockNumber(ctx)
		require.NoError(t, err)
		if head >= n {
			return head
		}
		require.NoError(t, a.roundOnce(ctx))
	}
}

// indexSnapshot is what an index serves of the chain: every block (with
// its cumulative tx count), EWOQ's txs, every transfer of the three
// tokens, the NFT collections' tokens (with owners) and holders with their
// totals. Page tokens are left out (signed with a key each index makes
// anew), and so are NFT metadata read times.
type indexSnapshot struct {
	Blocks         []json.RawMessage
	EWOQTxs        []json.RawMessage
	TokenTransfers []json.RawMessage
	NFTTransfers   []json.RawMessage
	MultiTransfers []json.RawMessage
	NFTTokens      []json.RawMessage
	MultiTokens    []json.RawMessage
	NFTHolders     []json.RawMessage
	MultiHolders   []json.RawMessage
	Totals         []string
}

func snapshot(t *testing.T, ctx context.Context, base string, chain localnet.EVMChain, a *activity) indexSnapshot {
	t.Helper()
	chainURL := base + "/v1/chains/" + fmt.Sprint(chain.EVMChainID)
	for _, contract := range []common.Address{a.token, a.nft} {
		harness.WaitDescribed(t, ctx, chainURL+"/addresses/"+contract.Hex())
	}
	harness.WaitTokensRead(t, ctx, chainURL+"/nfts/collections/"+a.nft.Hex()+"/tokens")
	harness.WaitTokensRead(t, ctx, chainURL+"/nfts/collections/"+a.multi.Hex()+"/tokens")
	s := indexSnapshot{
		Blocks:         harness.PageThrough(t, ctx, chainURL+"/blocks", "blocks", 100),
		EWOQTxs:        harness.WithoutReadTimes(harness.PageThrough(t, ctx, chainURL+"/addresses/"+a.c.Address().Hex()+"/transactions", "transactions", 100)),
		TokenTransfers: harness.PageThrough(t, ctx, chainURL+"/tokens/"+a.token.Hex()+"/transfers", "transfers", 100),
		NFTTransfers:   harness.WithoutReadTimes(harness.PageThrough(t, ctx, chainURL+"/tokens/"+a.nft.Hex()+"/transfers", "transfers", 100)),
		MultiTransfers: harness.WithoutReadTimes(harness.PageThrough(t, ctx, chainURL+"/tokens/"+a.multi.Hex()+"/transfers", "transfers", 100)),
		NFTTokens:      harness.WithoutReadTimes(harness.PageThrough(t, ctx, chainURL+"/nfts/collections/"+a.nft.Hex()+"/tokens", "tokens", 100)),
		MultiTokens:    harness.WithoutReadTimes(harness.PageThrough(t, ctx, chainURL+"/nfts/collections/"+a.multi.Hex()+"/tokens", "tokens", 100)),
	}
	metrics := base + "/metrics/v2/chains/" + fmt.Sprint(chain.EVMChainID) + "/contracts/"
	for _, contract := range []common.Address{a.nft, a.multi} {
		holdersURL := metrics + contract.Hex() + "/nfts:listHolders"
		holders := harness.PageThrough(t, ctx, holdersURL, "addresses", 5000)
		if contract == a.nft {
			s.NFTHolders = holders
		} else {
			s.MultiHolders = holders
		}
		r := harness.Get(t, ctx, holdersURL)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var totals struct {
			Holders uint64 `json:"totalHolders"`
			Tokens  uint64 `json:"totalTokens"`
		}
		r.Decode(t, &totals)
		s.Totals = append(s.Totals, fmt.Sprintf("%s: %d holders, %d tokens", contract, totals.Holders, totals.Tokens))
	}
	return s
}

// checkAgainstNode checks a snapshot against the node: EWOQ's listed txs
// are exactly its txs on the chain (as many as its nonce says, each with
// the node's receipt from EWOQ in the listed block), every block's
// cumulative tx count is the sum of the node's tx counts up to it, and the
// ERC-721 holders are the owners ownerOf names.
func checkAgainstNode(t *testing.T, ctx context.Context, s indexSnapshot, a *activity, head uint64) {
	t.Helper()
	var listed []struct {
		Native struct {
			TxHash      common.Hash `json:"txHash"`
			BlockNumber string      `json:"blockNumber"`
		} `json:"nativeTransaction"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.EWOQTxs)), &listed))
	var nonce hexutil.Uint64
	require.NoError(t, a.c.RPC().CallContext(ctx, &nonce, "eth_getTransactionCount", a.c.Address(), hexutil.Uint64(head)))
	if len(listed) != int(nonce) {
		var nonces []struct {
			Native struct {
				Nonce string `json:"nonce"`
			} `json:"nativeTransaction"`
		}
		require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.EWOQTxs)), &nonces))
		held := map[string]bool{}
		for _, n := range nonces {
			held[n.Native.Nonce] = true
		}
		for n := range uint64(nonce) {
			if !held[fmt.Sprint(n)] {
				t.Errorf("EWOQ's tx of nonce %d is not listed", n)
			}
		}
	}
	require.Len(t, listed, int(nonce), "every tx EWOQ sent is listed, once")
	seen := map[common.Hash]bool{}
	for _, tx := range listed {
		require.False(t, seen[tx.Native.TxHash], "tx %s listed twice", tx.Native.TxHash)
		seen[tx.Native.TxHash] = true
		r, err := a.c.Receipt(ctx, tx.Native.TxHash)
		require.NoError(t, err)
		require.NotNil(t, r, "listed tx %s has no receipt", tx.Native.TxHash)
		require.Equal(t, a.c.Address(), r.From)
		require.Equal(t, fmt.Sprint(r.BlockNumber), tx.Native.BlockNumber)
	}

	checkCumulativeTxs(t, ctx, a.c.RPC(), s.Blocks, head)

	out, err := a.c.Call(ctx, a.nft, contracts.TestERC721(), "totalMinted")
	require.NoError(t, err)
	owners := map[string]uint64{}
	for id := int64(1); id <= out[0].(*big.Int).Int64(); id++ {
		out, err := a.c.Call(ctx, a.nft, contracts.TestERC721(), "ownerOf", big.NewInt(id))
		require.NoError(t, err)
		owners[out[0].(common.Address).Hex()]++
	}
	var holders []struct {
		Address string `json:"address"`
		Tokens  uint64 `json:"sortKey"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.NFTHolders)), &holders))
	got := map[string]uint64{}
	for _, h := range holders {
		got[common.HexToAddress(h.Address).Hex()] = h.Tokens
	}
	require.Equal(t, owners, got, "the ERC-721 holders are ownerOf's owners")
}
