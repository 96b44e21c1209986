package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/api"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

var aliceTxsPath = "/v1/chains/43112/addresses/" + testEVMAddr + "/transactions"

// txBlocks lists the block numbers of a transactions page.
func txBlocks(t *testing.T, body map[string]any) []string {
	t.Helper()
	var blocks []string
	for _, entry := range body["transactions"].([]any) {
		blocks = append(blocks, entry.(map[string]any)["nativeTransaction"].(map[string]any)["blockNumber"].(string))
	}
	return blocks
}

// withToken adds a pageToken to a query.
func withToken(path string, body map[string]any) string {
	sep := "?"
	if u, _ := url.Parse(path); u.RawQuery != "" {
		sep = "&"
	}
	return path + sep + "pageToken=" + url.QueryEscape(body["nextPageToken"].(string))
}

// arrive indexes a new transaction of alice's at height and moves the
// C-chain follower there.
func arrive(backend *fakeBackend, height uint64) {
	tx := evmdata.Tx{Hash: txHashN(1000 + height), From: alice, To: addrPtr(bob), Value: avax(1), Status: 1}
	backend.evm.addTx(netinfo.C, evmdata.IndexedTx{Block: blockRef(height), Tx: tx, Traced: true})
	backend.setIndexedHeight(netinfo.C, height)
}

func TestListEVMAddressTxs(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, aliceTxsPath)
	require.Equal(t, []string{"15", "14", "13", "12", "11", "10"}, txBlocks(t, body), "newest first by default")
	require.NotContains(t, body, "nextPageToken", "the last page has no token")

	trade := body["transactions"].([]any)[2].(map[string]any)
	require.Len(t, trade["erc721Transfers"], 1)
	require.Len(t, trade["erc1155Transfers"], 1)
	require.Equal(t, []any{}, trade["erc20Transfers"], "bob's transfer to carol does not involve alice")
	internals := trade["internalTransactions"].([]any)
	require.Len(t, internals, 1, "only the frame that pays alice")
	require.Equal(t, "CALL", internals[0].(map[string]any)["internalTxType"])
	require.Equal(t, map[string]any{"address": bob.Hex()}, trade["nativeTransaction"].(map[string]any)["from"])

	asc := getBody(t, srv, aliceTxsPath+"?sortOrder=ASC")
	require.Equal(t, []string{"10", "11", "12", "13", "14", "15"}, txBlocks(t, asc))

	bobs := getBody(t, srv, "/v1/chains/43112/addresses/"+testEVMAddr2+"/transactions")
	require.Equal(t, []string{"14", "13", "12"}, txBlocks(t, bobs))

	nobody := getBody(t, srv, "/v1/chains/43112/addresses/0x000000000000000000000000000000000000dEaD/transactions")
	require.Equal(t, map[string]any{"transactions": []any{}}, nobody)

	subnet := getBody(t, srv, "/v1/chains/779672/addresses/"+testEVMAddr+"/transactions")
	require.Equal(t, []string{"3"}, txBlocks(t, subnet), "each chain lists its own transactions")
	require.Equal(t, "779672", subnet["transactions"].([]any)[0].(map[string]any)["nativeTransaction"].(map[string]any)["chainId"])
}

func TestListEVMAddressTxsBlockRange(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	require.Equal(t, []string{"13", "12", "11"}, txBlocks(t, getBody(t, srv, aliceTxsPath+"?startBlock=11&endBlock=14")))
	require.Equal(t, []string{"14", "15"}, txBlocks(t, getBody(t, srv, aliceTxsPath+"?startBlock=14&sortOrder=asc")))
	require.Equal(t, []string{"11", "10"}, txBlocks(t, getBody(t, srv, aliceTxsPath+"?endBlock=12")))

	calls := len(backend.evm.addressQueries)
	empty := getBody(t, srv, aliceTxsPath+"?endBlock=0")
	require.Equal(t, []any{}, empty["transactions"], "endBlock is exclusive: 0 selects nothing")
	require.Len(t, backend.evm.addressQueries, calls, "nothing to read")
}

