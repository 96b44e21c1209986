package evm

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// An address's typed histories (listNativeTransactions, listErc20/721/1155
// Transactions, listInternalTransactions) and listTransactionsV2, compared
// with the node's blocks, receipts' logs and debug_traceBlockByNumber
// traces (package truth).

// internalEntry is an item of listInternalTransactions (InternalTransaction).
type internalEntry struct {
	BlockNumber    string `json:"blockNumber"`
	BlockTimestamp int64  `json:"blockTimestamp"`
	BlockHash      string `json:"blockHash"`
	TxHash         string `json:"txHash"`
	dataapi.InternalTx
}

// historyItem is one item of a typed history as the node has it: its
// block, and a key that names it among the address's items.
type historyItem struct {
	block uint64
	key   string
}

func keysOf(items []historyItem) []string {
	out := []string{}
	for _, it := range items {
		out = append(out, it.key)
	}
	return out
}

// nativeKey, transferKey and internalKey name an item the same way from
// the node's data and from avadata's answer.
func nativeKey(hash common.Hash) string { return hash.Hex() }

func transferKey(hash common.Hash, logIndex int, tokenID, value string) string {
	return fmt.Sprintf("%s/%d/%s/%s", hash.Hex(), logIndex, tokenID, value)
}

func internalKey(hash common.Hash, from, to common.Address, typ, value string) string {
	return fmt.Sprintf("%s/%s>%s/%s/%s", hash.Hex(), from.Hex(), to.Hex(), typ, value)
}

// newestFirst lists the node's transactions newest first: block, then
// index, descending.
func (f *evmFixture) newestFirst() []*truth.EVMTx {
	return harness.Reversed(f.truth.All())
}

// nativeTruth lists the top-level txs addr sent, received or created a
// contract by, in blocks [from, to) (to 0: no bound), newest first.
func (f *evmFixture) nativeTruth(addr common.Address, from, to uint64) []historyItem {
	var out []historyItem
	for _, x := range f.newestFirst() {
		created := x.Receipt.Status == 1 && x.Receipt.ContractAddress != nil && *x.Receipt.ContractAddress == addr
		if inWindow(x.Block.Number, from, to) && (x.From == addr || (x.To != nil && *x.To == addr) || created) {
			out = append(out, historyItem{x.Block.Number, nativeKey(x.Hash)})
		}
	}
	return out
}

// transferTruth lists the transfers of standard kind addr sent or received,
// newest first (block, log index, batch element).
func (f *evmFixture) transferTruth(addr common.Address, kind string, from, to uint64) []historyItem {
	var out []historyItem
	for _, x := range f.newestFirst() {
		trs := slices.Clone(x.Transfers)
		slices.SortStableFunc(trs, func(a, b truth.EVMTransfer) int {
			if a.LogIndex != b.LogIndex {
				return int(b.LogIndex) - int(a.LogIndex)
			}
			return b.BatchIndex - a.BatchIndex
		})
		for _, tr := range trs {
			if tr.Kind == kind && (tr.From == addr || tr.To == addr) && inWindow(x.Block.Number, from, to) {
				out = append(out, historyItem{x.Block.Number, transferKey(x.Hash, int(tr.LogIndex), decimalOrEmpty(tr.TokenID), decimalOrEmpty(tr.Value))})
			}
		}
	}
	return out
}

// internalTruth lists the internal txs addr sent or received, newest first
// (block, tx, frame: a trace's frames are in depth-first order).
func (f *evmFixture) internalTruth(addr common.Address, from, to uint64) []historyItem {
	var out []historyItem
	for _, x := range f.newestFirst() {
		for _, in := range harness.Reversed(slices.Clone(x.Internal)) {
			if (in.From == addr || in.To == addr) && inWindow(x.Block.Number, from, to) {
				out = append(out, historyItem{x.Block.Number, internalKey(x.Hash, in.From, in.To, in.Type, in.Value.String())})
			}
		}
	}
	return out
}

func inWindow(n, from, to uint64) bool { return n >= from && (to == 0 || n < to) }

func decimalOrEmpty(v *big.Int) string {
	if v == nil {
		return ""
	}
	return v.String()
}

// typedHistory is one of the typed histories under test.
type typedHistory struct {
	suffix string
	truth  func(f *evmFixture, addr common.Address, from, to uint64) []historyItem
	// list reads the whole history at u, page by page, checking every item
	// against the node, and returns the items' keys.
	list func(t *testing.T, ctx context.Context, f *evmFixture, u string, pageSize int) []string
}

