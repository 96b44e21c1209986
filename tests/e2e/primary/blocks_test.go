package primary

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listPrimaryNetworkBlocksByNodeId (GET
// .../blockchains/{blockchainId}/nodes/{nodeId}/blocks): the blocks the local
// node proposed, against the node's index API (the proposervm wrapper names
// the proposer) and getBlockByHeight / the eth API.

// NodeID is info.getNodeID of the node.
func nodeID(t *testing.T, ctx context.Context) ids.NodeID {
	t.Helper()
	var reply struct {
		NodeID ids.NodeID `json:"nodeID"`
	}
	require.NoError(t, truth.Call(ctx, env.URI(t)+"/ext/info", "info.getNodeID", struct{}{}, &reply))
	return reply.NodeID
}

// expectedNodeBlock is one block the node proposed, as the node shows it.
type expectedNodeBlock struct {
	height    uint64
	hash      string // outer ID on P/X, eth hash on C
	parent    string
	time      int64
	txIDs     []string // P/X only
	proposer  truth.IndexedBlock
	innerHash string
}

// nodeProposedBlocks lists chain's blocks signed by node, up to the head
// the index API has now.
func nodeProposedBlocks(t *testing.T, ctx context.Context, chain string, node ids.NodeID) []expectedNodeBlock {
	t.Helper()
	var out []expectedNodeBlock
	for i, b := range truth.IndexedBlocks(t, ctx, env.URI(t), chain) {
		if b.Proposer != node {
			continue // options and unsigned blocks name no proposer
		}
		h := uint64(i + 1)
		e := expectedNodeBlock{height: h, proposer: b, innerHash: b.InnerID}
		if chain == "C" {
			var blk struct {
				Hash       string         `json:"hash"`
				ParentHash string         `json:"parentHash"`
				Timestamp  hexutil.Uint64 `json:"timestamp"`
			}
			require.NoError(t, truth.EthClient(t, ctx, env.URI(t)).CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.Uint64(h), false))
			require.Equal(t, strings.ToLower(blk.Hash), strings.ToLower(b.InnerID), "C block %d: index container wraps it", h)
			e.hash, e.parent, e.time = blk.Hash, blk.ParentHash, int64(blk.Timestamp)
		} else {
			sb := truth.SnowmanBlockTxs(t, ctx, env.URI(t), chain, h)
			require.Equal(t, sb.ID, b.InnerID, "%s block %d: index container %d wraps it", chain, h, i)
			e.hash, e.parent, e.time = b.OuterID.String(), b.ParentID.String(), sb.Time
			for _, id := range sb.TxIDs {
				e.txIDs = append(e.txIDs, id.String())
			}
		}
		out = append(out, e)
	}
	return out
}

// TestPrimaryBlocksByNode: for the node itself (info.getNodeID) and every
// node that signed a block in the index, every block it signed is listed,
// once, with the node's number, hash, parent, time, txs and proposer
// details; and pageSize 1 walks the same list.
//
// The e2e network (one node, sybil protection off, not a genesis staker)
// signs no block at all: proposervm builds unsigned blocks, whose proposer
// is the empty node ID. There the node's own list must be empty and nothing
// more is proven; run the node with a genesis staker's TLS key to prove the
// contents.
func TestPrimaryBlocksByNode(t *testing.T) {
	_, ctx := primaryFixture(t)
	self := nodeID(t, ctx)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			proposers := map[ids.NodeID]bool{self: true}
			for _, b := range truth.IndexedBlocks(t, ctx, env.URI(t), chain) {
				if b.Proposer != ids.EmptyNodeID {
					proposers[b.Proposer] = true
				}
			}
			for node := range proposers {
				want := nodeProposedBlocks(t, ctx, chain, node)
				if node == self && len(want) == 0 {
					t.Logf("%s: the node (%s) signed no block; only the empty answer is checked", chain, node)
				}
				checkBlocksByNode(t, ctx, chain, node, want)
			}
		})
	}
}

