package evm

import (
	"context"
	"encoding/json"
	"fmt"
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

// v2Page is one page of listTransactionsV2, read raw: its entries decoded
// as v1's (the V2 shapes differ only in erc20Token.tokenReputation) and
// the members each entry has.
type v2Page struct {
	entries []dataapi.TxDetails
	members [][]string
	next    string
}

// getV2Page reads one page: 200, JSON, no null but the ERC-20 tokens'
// tokenReputation (required and nullable: null, unknown), which must be
// there.
func getV2Page(t *testing.T, ctx context.Context, u string) v2Page {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, u)
	require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json", "GET %s", u)
	var raw struct {
		Transactions  []map[string]json.RawMessage `json:"transactions"`
		NextPageToken *string                      `json:"nextPageToken"`
	}
	r.Decode(t, &raw)
	require.NotNil(t, raw.Transactions, "GET %s: transactions must be an array", u)
	var out v2Page
	for _, entry := range raw.Transactions {
		var members []string
		for k := range entry {
			members = append(members, k)
		}
		slices.Sort(members)
		out.members = append(out.members, members)
		if list, ok := entry["erc20Transfers"]; ok {
			var transfers []struct {
				Erc20Token map[string]json.RawMessage `json:"erc20Token"`
			}
			require.NoError(t, json.Unmarshal(list, &transfers))
			for _, tr := range transfers {
				rep, ok := tr.Erc20Token["tokenReputation"]
				require.True(t, ok, "GET %s: tokenReputation is required", u)
				require.Equal(t, "null", string(rep), "GET %s: tokenReputation is null when unknown", u)
				delete(tr.Erc20Token, "tokenReputation")
				b, err := json.Marshal(tr.Erc20Token)
				require.NoError(t, err)
				harness.RequireNoNulls(t, b, u+" erc20Token")
			}
		}
		rest := map[string]json.RawMessage{}
		for k, v := range entry {
			if k != "erc20Transfers" {
				rest[k] = v
			}
		}
		b, err := json.Marshal(rest)
		require.NoError(t, err)
		harness.RequireNoNulls(t, b, u)
		var e dataapi.TxDetails
		b, err = json.Marshal(entry)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, &e))
		out.entries = append(out.entries, e)
	}
	if raw.NextPageToken != nil {
		require.NotEmpty(t, *raw.NextPageToken, "GET %s: an empty nextPageToken must be omitted", u)
		out.next = *raw.NextPageToken
	}
	return out
}

// TestEVMTransactionsV2 lists the activity's addresses with
// listTransactionsV2 and checks the same set and order as the node gives
// for listTransactions, both orders, in pages, with windows, every entry as
// the node has it, and no empty list in any entry (v1 and v2).
func TestEVMTransactionsV2(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		v2 := func(addr common.Address, q url.Values) string {
			return f.base + "/v2/chains/" + f.chainID() + "/addresses/" + addr.Hex() + "/transactions?" + q.Encode()
		}
		listAll := func(u string) ([]dataapi.TxDetails, [][]string) {
			var entries []dataapi.TxDetails
			var members [][]string
			next := ""
			for page := 0; ; page++ {
				require.Less(t, page, 1000, "GET %s: paging does not end", u)
				pu := u
				if next != "" {
					pu = harness.WithQuery(u, "pageToken", next)
				}
				p := getV2Page(t, ctx, pu)
				entries, members = append(entries, p.entries...), append(members, p.members...)
				if p.next == "" {
					return entries, members
				}
				next = p.next
			}
		}
		for name, addr := range map[string]common.Address{
			"EWOQ": f.ewoq.Address(), "user": f.user.Address(), "recipient 0": f.recipients[0], "ERC-20": f.erc20,
			"Forwarder": f.forwarder, "factory child": f.children[0].addr,
		} {
			want := f.truth.Involving(addr, 0, 0)
			for _, order := range []string{"desc", "asc"} {
				for _, size := range []string{"100", "3"} {
					got, members := listAll(v2(addr, url.Values{"pageSize": {size}, "sortOrder": {order}}))
					wantHashes := truth.EVMHashes(want)
					if order == "asc" {
						wantHashes = harness.Reversed(wantHashes)
					}
					require.Equal(t, wantHashes, dataapi.TxHashes(got), "%s: v2 transactions of %s (%s), %s, pages of %s", f.name(), name, addr, order, size)
					for i := range got {
						x, _ := f.truth.Tx(common.HexToHash(got[i].NativeTransaction.TxHash))
						f.checkNativeTx(t, ctx, x, got[i].NativeTransaction, false)
						f.checkLists(t, ctx, x, got[i], addr)
						requireNoEmptyLists(t, got[i], members[i], fmt.Sprintf("%s v2 entry %s of %s", f.name(), x.Hash, addr))
					}
				}
			}
			unfiltered, _ := listAll(v2(addr, url.Values{"pageSize": {"100"}, "filterSpamTokens": {"false"}}))
			require.Equal(t, truth.EVMHashes(want), dataapi.TxHashes(unfiltered), "%s: filterSpamTokens=false", f.name())
			// What the spam rule judges is not this test's: filtering may
			// only leave entries out, in order.
			filtered, _ := listAll(v2(addr, url.Values{"pageSize": {"100"}, "filterSpamTokens": {"true"}}))
			rest := truth.EVMHashes(want)
			for _, h := range dataapi.TxHashes(filtered) {
				i := slices.Index(rest, h)
				require.GreaterOrEqual(t, i, 0, "%s: filterSpamTokens=true lists %s out of order or not at all in the unfiltered list", f.name(), h)
				rest = rest[i+1:]
			}
		}

		// Windows.
		me := f.ewoq.Address()
		all := f.truth.Involving(me, 0, 0)
		newest, oldest := all[0].Block.Number, all[len(all)-1].Block.Number
		middle := all[len(all)/2].Block.Number
		for _, w := range [][2]uint64{{middle, 0}, {0, middle}, {oldest + 1, newest}, {middle, middle + 1}} {
			q := url.Values{"pageSize": {"100"}}
			if w[0] != 0 {
				q.Set("startBlock", fmt.Sprint(w[0]))
			}
			if w[1] != 0 {
				q.Set("endBlock", fmt.Sprint(w[1]))
			}
			got, _ := listAll(v2(me, q))
			want := truth.EVMHashes(f.truth.Involving(me, w[0], w[1]))
			if len(want) == 0 {
				want = []common.Hash{}
			}
			require.Equal(t, want, dataapi.TxHashes(got), "%s: v2 transactions of EWOQ with %s", f.name(), q.Encode())
		}

		// v1 entries omit their empty lists too.
		r := harness.GetWithRetryAfter(t, ctx, f.addressTxsURL(me, url.Values{"pageSize": {"100"}}))
		require.Equal(t, http.StatusOK, r.Status)
		var v1 struct {
			Transactions []map[string]json.RawMessage `json:"transactions"`
		}
		r.Decode(t, &v1)
		require.NotEmpty(t, v1.Transactions)
		bare := 0
		for _, entry := range v1.Transactions {
			for k, v := range entry {
				require.NotEqual(t, "[]", string(v), "%s: v1 entry member %s is an empty list", f.name(), k)
			}
			if len(entry) == 1 {
				bare++
			}
		}
		require.Positive(t, bare, "%s: EWOQ has plain sends: entries with nothing but nativeTransaction", f.name())
	})
}