func TestListEVMAddressTxsPagingPinsTheFirstPage(t *testing.T) {
	for _, order := range []string{"desc", "asc"} {
		t.Run(order, func(t *testing.T) {
			backend := withFixtures(t, newFakeBackend())
			srv := newTestAPI(t, testConfig(), backend, nil)
			path := aliceTxsPath + "?pageSize=2&sortOrder=" + order

			var seen []string
			body := getBody(t, srv, path)
			for {
				seen = append(seen, txBlocks(t, body)...)
				// Blocks keep arriving while the client pages.
				arrive(backend, uint64(16+len(seen)))
				if _, more := body["nextPageToken"]; !more {
					break
				}
				body = getBody(t, srv, withToken(path, body))
			}
			want := []string{"15", "14", "13", "12", "11", "10"}
			if order == "asc" {
				want = []string{"10", "11", "12", "13", "14", "15"}
			}
			require.Equal(t, want, seen, "no item repeated or skipped, nothing above the first page's height")
			for _, q := range backend.evm.addressQueries {
				require.Equal(t, uint64(fixtureHeight), q.Pinned)
				require.Equal(t, 3, q.Limit, "one more than the page size")
			}

			fresh := getBody(t, srv, path)
			last := backend.evm.addressQueries[len(backend.evm.addressQueries)-1]
			require.Equal(t, uint64(22), last.Pinned, "a new first page pins anew")
			if order == "desc" {
				require.Equal(t, "22", txBlocks(t, fresh)[0])
			}
		})
	}
}

func TestListEVMAddressTxsTokens(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	first := getBody(t, srv, aliceTxsPath+"?pageSize=2")
	token := first["nextPageToken"].(string)

	transfers := getBody(t, srv, "/v1/chains/43112/tokens/"+wavax.Hex()+"/transfers?pageSize=1")
	otherEndpoint := transfers["nextPageToken"].(string)

	forged, err := api.EncodePageToken([]byte("not the node's key"), api.PageToken{Route: routeListEVMAddressTxs, IssuedAt: srv.clock.Now()})
	require.NoError(t, err)

	for name, tt := range map[string]struct {
		path      string
		fragments []string
	}{
		"other sort order": {aliceTxsPath + "?pageSize=2&sortOrder=asc&pageToken=" + token, []string{"other parameters"}},
		"other address":    {"/v1/chains/43112/addresses/" + testEVMAddr2 + "/transactions?pageSize=2&pageToken=" + token, []string{"other parameters"}},
		"other chain":      {"/v1/chains/779672/addresses/" + testEVMAddr + "/transactions?pageSize=2&pageToken=" + token, []string{"other parameters"}},
		"other range":      {aliceTxsPath + "?pageSize=2&startBlock=1&pageToken=" + token, []string{"other parameters"}},
		"other endpoint":   {aliceTxsPath + "?pageSize=1&pageToken=" + otherEndpoint, []string{"another endpoint"}},
		"forged":           {aliceTxsPath + "?pageSize=2&pageToken=" + forged, []string{"signature"}},
		"truncated":        {aliceTxsPath + "?pageSize=2&pageToken=" + token[:20], []string{"invalid pageToken"}},
	} {
		t.Run(name, func(t *testing.T) {
			requireDataError(t, srv.get(t, tt.path), http.StatusBadRequest, tt.fragments...)
		})
	}

	t.Run("another page size continues the query", func(t *testing.T) {
		require.Equal(t, []string{"13", "12", "11"}, txBlocks(t, getBody(t, srv, aliceTxsPath+"?pageSize=3&pageToken="+token)))
	})

	t.Run("same query through another chain form", func(t *testing.T) {
		path := "/v1/chains/" + testCChainID.String() + "/addresses/" + testEVMAddr + "/transactions?pageSize=2&pageToken=" + token
		require.Equal(t, []string{"13", "12"}, txBlocks(t, getBody(t, srv, path)))
	})

	t.Run("a token whose cursor this version cannot read", func(t *testing.T) {
		s := newTestServer(backend.readers(), srv.clock.Now)
		pg, err := s.ParsePage(context.Background(), &api.Heights{}, url.Values{}, api.DataPaging(routeListEVMAddressTxs, true),
			netinfo.C.String(), "0x71c7656ec7ab88b098defb751b7401b5f6d8976f", "", "")
		require.NoError(t, err)
		odd, err := s.NextPageToken(pg, fixtureHeight, []byte{1, 2, 3})
		require.NoError(t, err)
		requireDataError(t, srv.get(t, aliceTxsPath+"?pageToken="+odd), http.StatusBadRequest, "invalid pageToken", "position")
	})
}

func TestListEVMAddressTxsFailures(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	backend.evm.err = errors.New("badger: value log corrupt")
	msg := requireDataError(t, srv.get(t, aliceTxsPath), http.StatusInternalServerError, "internal error")
	require.NotContains(t, msg, "badger")

	cfg := testConfig()
	cfg.RequestTimeout = 20 * time.Millisecond
	slow := newTestAPI(t, cfg, backend, nil)
	backend.evm.err, backend.evm.block = nil, true
	requireDataError(t, slow.get(t, aliceTxsPath), http.StatusServiceUnavailable, "did not finish within 20ms")
}