func typedHistories() []typedHistory {
	transfers := func(kind string) typedHistory {
		return typedHistory{
			suffix: map[string]string{"ERC-20": ":listErc20", "ERC-721": ":listErc721", "ERC-1155": ":listErc1155"}[kind],
			truth: func(f *evmFixture, addr common.Address, from, to uint64) []historyItem {
				return f.transferTruth(addr, kind, from, to)
			},
			list: func(t *testing.T, ctx context.Context, f *evmFixture, u string, pageSize int) []string {
				out := []string{}
				for _, g := range harness.ListAll[dataapi.Transfer](t, ctx, u, "transactions", pageSize) {
					out = append(out, f.checkHistoryTransfer(t, ctx, kind, g))
				}
				return out
			},
		}
	}
	return []typedHistory{
		{
			suffix: ":listNative",
			truth:  (*evmFixture).nativeTruth,
			list: func(t *testing.T, ctx context.Context, f *evmFixture, u string, pageSize int) []string {
				out := []string{}
				for _, g := range harness.ListAll[dataapi.NativeTx](t, ctx, u, "transactions", pageSize) {
					x, ok := f.truth.Tx(common.HexToHash(g.TxHash))
					require.True(t, ok, "%s: %s lists %s, which the node does not have", f.name(), u, g.TxHash)
					f.checkNativeTx(t, ctx, x, g, false)
					out = append(out, nativeKey(x.Hash))
				}
				return out
			},
		},
		transfers("ERC-20"), transfers("ERC-721"), transfers("ERC-1155"),
		{
			suffix: ":listInternals",
			truth:  (*evmFixture).internalTruth,
			list: func(t *testing.T, ctx context.Context, f *evmFixture, u string, pageSize int) []string {
				out := []string{}
				for _, g := range harness.ListAll[internalEntry](t, ctx, u, "transactions", pageSize) {
					out = append(out, f.checkListedInternal(t, g))
				}
				return out
			},
		},
	}
}

// checkHistoryTransfer finds a transfer of a typed history in its tx's logs
// (by log index and token id), compares it with the log, its block and tx,
// and returns its key.
func (f *evmFixture) checkHistoryTransfer(t *testing.T, ctx context.Context, kind string, g dataapi.Transfer) string {
	t.Helper()
	require.NotNil(t, g.TxHash, "%s: a listed transfer names its tx", f.name())
	x, ok := f.truth.Tx(common.HexToHash(*g.TxHash))
	require.True(t, ok, "%s: transfer of unknown tx %s", f.name(), *g.TxHash)
	tokenID := ""
	for _, tok := range []*dataapi.Token{g.Erc20Token, g.Erc721Token, g.Erc1155Token} {
		if tok != nil && tok.TokenID != nil {
			tokenID = *tok.TokenID
		}
	}
	what := fmt.Sprintf("%s %s transfer of %s log %d id %q", f.name(), kind, x.Hash, g.LogIndex, tokenID)
	for _, w := range x.Transfers {
		if int(w.LogIndex) == g.LogIndex && w.Kind == kind && decimalOrEmpty(w.TokenID) == tokenID {
			f.checkListedTransfer(t, ctx, truth.EVMTokenTransfer{Tx: x, EVMTransfer: w}, g, what)
			return transferKey(x.Hash, g.LogIndex, tokenID, decimalOrEmpty(w.Value))
		}
	}
	t.Fatalf("%s: no such transfer in the receipt's logs", what)
	return ""
}

// checkListedInternal checks an internal tx's block fields and returns its
// key; its other fields are in the key, compared with the trace.
func (f *evmFixture) checkListedInternal(t *testing.T, g internalEntry) string {
	t.Helper()
	x, ok := f.truth.Tx(common.HexToHash(g.TxHash))
	require.True(t, ok, "%s: internal tx of unknown tx %s", f.name(), g.TxHash)
	what := fmt.Sprintf("%s internal tx of %s", f.name(), x.Hash)
	harness.RequireUintString(t, x.Block.Number, g.BlockNumber, what+" blockNumber")
	require.Equal(t, int64(x.Block.Timestamp), g.BlockTimestamp, what+" blockTimestamp")
	require.Equal(t, x.Block.Hash, common.HexToHash(g.BlockHash), what+" blockHash")
	for _, w := range x.Internal {
		if sameAddress(g.From.Address, w.From) && sameAddress(g.To.Address, w.To) && w.Type == g.InternalTxType &&
			w.Value.String() == g.Value {
			require.Equal(t, w.Reverted, g.IsReverted, what+" isReverted")
			harness.RequireUintString(t, w.GasUsed, g.GasUsed, what+" gasUsed")
			harness.RequireUintString(t, w.Gas, g.GasLimit, what+" gasLimit")
			break
		}
	}
	return internalKey(x.Hash, common.HexToAddress(g.From.Address), common.HexToAddress(g.To.Address), g.InternalTxType, g.Value)
}