// requireNoEmptyLists: an entry's lists are present only when not empty.
func requireNoEmptyLists(t *testing.T, e dataapi.TxDetails, members []string, what string) {
	t.Helper()
	has := func(m string) bool { return slices.Contains(members, m) }
	require.Equal(t, len(e.Erc20Transfers) > 0, has("erc20Transfers"), what+": erc20Transfers")
	require.Equal(t, len(e.Erc721Transfers) > 0, has("erc721Transfers"), what+": erc721Transfers")
	require.Equal(t, len(e.Erc1155Transfers) > 0, has("erc1155Transfers"), what+": erc1155Transfers")
	require.Equal(t, e.InternalTransactions != nil && len(*e.InternalTransactions) > 0, has("internalTransactions"), what+": internalTransactions")
}

// TestEVMTransactionsV2Paging pages through EWOQ's v2 transactions oldest
// first, two at a time, while new transactions of EWOQ are made and
// indexed between pages: the pages together are exactly the list as it
// stood at the first page (the token pins its height); afterwards EWOQ's
// native history starts with the new transactions.
func TestEVMTransactionsV2Paging(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		me := f.ewoq.Address()
		f.sync(t, ctx)
		snapshot := harness.Reversed(truth.EVMHashes(f.truth.Involving(me, 0, 0)))
		base := f.base + "/v2/chains/" + f.chainID() + "/addresses/" + me.Hex() + "/transactions?pageSize=2&sortOrder=asc"
		var got, sent []common.Hash
		next := ""
		for page := 0; ; page++ {
			require.Less(t, page, len(snapshot), "%s: paging does not end", f.name())
			u := base
			if next != "" {
				u = harness.WithQuery(base, "pageToken", next)
			}
			p := getV2Page(t, ctx, u)
			got = append(got, dataapi.TxHashes(p.entries)...)
			if p.next == "" {
				break
			}
			next = p.next
			if page < pagingBursts {
				sent = append(sent, f.sendAndIndex(t, ctx, 100+page))
			}
		}
		require.Len(t, sent, pagingBursts)
		require.Equal(t, snapshot, got, "%s: EWOQ's v2 transactions paged oldest first while blocks were made", f.name())

		f.sync(t, ctx)
		native := harness.ListAll[dataapi.NativeTx](t, ctx, f.historyURL(me, ":listNative", url.Values{"pageSize": {"100"}}), "transactions", 100)
		require.GreaterOrEqual(t, len(native), len(sent))
		var newest []common.Hash
		for _, n := range native[:len(sent)] {
			newest = append(newest, common.HexToHash(n.TxHash))
		}
		require.Equal(t, harness.Reversed(sent), newest, "%s: the native history starts with the new transactions", f.name())
		require.Equal(t, keysOf(f.nativeTruth(me, 0, 0)), func() []string {
			out := []string{}
			for _, n := range native {
				out = append(out, nativeKey(common.HexToHash(n.TxHash)))
			}
			return out
		}(), "%s: EWOQ's native history after the new transactions", f.name())
	})
}