func checkBlocksByNode(t *testing.T, ctx context.Context, chain string, node ids.NodeID, want []expectedNodeBlock) {
	t.Helper()
	got := listBlocksByNode(t, ctx, chain, node.String(), url.Values{"pageSize": {"100"}})
	byNumber := map[uint64]dataapi.Block{}
	for _, b := range got {
		n, err := strconv.ParseUint(b.BlockNumber, 10, 64)
		require.NoError(t, err, "blockNumber %q", b.BlockNumber)
		_, dup := byNumber[n]
		require.False(t, dup, "block %d listed twice", n)
		byNumber[n] = b
	}
	require.Len(t, got, len(want), "%s: blocks proposed by %s", chain, node)
	for _, e := range want {
		b, ok := byNumber[e.height]
		require.True(t, ok, "%s block %d (signed by %s) is not listed", chain, e.height, node)
		require.True(t, strings.EqualFold(e.hash, b.BlockHash), "%s block %d: blockHash %s, node %s", chain, e.height, b.BlockHash, e.hash)
		require.True(t, strings.EqualFold(e.parent, b.ParentHash), "%s block %d: parentHash %s, node %s", chain, e.height, b.ParentHash, e.parent)
		require.Equal(t, e.time, b.BlockTimestamp, "%s block %d: blockTimestamp", chain, e.height)
		if chain != "C" {
			require.ElementsMatch(t, e.txIDs, b.Transactions, "%s block %d: transactions", chain, e.height)
			require.Equal(t, len(e.txIDs), b.TxCount, "%s block %d: txCount", chain, e.height)
		}
		require.Equal(t, e.proposer.Size, b.BlockSizeBytes, "%s block %d: blockSizeBytes (accepted block bytes)", chain, e.height)
		require.NotNil(t, b.ProposerDetails, "%s block %d: proposerDetails", chain, e.height)
		pd := b.ProposerDetails
		require.Equal(t, e.proposer.OuterID.String(), pd.ProposerID, "%s block %d: proposerId", chain, e.height)
		require.Equal(t, e.proposer.ParentID.String(), pd.ProposerParentID, "%s block %d: proposerParentId", chain, e.height)
		require.Equal(t, node.String(), pd.ProposerNodeID, "%s block %d: proposerNodeId", chain, e.height)
		require.Equal(t, e.proposer.PChainHeight, pd.ProposerPChainHeight, "%s block %d: proposerPChainHeight", chain, e.height)
		require.Equal(t, e.proposer.Timestamp, pd.ProposerTimestamp, "%s block %d: proposerTimestamp", chain, e.height)
	}
	one := listBlocksByNode(t, ctx, chain, node.String(), url.Values{"pageSize": {"1"}})
	require.Equal(t, blockNumbers(got), blockNumbers(one), "%s: pageSize 1 paging", chain)
}

func blockNumbers(blocks []dataapi.Block) []string {
	out := make([]string, len(blocks))
	for i, b := range blocks {
		out[i] = b.BlockNumber
	}
	return out
}

// TestPrimaryBlocksByOtherNode: a well-formed node ID that proposed nothing
// gets an empty list, not an error.
func TestPrimaryBlocksByOtherNode(t *testing.T) {
	_, ctx := primaryFixture(t)
	other := ids.GenerateTestNodeID()
	for _, chain := range []string{"P", "X", "C"} {
		require.Empty(t, listBlocksByNode(t, ctx, chain, other.String(), nil), "%s blocks of %s", chain, other)
	}
}

// TestPrimaryBlocksMalformedNodeID: a node ID that does not parse is a 400
// with the spec's error body.
func TestPrimaryBlocksMalformedNodeID(t *testing.T) {
	_, ctx := primaryFixture(t)
	for _, bad := range []string{"NodeID-notanodeid", "NodeID-", "0x1234", "NodeID-111111111111111111116DBWJ"} {
		r := harness.GetWithRetryAfter(t, ctx, primaryURL(t, "p-chain", "nodes/"+url.PathEscape(bad)+"/blocks", nil))
		harness.RequireErrorBody(t, r, http.StatusBadRequest, "nodeId")
	}
}