// historyURL is the typed history (suffix) of addr with query.
func (f *evmFixture) historyURL(addr common.Address, suffix string, query url.Values) string {
	return f.evmURL("/addresses/"+addr.Hex()+"/transactions"+suffix, query)
}

// TestEVMTypedHistories lists each typed history of the activity's accounts
// and contracts and checks it is exactly the set the node's receipts and
// traces give, newest first, every item as the node has it, paged to the
// end with small pages, and cut by startBlock/endBlock where the spec says.
func TestEVMTypedHistories(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		addrs := map[string]common.Address{
			"EWOQ": f.ewoq.Address(), "user": f.user.Address(), "recipient 0": f.recipients[0],
			"recipient 2": f.recipients[2], "ERC-20": f.erc20, "ERC-721": f.erc721, "ERC-1155": f.erc1155,
			"Factory": f.factory, "Forwarder": f.forwarder, "Reverter": f.reverter, "factory child": f.children[0].addr,
		}
		nonEmpty := map[string]int{}
		for _, h := range typedHistories() {
			for name, addr := range addrs {
				want := keysOf(h.truth(f, addr, 0, 0))
				if len(want) > 0 {
					nonEmpty[h.suffix]++
					t.Logf("%s: %s of %s: %d items", f.name(), h.suffix, name, len(want))
				}
				got := h.list(t, ctx, f, f.historyURL(addr, h.suffix, url.Values{"pageSize": {"100"}}), 100)
				require.Equal(t, want, got, "%s: %s of %s (%s), newest first", f.name(), h.suffix, name, addr)
				if len(want) > 2 {
					paged := h.list(t, ctx, f, f.historyURL(addr, h.suffix, url.Values{"pageSize": {"2"}}), 2)
					require.Equal(t, want, paged, "%s: %s of %s in pages of 2", f.name(), h.suffix, name)
				}
			}
			require.Positive(t, nonEmpty[h.suffix], "%s: no address has a %s history: the comparison is vacuous", f.name(), h.suffix)
			t.Logf("%s: %s: %d of %d addresses have items", f.name(), h.suffix, nonEmpty[h.suffix], len(addrs))
			f.checkHistoryWindows(t, ctx, h, addrs)
		}
	})
}

// checkHistoryWindows lists h within block ranges around the items of the
// address with the longest history: startBlock inclusive, endBlock
// exclusive, either alone bounding one side.
func (f *evmFixture) checkHistoryWindows(t *testing.T, ctx context.Context, h typedHistory, addrs map[string]common.Address) {
	t.Helper()
	var addr common.Address
	var all []historyItem
	for _, a := range addrs {
		if items := h.truth(f, a, 0, 0); len(items) > len(all) {
			addr, all = a, items
		}
	}
	var blocks []uint64
	for _, it := range all {
		if len(blocks) == 0 || blocks[len(blocks)-1] != it.block {
			blocks = append(blocks, it.block)
		}
	}
	require.GreaterOrEqual(t, len(blocks), 2, "%s: %s needs items in two blocks to cut", f.name(), h.suffix)
	newest, middle, oldest := blocks[0], blocks[len(blocks)/2], blocks[len(blocks)-1]
	for _, r := range []struct{ start, end *uint64 }{
		{start: &middle},
		{end: &middle},
		{start: &oldest, end: &newest},
		{start: harness.Ptr(oldest + 1), end: harness.Ptr(newest + 1)},
		{start: &middle, end: harness.Ptr(middle + 1)},
		{start: harness.Ptr(newest + 1000)},
	} {
		q := url.Values{"pageSize": {"100"}}
		from, to := uint64(0), uint64(0)
		if r.start != nil {
			from = *r.start
			q.Set("startBlock", fmt.Sprint(from))
		}
		if r.end != nil {
			to = *r.end
			q.Set("endBlock", fmt.Sprint(to))
		}
		want := keysOf(h.truth(f, addr, from, to))
		got := h.list(t, ctx, f, f.historyURL(addr, h.suffix, q), 100)
		require.Equal(t, want, got, "%s: %s of %s with %s", f.name(), h.suffix, addr, q.Encode())
	}
}

