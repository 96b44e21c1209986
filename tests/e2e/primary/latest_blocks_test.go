package primary

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/hashing"
	pblock "github.com/ava-labs/avalanchego/vms/platformvm/block"
	xbuilder "github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listLatestPrimaryNetworkBlocks (GET .../blockchains/{blockchainId}/blocks)
// and getBlockById (.../blocks/{blockId}) on P and X, against the node's
// getBlockByHeight, its index API (the proposervm wrapper: the block ID the
// API shows, its parent, size and proposer) and getBlock by ID (the inner
// block's bytes, parsed with avalanchego's block parsers); getVertexByHash
// against the node's vertex index, which a network born linear leaves
// empty.

// blocksTarget is a node and its avadata: the shared network's, or node 1
// of the 2-node network (signed blocks).
type blocksTarget struct {
	uri, base, network string
}

func sharedBlocksTarget(t *testing.T) blocksTarget {
	return blocksTarget{uri: env.URI(t), base: env.Base(t), network: primaryNetwork}
}

func (tg blocksTarget) url(chain, rest string, q url.Values) string {
	u := tg.base + "/v1/networks/" + tg.network + "/blockchains/" + chain + "/" + rest
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// listLatestBlocks pages through the chain's latest blocks with q
// (pageToken added per page), failing on a repeated block number.
func listLatestBlocks(t *testing.T, ctx context.Context, tg blocksTarget, chain string, q url.Values) []dataapi.Block {
	t.Helper()
	var all []dataapi.Block
	seen := map[string]bool{}
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s blocks: paging does not end", chain)
		var page dataapi.BlockPage
		harness.GetOK(t, ctx, tg.url(chainAlias(chain), "blocks", q), &page)
		require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: tg.network}, page.ChainInfo, "%s chainInfo", chain)
		for _, b := range page.Blocks {
			require.False(t, seen[b.BlockNumber], "%s block %s listed twice", chain, b.BlockNumber)
			seen[b.BlockNumber] = true
		}
		all = append(all, page.Blocks...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func blockHeight(t *testing.T, b dataapi.Block) uint64 {
	t.Helper()
	h, err := strconv.ParseUint(b.BlockNumber, 10, 64)
	require.NoError(t, err, "blockNumber %q", b.BlockNumber)
	return h
}

// nodeBlockByID is a block as the node gives it by ID: the index API's
// container (the accepted, proposervm-wrapped bytes), and the inner block
// that platform.getBlock / avm.getBlock return for the inner ID, parsed
// with avalanchego's parsers.
type nodeBlockByID struct {
	outer    truth.IndexedBlock
	height   uint64
	time     int64
	parent   ids.ID // the inner block's parent (an inner ID)
	typeName string
	txIDs    []string
}

func readNodeBlockByID(t *testing.T, ctx context.Context, uri, chain string, outerID ids.ID) nodeBlockByID {
	t.Helper()
	out := nodeBlockByID{outer: truth.IndexedBlockByID(t, ctx, uri, chain, outerID), txIDs: []string{}}
	require.Equal(t, outerID, out.outer.OuterID)
	innerID, err := ids.FromString(out.outer.InnerID)
	require.NoError(t, err)

	var reply struct {
		Block string `json:"block"`
	}
	method := map[string]string{"P": "platform.getBlock", "X": "avm.getBlock"}[chain]
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/"+chain, method, map[string]any{"blockID": innerID, "encoding": "hex"}, &reply),
		"%s %s", method, innerID)
	inner, err := formatting.Decode(formatting.Hex, reply.Block)
	require.NoError(t, err)
	require.Equal(t, innerID, ids.ID(hashing.ComputeHash256Array(inner)), "%s %s: the block the proposervm block wraps", method, innerID)
	var txIDs []ids.ID
	if chain == "P" {
		blk, err := pblock.Parse(pblock.Codec, inner)
		require.NoError(t, err, "P block %s", innerID)
		require.Equal(t, innerID, blk.ID())
		out.height, out.parent, out.typeName = blk.Height(), blk.Parent(), typeName(blk)
		timed, ok := blk.(interface{ Timestamp() time.Time })
		require.True(t, ok, "P block %s (%s) carries its time (Banff and later)", innerID, out.typeName)
		out.time = timed.Timestamp().Unix()
		for _, tx := range blk.Txs() {
			txIDs = append(txIDs, tx.ID())
		}
	} else {
		blk, err := xbuilder.Parser.ParseBlock(inner)
		require.NoError(t, err, "X block %s", innerID)
		require.Equal(t, innerID, blk.ID())
		out.height, out.parent, out.typeName, out.time = blk.Height(), blk.Parent(), typeName(blk), blk.Timestamp().Unix()
		for _, tx := range blk.Txs() {
			txIDs = append(txIDs, tx.ID())
		}
	}
	for _, id := range txIDs {
		out.txIDs = append(out.txIDs, id.String())
	}
	return out
}

