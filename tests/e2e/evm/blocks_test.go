package evm

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The blocks and the latest transactions of the EVM chains (getLatestBlocks,
// getBlock, getTransactionsForBlock, listLatestTransactions and the
// listings across chains), compared with what the node says of every block
// (eth_getBlockByNumber, eth_getBlockReceipts) and of every tx (the ground
// truth of the shared activity). Blocks arrive while the tests page (each
// sends a transfer between pages), and every listing still pages to its end
// with exactly the items up to the height its first page pinned.

// evmBlockReply is the OpenAPI's EvmBlock (and GetEvmBlockResponse).
type evmBlockReply struct {
	ChainID                    string  `json:"chainId"`
	BlockNumber                string  `json:"blockNumber"`
	BlockTimestamp             int64   `json:"blockTimestamp"`
	BlockTimestampMilliseconds *uint64 `json:"blockTimestampMilliseconds"`
	BlockMinDelayExcess        *uint64 `json:"blockMinDelayExcess"`
	BlockHash                  string  `json:"blockHash"`
	TxCount                    *int    `json:"txCount"`
	BaseFee                    string  `json:"baseFee"`
	GasUsed                    string  `json:"gasUsed"`
	GasLimit                   string  `json:"gasLimit"`
	GasCost                    string  `json:"gasCost"`
	ParentHash                 string  `json:"parentHash"`
	FeesSpent                  string  `json:"feesSpent"`
	CumulativeTransactions     string  `json:"cumulativeTransactions"`
}

// stream is the chain's name in X-Indexed-Height.
func (f *evmFixture) stream() string {
	if f.chain.Name == "C-Chain" {
		return "C"
	}
	return f.chain.BlockchainID.String()
}

// pagedReply is one page of a listing with the heights it reflects.
type pagedReply struct {
	items   []json.RawMessage
	next    string
	heights map[string]uint64
}

func getPage(t *testing.T, ctx context.Context, u, key string) pagedReply {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, u)
	require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
	harness.RequireNoNulls(t, r.Body, u)
	var body map[string]json.RawMessage
	r.Decode(t, &body)
	out := pagedReply{heights: map[string]uint64{}}
	require.NoError(t, json.Unmarshal(body[key], &out.items), "GET %s: %s", u, r.Body)
	require.NotNil(t, out.items, "GET %s: %s must be an array", u, key)
	if raw, ok := body["nextPageToken"]; ok {
		require.NoError(t, json.Unmarshal(raw, &out.next))
		require.NotEmpty(t, strings.TrimSpace(out.next), "GET %s: an empty nextPageToken must be omitted", u)
	}
	for part := range strings.SplitSeq(r.Header.Get("X-Indexed-Height"), ",") {
		stream, height, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			n, err := strconv.ParseUint(height, 10, 64)
			require.NoError(t, err, "X-Indexed-Height %q", r.Header.Get("X-Indexed-Height"))
			out.heights[stream] = n
		}
	}
	return out
}

// pageToEnd follows a listing from u to its end, calling between before
// each later page, and returns its items and the first page's heights.
func pageToEnd[T any](t *testing.T, ctx context.Context, u, key string, pageSize int, between func()) ([]T, map[string]uint64) {
	t.Helper()
	u = harness.WithQuery(u, "pageSize", strconv.Itoa(pageSize))
	var all []T
	var first map[string]uint64
	seen := map[string]bool{}
	for page, next := 0, ""; ; page++ {
		require.Less(t, page, 1000, "GET %s: paging does not end", u)
		pageURL := u
		if next != "" {
			pageURL = harness.WithQuery(u, "pageToken", next)
		}
		reply := getPage(t, ctx, pageURL, key)
		if first == nil {
			first = reply.heights
		}
		require.LessOrEqual(t, len(reply.items), pageSize, "GET %s", pageURL)
		for _, raw := range reply.items {
			var item T
			require.NoError(t, json.Unmarshal(raw, &item), "GET %s: %s", pageURL, raw)
			all = append(all, item)
		}
		if reply.next == "" {
			return all, first
		}
		require.Len(t, reply.items, pageSize, "GET %s: a page before the last is full", pageURL)
		require.False(t, seen[reply.next], "GET %s: page token repeated", pageURL)
		seen[reply.next] = true
		next = reply.next
		if between != nil {
			between()
		}
	}
}