// TestEVMTypedHistoryBadInput sends malformed requests to each typed
// history and to listTransactionsV2: each gets its 400 or 404 with the
// spec's error body naming the parameter, never a 5xx.
func TestEVMTypedHistoryBadInput(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		me := f.ewoq.Address()
		_, nativeToken := harness.ListPage[dataapi.NativeTx](t, ctx, f.historyURL(me, ":listNative", url.Values{"pageSize": {"1"}}), "transactions")
		require.NotEmpty(t, nativeToken, "EWOQ has more than one native transaction")
		mineV2 := f.base + "/v2/chains/" + f.chainID() + "/addresses/" + me.Hex() + "/transactions"
		v2Token := getV2Page(t, ctx, mineV2+"?pageSize=1").next
		require.NotEmpty(t, v2Token)
		type badCase struct {
			name, url string
			status    int
			mentions  string
		}
		var cases []badCase
		// Each operation's path on an EVM chain and an address.
		paths := map[string]func(chain, addr string) string{
			"listTransactionsV2": func(chain, addr string) string {
				return f.base + "/v2/chains/" + chain + "/addresses/" + addr + "/transactions"
			},
		}
		for _, h := range typedHistories() {
			paths[h.suffix] = func(chain, addr string) string {
				return f.base + "/v1/chains/" + chain + "/addresses/" + addr + "/transactions" + h.suffix
			}
		}
		for op, path := range paths {
			mine := path(f.chainID(), me.Hex())
			cases = append(cases,
				badCase{op + ": malformed address", path(f.chainID(), "0x1234"), 400, "address"},
				badCase{op + ": non-hex address", path(f.chainID(), "0xZZ97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), 400, "address"},
				badCase{op + ": unknown chain id", path("999999", me.Hex()), 400, "chainId"},
				badCase{op + ": another network's C-chain", path("43114", me.Hex()), 400, "chainId"},
				badCase{op + ": pageSize 0", mine + "?pageSize=0", 400, "pageSize"},
				badCase{op + ": pageSize 101", mine + "?pageSize=101", 400, "pageSize"},
				badCase{op + ": pageSize not a number", mine + "?pageSize=ten", 400, "pageSize"},
				badCase{op + ": negative startBlock", mine + "?startBlock=-1", 400, "startBlock"},
				badCase{op + ": non-numeric endBlock", mine + "?endBlock=latest", 400, "endBlock"},
				badCase{op + ": empty block range", mine + "?startBlock=9&endBlock=9", 400, "startBlock"},
				badCase{op + ": garbage page token", mine + "?pageToken=not-a-token", 400, "pageToken"},
				badCase{op + ": page token of another address",
					path(f.chainID(), f.user.Address().Hex()) + "?pageSize=1&pageToken=" + url.QueryEscape(nativeToken), 400, "pageToken"},
			)
			if op != ":listNative" {
				cases = append(cases, badCase{op + ": page token of another endpoint", mine + "?pageSize=1&pageToken=" + url.QueryEscape(nativeToken), 400, "pageToken"})
			}
		}
		cases = append(cases,
			badCase{"listTransactionsV2: bad sortOrder", mineV2 + "?sortOrder=sideways", 400, "sortOrder"},
			badCase{"listTransactionsV2: bad filterSpamTokens", mineV2 + "?filterSpamTokens=yes", 400, "filterSpamTokens"},
			badCase{"listTransactionsV2: token of another filterSpamTokens", mineV2 + "?pageSize=1&filterSpamTokens=true&pageToken=" + url.QueryEscape(v2Token), 400, "pageToken"},
			badCase{"listTransactionsV2: token of another sortOrder", mineV2 + "?pageSize=1&sortOrder=asc&pageToken=" + url.QueryEscape(v2Token), 400, "pageToken"},
			badCase{"listTransactions: token of v2", f.addressTxsURL(me, nil) + "?pageSize=1&pageToken=" + url.QueryEscape(v2Token), 400, "pageToken"},
			badCase{"unknown typed history", f.historyURL(me, ":listErc777", nil), 404, ""},
		)
		for _, c := range cases {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			require.Less(t, r.Status, 500, "%s: GET %s: %s", c.name, c.url, r.Body)
			t.Run(c.name, func(t *testing.T) {
				requireAPIError(t, r, c.status, false, c.mentions)
			})
		}

		// The edges are fine.
		for _, path := range paths {
			for _, q := range []string{"?pageSize=1", "?pageSize=100", "?startBlock=0&endBlock=1", "?endBlock=0"} {
				u := path(f.chainID(), me.Hex()) + q
				r := harness.GetWithRetryAfter(t, ctx, u)
				require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
			}
		}
	})
}
