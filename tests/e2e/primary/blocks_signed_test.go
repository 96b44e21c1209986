package primary

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryBlocksByNodeSigned proves listPrimaryNetworkBlocksByNodeId
// (GET .../blockchains/{blockchainId}/nodes/{nodeId}/blocks) on signed
// blocks, which the shared single-node network never builds (sybil
// protection off: every block is unsigned). On the package's 2-node
// network it issues P and X txs through node 1 so both nodes propose
// blocks, and checks, for each node and chain, node 1's avadata against
// node 1's index API (containers parsed with the proposervm parser) and
// getBlockByHeight.
func TestPrimaryBlocksByNodeSigned(t *testing.T) {
	sn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	uris := sn.Net.URIs()
	uri, base, network := sn.URI, sn.Base, sn.Network
	var nodes []ids.NodeID
	for _, u := range uris {
		var reply struct {
			NodeID ids.NodeID `json:"nodeID"`
		}
		require.NoError(t, truth.Call(ctx, u+"/ext/info", "info.getNodeID", struct{}{}, &reply))
		nodes = append(nodes, reply.NodeID)
	}
	require.ElementsMatch(t, sn.Net.NodeIDs(), nodes, "info.getNodeID of the nodes")

	issued := time.Now()
	x := harness.NewTxIssuer(t, ctx, uri)
	for range 3 {
		x.IssueP(t, ctx, 2)
		x.IssueX(t, ctx, 2)
	}
	t.Logf("issued 6 P and 6 X txs in %s", time.Since(issued).Round(time.Millisecond))

	heads := map[string]uint64{}
	for _, c := range []string{"P", "X"} {
		heads[c] = truth.Height(t, ctx, uri, c)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, base, heads)
	waitCancel()

	signed := 0
	for _, chain := range []string{"P", "X"} {
		indexed := truth.IndexedBlocks(t, ctx, uri, chain)
		require.GreaterOrEqual(t, uint64(len(indexed)), heads[chain], "%s: index holds blocks 1..%d", chain, heads[chain])
		indexed = indexed[:heads[chain]]
		perNode := map[ids.NodeID]int{}
		for _, b := range indexed {
			if b.Proposer != ids.EmptyNodeID {
				signed++
				perNode[b.Proposer]++
				require.Contains(t, nodes, b.Proposer, "%s block %s: proposer is no node of the network", chain, b)
			}
		}
		t.Logf("%s: %d blocks, signed per node %v", chain, len(indexed), perNode)
		for _, node := range nodes {
			want := signedNodeBlocks(t, ctx, uri, chain, node, indexed)
			got := listSignedBlocksByNode(t, ctx, base, network, chain, node, heads[chain])
			checkSignedBlocksByNode(t, chain, node, want, got)
		}
	}
	require.Positive(t, signed, "no signed P or X block at all: the test proves nothing")
}

// signedNodeBlocks is what listPrimaryNetworkBlocksByNodeId must list for
// node: the blocks of indexed (container i is block i+1) that node signed,
// with their txs and time from getBlockByHeight.
func signedNodeBlocks(t *testing.T, ctx context.Context, uri, chain string, node ids.NodeID, indexed []truth.IndexedBlock) []expectedNodeBlock {
	t.Helper()
	var out []expectedNodeBlock
	for i, b := range indexed {
		if b.Proposer != node {
			continue
		}
		h := uint64(i + 1)
		sb := truth.SnowmanBlockTxs(t, ctx, uri, chain, h)
		require.Equal(t, sb.ID, b.InnerID, "%s block %d: index container %d wraps it", chain, h, i)
		e := expectedNodeBlock{height: h, hash: b.OuterID.String(), parent: b.ParentID.String(), time: sb.Time, proposer: b, innerHash: b.InnerID}
		for _, id := range sb.TxIDs {
			e.txIDs = append(e.txIDs, id.String())
		}
		out = append(out, e)
	}
	return out
}

// listSignedBlocksByNode pages through listPrimaryNetworkBlocksByNodeId on
// base (pageSize 2, so the paging is exercised) and keeps the blocks up to
// head.
func listSignedBlocksByNode(t *testing.T, ctx context.Context, base, network, chain string, node ids.NodeID, head uint64) []dataapi.Block {
	t.Helper()
	q := url.Values{"pageSize": {"2"}}
	var all []dataapi.Block
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s blocks of %s: paging does not end", chain, node)
		u := base + "/v1/networks/" + network + "/blockchains/" + chainAlias(chain) + "/nodes/" + node.String() + "/blocks?" + q.Encode()
		var page dataapi.BlockPage
		harness.GetOK(t, ctx, u, &page)
		require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: network}, page.ChainInfo, "%s chainInfo", chain)
		for _, b := range page.Blocks {
			n, err := strconv.ParseUint(b.BlockNumber, 10, 64)
			require.NoError(t, err, "blockNumber %q", b.BlockNumber)
			if n <= head {
				all = append(all, b)
			}
		}
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func checkSignedBlocksByNode(t *testing.T, chain string, node ids.NodeID, want []expectedNodeBlock, got []dataapi.Block) {
	t.Helper()
	byNumber := map[uint64]dataapi.Block{}
	for _, b := range got {
		n, err := strconv.ParseUint(b.BlockNumber, 10, 64)
		require.NoError(t, err, "blockNumber %q", b.BlockNumber)
		_, dup := byNumber[n]
		require.False(t, dup, "%s block %d listed twice for %s", chain, n, node)
		byNumber[n] = b
	}
	wantNumbers := make([]string, len(want))
	for i, e := range want {
		wantNumbers[i] = strconv.FormatUint(e.height, 10)
	}
	require.ElementsMatch(t, wantNumbers, blockNumbers(got), "%s: block numbers proposed by %s", chain, node)
	for _, e := range want {
		b := byNumber[e.height]
		require.True(t, strings.EqualFold(e.hash, b.BlockHash), "%s block %d: blockHash %s, node %s", chain, e.height, b.BlockHash, e.hash)
		require.True(t, strings.EqualFold(e.parent, b.ParentHash), "%s block %d: parentHash %s, node %s", chain, e.height, b.ParentHash, e.parent)
		require.Equal(t, e.time, b.BlockTimestamp, "%s block %d: blockTimestamp", chain, e.height)
		require.ElementsMatch(t, e.txIDs, b.Transactions, "%s block %d: transactions", chain, e.height)
		require.Equal(t, len(e.txIDs), b.TxCount, "%s block %d: txCount", chain, e.height)
		require.Equal(t, e.proposer.Size, b.BlockSizeBytes, "%s block %d: blockSizeBytes", chain, e.height)
		require.NotNil(t, b.ProposerDetails, "%s block %d: proposerDetails", chain, e.height)
		pd := b.ProposerDetails
		require.Equal(t, e.proposer.OuterID.String(), pd.ProposerID, "%s block %d: proposerId", chain, e.height)
		require.Equal(t, e.proposer.ParentID.String(), pd.ProposerParentID, "%s block %d: proposerParentId", chain, e.height)
		require.Equal(t, node.String(), pd.ProposerNodeID, "%s block %d: proposerNodeId", chain, e.height)
		require.Equal(t, e.proposer.PChainHeight, pd.ProposerPChainHeight, "%s block %d: proposerPChainHeight", chain, e.height)
		require.Equal(t, e.proposer.Timestamp, pd.ProposerTimestamp, "%s block %d: proposerTimestamp", chain, e.height)
	}
	t.Logf("%s: %s proposed %d blocks, all listed", chain, node, len(want))
}