// forFirstPages runs fn between the first n pages only: blocks that arrive
// after the first page prove the pin, and waiting for more would only make
// the test slow.
func forFirstPages(n int, fn func()) func() {
	calls := 0
	return func() {
		if calls < n {
			calls++
			fn()
		}
	}
}

// newBlock makes the chain produce a block: a small transfer, waited for.
func (f *evmFixture) newBlock(t *testing.T, ctx context.Context) {
	t.Helper()
	h, err := f.ewoq.SendValue(ctx, f.recipients[2], big.NewInt(1))
	require.NoError(t, err)
	_, err = f.ewoq.WaitReceipts(ctx, h)
	require.NoError(t, err)
}

// headers reads blocks 1..height of the chain from the node.
func (f *evmFixture) headers(t *testing.T, ctx context.Context, height uint64) []*truth.EVMHeader {
	t.Helper()
	hs, err := truth.EVMHeaders(ctx, f.ewoq.RPC(), height)
	require.NoError(t, err, "%s: reading blocks 1..%d from the node", f.name(), height)
	return hs
}

// checkBlock compares a block reply with the node's block.
func (f *evmFixture) checkBlock(t *testing.T, want *truth.EVMHeader, got evmBlockReply) {
	t.Helper()
	what := fmt.Sprintf("%s block %d", f.name(), want.Number)
	require.Equal(t, f.chainID(), got.ChainID, what+" chainId")
	harness.RequireUintString(t, want.Number, got.BlockNumber, what+" blockNumber")
	require.Equal(t, int64(want.Timestamp), got.BlockTimestamp, what+" blockTimestamp")
	require.Equal(t, want.TimestampMs, got.BlockTimestampMilliseconds, what+" blockTimestampMilliseconds")
	require.Equal(t, want.MinDelayExcess, got.BlockMinDelayExcess, what+" blockMinDelayExcess")
	require.Equal(t, want.Hash.Hex(), got.BlockHash, what+" blockHash")
	require.Equal(t, want.ParentHash.Hex(), got.ParentHash, what+" parentHash")
	require.NotNil(t, got.TxCount, what+" txCount is required")
	require.Equal(t, len(want.Txs), *got.TxCount, what+" txCount")
	harness.RequireDecimal(t, bigOr0(want.BaseFee), got.BaseFee, what+" baseFee")
	harness.RequireUintString(t, want.GasUsed, got.GasUsed, what+" gasUsed")
	harness.RequireUintString(t, want.GasLimit, got.GasLimit, what+" gasLimit")
	harness.RequireDecimal(t, bigOr0(want.BlockGasCost), got.GasCost, what+" gasCost (the header's blockGasCost)")
	harness.RequireDecimal(t, want.FeesSpent, got.FeesSpent, what+" feesSpent")
	harness.RequireUintString(t, want.CumulativeTxs, got.CumulativeTransactions, what+" cumulativeTransactions")
}

func bigOr0(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}