// typeName is a block's Go type name (platformvm's BanffStandardBlock,
// avm's StandardBlock, ...), which blockType shows.
func typeName(v any) string {
	name := fmt.Sprintf("%T", v)
	return name[strings.LastIndex(name, ".")+1:]
}

// requireProposer checks proposerDetails against the proposervm wrapper:
// a post-fork block names its proposer's fields (the node ID only when one
// node was to build it), an option block none.
func requireProposer(t *testing.T, chain string, h uint64, want truth.IndexedBlock, b dataapi.Block) {
	t.Helper()
	if !want.Signed {
		require.Nil(t, b.ProposerDetails, "%s block %d: an option block has no proposer", chain, h)
		return
	}
	require.NotNil(t, b.ProposerDetails, "%s block %d: proposerDetails (the block is proposervm-wrapped)", chain, h)
	pd := b.ProposerDetails
	require.Equal(t, want.OuterID.String(), pd.ProposerID, "%s block %d: proposerId", chain, h)
	require.Equal(t, want.ParentID.String(), pd.ProposerParentID, "%s block %d: proposerParentId", chain, h)
	require.Equal(t, want.PChainHeight, pd.ProposerPChainHeight, "%s block %d: proposerPChainHeight", chain, h)
	require.Equal(t, want.Timestamp, pd.ProposerTimestamp, "%s block %d: proposerTimestamp", chain, h)
	if want.Proposer == ids.EmptyNodeID {
		require.Empty(t, pd.ProposerNodeID, "%s block %d: any node could build it", chain, h)
	} else {
		require.Equal(t, want.Proposer.String(), pd.ProposerNodeID, "%s block %d: proposerNodeId", chain, h)
	}
}

// TestPrimaryLatestBlocks: every P and X block of the shared network
// after the primary scenario (unsigned blocks: sybil protection is off),
// as checkLatestBlocks checks them.
func TestPrimaryLatestBlocks(t *testing.T) {
	_, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X"} {
		t.Run(chain, func(t *testing.T) { checkLatestBlocks(t, ctx, sharedBlocksTarget(t), chain) })
	}
}

// TestPrimaryLatestBlocksAfterStaking: the P-chain after the staking
// scenario, whose reward txs come in proposal blocks followed by their
// commit or abort option blocks (which name no proposer).
func TestPrimaryLatestBlocksAfterStaking(t *testing.T) {
	_, ctx := stakingFixture(t)
	listed := checkLatestBlocks(t, ctx, sharedBlocksTarget(t), "P")
	types := map[string]int{}
	for _, b := range listed {
		types[b.BlockType]++
	}
	t.Logf("P block types: %v", types)
	require.Positive(t, types["BanffProposalBlock"], "the reward txs' proposal blocks")
	require.Positive(t, types["BanffCommitBlock"]+types["BanffAbortBlock"], "their option blocks")
}

// TestPrimaryLatestBlocksSigned: P and X on the 2-node network, where
// blocks are signed, so proposerNodeId names the node that built each.
func TestPrimaryLatestBlocksSigned(t *testing.T) {
	sn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	x := harness.NewTxIssuer(t, ctx, sn.URI)
	for range 2 {
		x.IssueP(t, ctx, 2)
		x.IssueX(t, ctx, 2)
	}
	heads := map[string]uint64{}
	for _, c := range []string{"P", "X"} {
		heads[c] = truth.Height(t, ctx, sn.URI, c)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, sn.Base, heads)
	waitCancel()
	tg := blocksTarget{uri: sn.URI, base: sn.Base, network: sn.Network}
	signed := 0
	for _, chain := range []string{"P", "X"} {
		for _, b := range checkLatestBlocks(t, ctx, tg, chain) {
			if b.ProposerDetails != nil && b.ProposerDetails.ProposerNodeID != "" {
				signed++
			}
		}
	}
	require.Positive(t, signed, "no signed block listed: the test proves nothing of proposerNodeId")
}