// TestEVMBlocks pages through every block of each chain while blocks
// arrive, compares each with the node, and reads each again by number and
// by hash.
func TestEVMBlocks(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		head := f.sync(t, ctx)
		blocks, heights := pageToEnd[evmBlockReply](t, ctx, f.evmURL("/blocks", nil), "blocks", 4, forFirstPages(2, func() { f.newBlock(t, ctx) }))
		pinned := heights[f.stream()]
		require.GreaterOrEqual(t, pinned, head, "%s: X-Indexed-Height %v", f.name(), heights)
		want := f.headers(t, ctx, pinned)
		require.Len(t, blocks, int(pinned), "%s: every block from the pinned height %d down to 1, none later", f.name(), pinned)
		for i, got := range blocks {
			f.checkBlock(t, want[int(pinned)-1-i], got)
		}
		require.Positive(t, want[pinned-1].CumulativeTxs, "the chain has transactions")
		t.Logf("%s: %d blocks (head %d when paging began, pinned at %d), %d txs, compared with the node",
			f.name(), len(blocks), head, pinned, want[pinned-1].CumulativeTxs)

		for _, h := range want {
			var byNumber, byHash evmBlockReply
			harness.GetOK(t, ctx, f.evmURL("/blocks/"+strconv.FormatUint(h.Number, 10), nil), &byNumber)
			f.checkBlock(t, h, byNumber)
			if len(h.Txs) > 0 || h.Number == pinned {
				harness.GetOK(t, ctx, f.evmURL("/blocks/"+h.Hash.Hex(), nil), &byHash)
				require.Equal(t, byNumber, byHash, "%s block %d by hash", f.name(), h.Number)
			}
		}
		var upper evmBlockReply
		harness.GetOK(t, ctx, f.evmURL("/blocks/0X"+strings.ToUpper(want[0].Hash.Hex()[2:]), nil), &upper)
		f.checkBlock(t, want[0], upper)
		var byBlockchainID evmBlockReply
		harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+f.chain.BlockchainID.String()+"/blocks/1", &byBlockchainID)
		f.checkBlock(t, want[0], byBlockchainID)
	})
}

// TestEVMTransactionsForBlock lists the transactions of every block with
// transactions: exactly the node's, in block order, each as the node says.
func TestEVMTransactionsForBlock(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		head := f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		headers := f.headers(t, ctx, head)
		busiest := headers[0]
		for _, h := range headers {
			if len(h.Txs) == 0 {
				continue
			}
			for _, blockID := range []string{strconv.FormatUint(h.Number, 10), h.Hash.Hex()} {
				var got struct {
					Transactions  []dataapi.NativeTx `json:"transactions"`
					NextPageToken *string            `json:"nextPageToken"`
				}
				harness.GetOK(t, ctx, f.evmURL("/blocks/"+blockID+"/transactions", nil), &got)
				require.Nil(t, got.NextPageToken, "%s block %d: its %d txs fit the default page", f.name(), h.Number, len(h.Txs))
				require.Len(t, got.Transactions, len(h.Txs), "%s block %d", f.name(), h.Number)
				for i, tx := range got.Transactions {
					require.Equal(t, h.Txs[i].Hex(), tx.TxHash, "%s block %d tx %d", f.name(), h.Number, i)
					x, ok := f.truth.Tx(h.Txs[i])
					require.True(t, ok)
					f.checkNativeTx(t, ctx, x, tx, false)
				}
			}
			if len(h.Txs) > len(busiest.Txs) {
				busiest = h
			}
		}
		// The busiest block in pages of one, and with pageSize 0 (the whole
		// block, as absent).
		want := busiest.Txs
		require.Greater(t, len(want), 1, "%s: the activity has a block of several txs", f.name())
		u := f.evmURL("/blocks/"+strconv.FormatUint(busiest.Number, 10)+"/transactions", nil)
		paged := harness.ListAll[dataapi.NativeTx](t, ctx, harness.WithQuery(u, "pageSize", "1"), "transactions", 1)
		whole := harness.ListAll[dataapi.NativeTx](t, ctx, harness.WithQuery(u, "pageSize", "0"), "transactions", 100)
		t.Logf("%s: the busiest block, %d, holds %d txs", f.name(), busiest.Number, len(want))
		for _, got := range [][]dataapi.NativeTx{paged, whole} {
			require.Len(t, got, len(want))
			for i := range got {
				require.Equal(t, want[i].Hex(), got[i].TxHash)
			}
		}
	})
}

// latestTx is a transaction's place in the latest-transactions order.
type latestTx struct {
	chain uint64
	x     *truth.EVMTx
}

func (a latestTx) label() string {
	return fmt.Sprintf("%d/%d/%d/%s", a.chain, a.x.Block.Number, a.x.Index, a.x.Hash.Hex())
}

func nativeLabel(tx dataapi.NativeTx) string {
	return fmt.Sprintf("%s/%s/%d/%s", tx.ChainID, tx.BlockNumber, tx.BlockIndex, common.HexToHash(tx.TxHash).Hex())
}

// latestOrder sorts newest first: block timestamp, then EVM chain id, then
// block and index in the chain.
func latestOrder(a, b latestTx) int {
	return cmp.Or(
		cmp.Compare(b.x.Block.Timestamp, a.x.Block.Timestamp),
		cmp.Compare(a.chain, b.chain),
		cmp.Compare(b.x.Block.Number, a.x.Block.Number),
		cmp.Compare(b.x.Index, a.x.Index),
	)
}

// expectedLatest lists the chain's transactions up to pinned that pass
// keep, newest first.
func (f *evmFixture) expectedLatest(t *testing.T, ctx context.Context, pinned uint64, keep func(*truth.EVMTx) bool) []latestTx {
	t.Helper()
	require.NoError(t, f.truth.ScanTo(ctx, pinned))
	var out []latestTx
	for _, x := range f.truth.All() {
		if x.Block.Number <= pinned && keep(x) {
			out = append(out, latestTx{chain: f.chain.EVMChainID, x: x})
		}
	}
	slices.SortFunc(out, latestOrder)
	return out
}

// pageSizeFor makes the failed transactions (a few per chain) page too.
func pageSizeFor(status string, size int) int {
	if status == "failed" {
		return 2
	}
	return size
}

func statusFilters() map[string]func(*truth.EVMTx) bool {
	return map[string]func(*truth.EVMTx) bool{
		"":        func(*truth.EVMTx) bool { return true },
		"failed":  func(x *truth.EVMTx) bool { return x.Receipt.Status == 0 },
		"success": func(x *truth.EVMTx) bool { return x.Receipt.Status == 1 },
	}
}

// TestEVMLatestTransactions pages through each chain's transactions, all of
// them and by status, while blocks arrive: exactly the node's up to the
// pinned height, newest first, the status as the receipts say.
func TestEVMLatestTransactions(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		for status, keep := range statusFilters() {
			q := url.Values{}
			if status != "" {
				q.Set("status", status)
			}
			got, heights := pageToEnd[dataapi.NativeTx](t, ctx, f.evmURL("/transactions", q), "transactions", pageSizeFor(status, 7),
				forFirstPages(2, func() { f.newBlock(t, ctx) }))
			want := f.expectedLatest(t, ctx, heights[f.stream()], keep)
			require.NotEmpty(t, want, "%s: the activity has %q transactions", f.name(), status)
			require.Len(t, got, len(want), "%s status %q", f.name(), status)
			for i := range want {
				require.Equal(t, want[i].label(), nativeLabel(got[i]), "%s status %q item %d", f.name(), status, i)
				f.checkNativeTx(t, ctx, want[i].x, got[i], false)
			}
			t.Logf("%s status %q: %d txs up to block %d", f.name(), status, len(got), heights[f.stream()])
		}
	})
}