// checkLatestBlocks: every block of the chain, newest first down to the
// first, each as the node shows it (getBlockByHeight: time and txs; the
// index API: the accepted block's ID, parent, size and proposer); each
// fetched by ID and by height is the listed block, and by ID matches the
// node's own getBlock of the inner block; small pages walk the same list;
// the time filters cut it where the node's block times say. It returns the
// listed blocks.
func checkLatestBlocks(t *testing.T, ctx context.Context, tg blocksTarget, chain string) []dataapi.Block {
	t.Helper()
	before := truth.Height(t, ctx, tg.uri, chain)
	listed := listLatestBlocks(t, ctx, tg, chain, url.Values{"pageSize": {"100"}})
	indexed := truth.IndexedBlocks(t, ctx, tg.uri, chain)
	require.NotEmpty(t, listed)
	top := blockHeight(t, listed[0])
	require.GreaterOrEqual(t, top, before, "%s: the listing reaches the height the node had before it", chain)
	require.LessOrEqual(t, top, uint64(len(indexed)), "%s: the node accepted every listed block", chain)
	last := blockHeight(t, listed[len(listed)-1])
	t.Logf("%s: blocks %d down to %d listed", chain, top, last)
	require.LessOrEqual(t, last, uint64(1), "%s: the listing goes down to the first block", chain)
	for i, b := range listed {
		require.Equal(t, top-uint64(i), blockHeight(t, b), "%s: newest first, no height missing", chain)
	}

	for _, b := range listed {
		h := blockHeight(t, b)
		sb := truth.SnowmanBlockTxs(t, ctx, tg.uri, chain, h)
		if h == 0 {
			checkGenesisBlock(t, ctx, tg, chain, sb, b)
			continue
		}
		c := indexed[h-1]
		require.Equal(t, sb.ID, c.InnerID, "%s block %d: index container %d wraps it", chain, h, h-1)
		require.Equal(t, c.OuterID.String(), b.BlockHash, "%s block %d: blockHash", chain, h)
		require.Equal(t, c.ParentID.String(), b.ParentHash, "%s block %d: parentHash", chain, h)
		require.Equal(t, sb.Time, b.BlockTimestamp, "%s block %d: blockTimestamp", chain, h)
		require.Equal(t, c.Size, b.BlockSizeBytes, "%s block %d: blockSizeBytes (accepted block bytes)", chain, h)
		want := make([]string, 0, len(sb.TxIDs))
		for _, id := range sb.TxIDs {
			want = append(want, id.String())
		}
		require.Equal(t, want, b.Transactions, "%s block %d: transactions", chain, h)
		require.Equal(t, len(want), b.TxCount, "%s block %d: txCount", chain, h)
		requireProposer(t, chain, h, c, b)

		// By ID and by height: the listed block; by ID, what the node's
		// getBlock says of the block it wraps.
		var byID, byHeight dataapi.Block
		harness.GetOK(t, ctx, tg.url(chainAlias(chain), "blocks/"+b.BlockHash, nil), &byID)
		harness.GetOK(t, ctx, tg.url(chainAlias(chain), "blocks/"+b.BlockNumber, nil), &byHeight)
		require.Equal(t, b, byID, "%s block %d by ID", chain, h)
		require.Equal(t, b, byHeight, "%s block %d by height", chain, h)
		node := readNodeBlockByID(t, ctx, tg.uri, chain, c.OuterID)
		require.Equal(t, h, node.height, "%s block %d: height of the block getBlock gives for its ID", chain, h)
		require.Equal(t, node.outer.ParentID.String(), byID.ParentHash, "%s block %d: parent", chain, h)
		require.Equal(t, node.outer.Size, byID.BlockSizeBytes, "%s block %d: size", chain, h)
		require.Equal(t, node.time, byID.BlockTimestamp, "%s block %d: time", chain, h)
		require.Equal(t, node.typeName, byID.BlockType, "%s block %d: blockType", chain, h)
		require.Equal(t, node.txIDs, byID.Transactions, "%s block %d: transactions", chain, h)
		if h > 1 {
			require.Equal(t, indexed[h-2].InnerID, node.parent.String(), "%s block %d: the inner parent is the inner block below", chain, h)
		}
		requireProposer(t, chain, h, node.outer, byID)
	}

	// Small pages walk the same blocks (those listed then; more may have
	// come since, above them).
	for _, size := range []string{"1", "7"} {
		paged := listLatestBlocks(t, ctx, tg, chain, url.Values{"pageSize": {size}})
		require.GreaterOrEqual(t, len(paged), len(listed))
		require.Equal(t, listed, paged[len(paged)-len(listed):], "%s: pageSize %s", chain, size)
	}
	checkBlockTimeFilters(t, ctx, tg, chain, listed)
	return listed
}