// TestEVMLatestAcrossChains pages through the blocks and the transactions
// of both chains at once, while both produce blocks: each chain pinned at
// its first page's height, merged newest first by block timestamp.
func TestEVMLatestAcrossChains(t *testing.T) {
	fixtures := evmFixtures(t)
	ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
	defer cancel()
	for _, f := range fixtures {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
	}
	bothChains := func() {
		for _, f := range fixtures {
			f.newBlock(t, ctx)
		}
	}
	base := env.Base(t)

	for _, path := range []string{"/v1/blocks", "/v1/chains/allBlocks"} {
		got, heights := pageToEnd[evmBlockReply](t, ctx, base+path, "blocks", 9, forFirstPages(2, bothChains))
		type placed struct {
			f *evmFixture
			h *truth.EVMHeader
		}
		var want []placed
		for _, f := range fixtures {
			pinned := heights[f.stream()]
			require.Positive(t, pinned, "%s: X-Indexed-Height %v names every chain", path, heights)
			for _, h := range f.headers(t, ctx, pinned) {
				want = append(want, placed{f, h})
			}
		}
		slices.SortFunc(want, func(a, b placed) int {
			return cmp.Or(cmp.Compare(b.h.Timestamp, a.h.Timestamp), cmp.Compare(a.f.chain.EVMChainID, b.f.chain.EVMChainID),
				cmp.Compare(b.h.Number, a.h.Number))
		})
		require.Len(t, got, len(want), path)
		t.Logf("%s: %d blocks of %d chains, pinned at %v", path, len(got), len(fixtures), heights)
		for i := range want {
			require.Equal(t, fmt.Sprintf("%d/%d", want[i].f.chain.EVMChainID, want[i].h.Number), got[i].ChainID+"/"+got[i].BlockNumber,
				"%s item %d", path, i)
			want[i].f.checkBlock(t, want[i].h, got[i])
		}
	}

	byChain := map[string]*evmFixture{}
	for _, f := range fixtures {
		byChain[f.chainID()] = f
	}
	for _, path := range []string{"/v1/transactions", "/v1/chains/allTransactions"} {
		for status, keep := range statusFilters() {
			q := url.Values{"network": {"local"}}
			if status != "" {
				q.Set("status", status)
			}
			got, heights := pageToEnd[dataapi.NativeTx](t, ctx, base+path+"?"+q.Encode(), "transactions", pageSizeFor(status, 11),
				forFirstPages(2, bothChains))
			var want []latestTx
			for _, f := range fixtures {
				want = append(want, f.expectedLatest(t, ctx, heights[f.stream()], keep)...)
			}
			slices.SortFunc(want, latestOrder)
			require.Len(t, got, len(want), "%s status %q", path, status)
			for i := range want {
				require.Equal(t, want[i].label(), nativeLabel(got[i]), "%s status %q item %d", path, status, i)
				byChain[got[i].ChainID].checkNativeTx(t, ctx, want[i].x, got[i], false)
			}
			t.Logf("%s status %q: %d txs, pinned at %v", path, status, len(got), heights)
		}
	}
	// Another network's chains: none.
	var none struct {
		Blocks []json.RawMessage `json:"blocks"`
	}
	harness.GetOK(t, ctx, base+"/v1/blocks?network=mainnet", &none)
	require.Empty(t, none.Blocks)
}