// checkGenesisBlock: the genesis block (height 0, which the index holds when
// the node runs the network's built-in genesis) is the node's block 0 by ID
// and parent. Its time and txs are the index's own view of the genesis (the
// network's start time and its genesis allocations), which the node's
// block 0 does not carry, so they are not compared.
func checkGenesisBlock(t *testing.T, ctx context.Context, tg blocksTarget, chain string, sb truth.SnowmanBlock, b dataapi.Block) {
	t.Helper()
	require.Equal(t, sb.ID, b.BlockHash, "%s genesis block: blockHash", chain)
	require.Equal(t, sb.ParentID, b.ParentHash, "%s genesis block: parentHash", chain)
	require.Nil(t, b.ProposerDetails, "%s genesis block: no proposervm wrapper", chain)
	var byID dataapi.Block
	harness.GetOK(t, ctx, tg.url(chainAlias(chain), "blocks/"+b.BlockHash, nil), &byID)
	require.Equal(t, b, byID, "%s genesis block by ID", chain)
}

// checkBlockTimeFilters: startTimestamp and endTimestamp (inclusive) keep
// exactly the listed blocks whose time the node gives within them.
func checkBlockTimeFilters(t *testing.T, ctx context.Context, tg blocksTarget, chain string, listed []dataapi.Block) {
	t.Helper()
	if len(listed) < 3 {
		t.Logf("%s: %d blocks; the time filters need three", chain, len(listed))
		return
	}
	times := func(bs []dataapi.Block) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.BlockNumber)
		}
		return out
	}
	within := func(start, end int64) []string {
		var out []string
		for _, b := range listed {
			if b.BlockTimestamp >= start && b.BlockTimestamp <= end {
				out = append(out, b.BlockNumber)
			}
		}
		return out
	}
	newest, middle, oldest := listed[0].BlockTimestamp, listed[len(listed)/2].BlockTimestamp, listed[len(listed)-1].BlockTimestamp
	ts := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, tc := range []struct{ start, end int64 }{
		{middle, newest}, {oldest, middle}, {middle, middle}, {middle + 1, newest}, {oldest + 1, middle - 1},
	} {
		if tc.start > tc.end {
			continue
		}
		q := url.Values{"pageSize": {"5"}, "startTimestamp": {ts(tc.start)}, "endTimestamp": {ts(tc.end)}}
		require.Equal(t, within(tc.start, tc.end), times(listLatestBlocks(t, ctx, tg, chain, q)), "%s blocks in [%d, %d]", chain, tc.start, tc.end)
	}
	// endTimestamp alone: nothing that came later than it.
	q := url.Values{"pageSize": {"100"}, "endTimestamp": {ts(middle)}}
	require.Equal(t, within(0, middle), times(listLatestBlocks(t, ctx, tg, chain, q)), "%s blocks up to %d", chain, middle)
}