// TestEVMBlocksBadInput sends malformed and unanswerable requests to the
// block and latest-transaction operations: each gets its status and the
// spec's error body, never a 5xx.
func TestEVMBlocksBadInput(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		head := f.sync(t, ctx)
		chain := env.Base(t) + "/v1/chains/" + f.chainID()
		base := env.Base(t)
		unknownHash := "0x" + strings.Repeat("ab", 31) + "42"
		blocksToken := getPage(t, ctx, chain+"/blocks?pageSize=1", "blocks").next
		require.NotEmpty(t, blocksToken)
		txsToken := getPage(t, ctx, chain+"/transactions?pageSize=1", "transactions").next
		require.NotEmpty(t, txsToken)
		allToken := getPage(t, ctx, base+"/v1/blocks?pageSize=1", "blocks").next
		require.NotEmpty(t, allToken)
		beyond := strconv.FormatUint(head+1_000_000, 10)

		cases := []struct {
			name     string
			url      string
			status   int
			mentions string
		}{
			{"blocks: unknown chain", base + "/v1/chains/999999/blocks", 400, "chainId"},
			{"blocks: pageSize 0", chain + "/blocks?pageSize=0", 400, "pageSize"},
			{"blocks: pageSize 101", chain + "/blocks?pageSize=101", 400, "pageSize"},
			{"blocks: garbage token", chain + "/blocks?pageToken=garbage", 400, "pageToken"},
			{"blocks: token of the latest transactions", chain + "/blocks?pageToken=" + url.QueryEscape(txsToken), 400, "pageToken"},
			{"block: word", chain + "/blocks/latest", 400, "blockId"},
			{"block: negative", chain + "/blocks/-5", 400, "blockId"},
			{"block: short hash", chain + "/blocks/0x1234", 400, "blockId"},
			{"block: non-hex hash", chain + "/blocks/0x" + strings.Repeat("zz", 32), 400, "blockId"},
			{"block: number too large", chain + "/blocks/123456789012345678901234567890", 400, "blockId"},
			{"block: another network's C-chain", base + "/v1/chains/43114/blocks/1", 400, "chainId"},
			{"block: beyond the head", chain + "/blocks/" + beyond, 404, beyond},
			{"block: genesis", chain + "/blocks/0", 404, "genesis"},
			{"block: unknown hash", chain + "/blocks/" + unknownHash, 404, "hash"},
			{"block txs: bad blockId", chain + "/blocks/x/transactions", 400, "blockId"},
			{"block txs: beyond the head", chain + "/blocks/" + beyond + "/transactions", 404, beyond},
			{"block txs: unknown hash", chain + "/blocks/" + unknownHash + "/transactions", 404, "hash"},
			{"block txs: pageSize 101", chain + "/blocks/1/transactions?pageSize=101", 400, "pageSize"},
			{"block txs: pageSize -1", chain + "/blocks/1/transactions?pageSize=-1", 400, "pageSize"},
			{"block txs: token of the blocks", chain + "/blocks/1/transactions?pageToken=" + url.QueryEscape(blocksToken), 400, "pageToken"},
			{"latest txs: bad status", chain + "/transactions?status=pending", 400, "status"},
			{"latest txs: pageSize 0", chain + "/transactions?pageSize=0", 400, "pageSize"},
			{"latest txs: token of another status", chain + "/transactions?status=failed&pageToken=" + url.QueryEscape(txsToken), 400, "pageToken"},
			{"all blocks: bad network", base + "/v1/blocks?network=moon", 400, "network"},
			{"all blocks: pageSize 101", base + "/v1/chains/allBlocks?pageSize=101", 400, "pageSize"},
			{"all blocks: token of one chain", base + "/v1/blocks?pageToken=" + url.QueryEscape(blocksToken), 400, "pageToken"},
			{"all blocks: token of the other path", base + "/v1/chains/allBlocks?pageToken=" + url.QueryEscape(allToken), 400, "pageToken"},
			{"all txs: bad status", base + "/v1/transactions?status=ok", 400, "status"},
			{"all txs: bad network", base + "/v1/chains/allTransactions?network=moon", 400, "network"},
			{"all txs: token of the blocks", base + "/v1/transactions?pageToken=" + url.QueryEscape(allToken), 400, "pageToken"},
		}
		for _, c := range cases {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			require.Less(t, r.Status, 500, "%s: GET %s: %s", c.name, c.url, r.Body)
			t.Run(c.name, func(t *testing.T) {
				requireAPIError(t, r, c.status, false, c.mentions)
			})
		}
		// The static paths are not taken for a {chainId}.
		for _, u := range []string{base + "/v1/chains/allBlocks", base + "/v1/chains/allTransactions", chain + "/blocks/1/transactions?pageSize=0"} {
			r := harness.GetWithRetryAfter(t, ctx, u)
			require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
		}
	})
}