// TestPrimaryLatestBlocksBadInput: every bad input of the block and vertex
// operations gets the spec's error body naming what is wrong.
func TestPrimaryLatestBlocksBadInput(t *testing.T) {
	_, ctx := primaryFixture(t)
	get := func(chain, rest string, q url.Values) harness.Reply {
		return harness.GetWithRetryAfter(t, ctx, primaryURL(t, chain, rest, q))
	}
	harness.RequireErrorBody(t, get("c-chain", "blocks", nil), http.StatusBadRequest, "/v1/chains/")
	harness.RequireErrorBody(t, get("c-chain", "blocks/1", nil), http.StatusBadRequest, "/v1/chains/")
	harness.RequireErrorBody(t, get("q-chain", "blocks", nil), http.StatusBadRequest, "blockchainId")
	for param, values := range map[string][]string{
		"pageSize":       {"0", "101", "ten"},
		"startTimestamp": {"-1", "yesterday"},
		"endTimestamp":   {"1.5"},
		"pageToken":      {"notatoken"},
	} {
		for _, v := range values {
			harness.RequireErrorBody(t, get("p-chain", "blocks", url.Values{param: {v}}), http.StatusBadRequest, param)
		}
	}
	harness.RequireErrorBody(t, get("x-chain", "blocks", url.Values{"startTimestamp": {"20"}, "endTimestamp": {"10"}}),
		http.StatusBadRequest, "startTimestamp")

	// A token binds its chain and filters.
	var first dataapi.BlockPage
	harness.GetOK(t, ctx, primaryURL(t, "p-chain", "blocks", url.Values{"pageSize": {"1"}}), &first)
	require.NotEmpty(t, first.NextPageToken)
	harness.RequireErrorBody(t, get("x-chain", "blocks", url.Values{"pageSize": {"1"}, "pageToken": {first.NextPageToken}}),
		http.StatusBadRequest, "pageToken")
	harness.RequireErrorBody(t, get("p-chain", "blocks", url.Values{"pageSize": {"1"}, "endTimestamp": {"5"}, "pageToken": {first.NextPageToken}}),
		http.StatusBadRequest, "pageToken")

	for _, bad := range []string{"notablockid", "0x1234", "-1", "18446744073709551616", strings.Repeat("1", 200)} {
		harness.RequireErrorBody(t, get("p-chain", "blocks/"+url.PathEscape(bad), nil), http.StatusBadRequest, "blockId")
	}
	top := truth.Height(t, ctx, env.URI(t), "P")
	harness.RequireErrorBody(t, get("p-chain", "blocks/"+strconv.FormatUint(top+1_000_000, 10), nil), http.StatusNotFound, "height")
	harness.RequireErrorBody(t, get("p-chain", "blocks/"+ids.GenerateTestID().String(), nil), http.StatusNotFound, "ID")
	// A P-chain block's ID names no X-chain block.
	pBlocks := truth.IndexedBlocks(t, ctx, env.URI(t), "P")
	require.NotEmpty(t, pBlocks)
	harness.RequireErrorBody(t, get("x-chain", "blocks/"+pBlocks[0].OuterID.String(), nil), http.StatusNotFound, "x-chain")

	harness.RequireErrorBody(t, get("x-chain", "vertices/notavertex", nil), http.StatusBadRequest, "vertexHash")
	harness.RequireErrorBody(t, get("p-chain", "vertices/"+ids.GenerateTestID().String(), nil), http.StatusBadRequest, "blockchainId")
	harness.RequireErrorBody(t, get("c-chain", "vertices/"+ids.GenerateTestID().String(), nil), http.StatusBadRequest, "blockchainId")
}

// TestPrimaryVertexByHash: the local network's X-chain was born linear, so
// the node's vertex index is empty (the index API has no accepted vertex)
// and so is avadata's: the vertex listing is empty and any vertex ID, the
// ID of a real X-chain block or tx among them, is a 404. A vertex that
// exists is proven in indexer/xchain (a real DAG era: avm's own vertices)
// and in the handler's unit tests.
func TestPrimaryVertexByHash(t *testing.T) {
	_, ctx := primaryFixture(t)
	var last struct {
		ID ids.ID `json:"id"`
	}
	err := truth.Call(ctx, env.URI(t)+"/ext/index/X/vtx", "index.getLastAccepted", map[string]any{"encoding": "hex"}, &last)
	require.Error(t, err, "the node accepted no vertex (got %s)", last.ID)

	var page struct {
		Vertices      []any  `json:"vertices"`
		NextPageToken string `json:"nextPageToken"`
	}
	harness.GetOK(t, ctx, primaryURL(t, "x-chain", "vertices", nil), &page)
	require.Empty(t, page.Vertices)

	xBlocks := truth.IndexedBlocks(t, ctx, env.URI(t), "X")
	require.NotEmpty(t, xBlocks)
	x1 := truth.SnowmanBlockTxs(t, ctx, env.URI(t), "X", 1)
	candidates := []string{xBlocks[0].OuterID.String(), ids.GenerateTestID().String()}
	for _, id := range x1.TxIDs {
		candidates = append(candidates, id.String())
	}
	for _, id := range candidates {
		harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, primaryURL(t, "x-chain", "vertices/"+id, nil)),
			http.StatusNotFound, "vertex")
	}
}
