package evm

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

var aliceTxsPath = "/v1/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions"

func TestListEVMAddressTxs(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, aliceTxsPath)
	require.Equal(t, []string{"15", "14", "13", "12", "11", "10"}, handlertest.TxBlocks(t, body), "newest first by default")
	require.NotContains(t, body, "nextPageToken", "the last page has no token")

	trade := body["transactions"].([]any)[2].(map[string]any)
	require.Len(t, trade["erc721Transfers"], 1)
	require.Len(t, trade["erc1155Transfers"], 1)
	require.NotContains(t, trade, "erc20Transfers", "bob's transfer to carol does not involve alice: the empty list is omitted")
	internals := trade["internalTransactions"].([]any)
	require.Len(t, internals, 1, "only the frame that pays alice")
	require.Equal(t, "CALL", internals[0].(map[string]any)["internalTxType"])
	require.Equal(t, map[string]any{"address": handlertest.Bob.Hex()}, trade["nativeTransaction"].(map[string]any)["from"])

	// A plain AVAX send and a traced tx without internal transactions
	// carry no lists at all.
	legacy := body["transactions"].([]any)[1].(map[string]any)
	require.Equal(t, []string{"nativeTransaction"}, slices.Collect(maps.Keys(legacy)))
	wrap := body["transactions"].([]any)[4].(map[string]any)
	require.Equal(t, "11", wrap["nativeTransaction"].(map[string]any)["blockNumber"])
	require.Len(t, wrap["erc20Transfers"], 1)
	require.NotContains(t, wrap, "internalTransactions", "traced, none: omitted in an address's entries")

	asc := srv.GetBody(t, aliceTxsPath+"?sortOrder=ASC")
	require.Equal(t, []string{"10", "11", "12", "13", "14", "15"}, handlertest.TxBlocks(t, asc))

	bobs := srv.GetBody(t, "/v1/chains/43112/addresses/"+handlertest.EVMAddr2+"/transactions")
	require.Equal(t, []string{"14", "13", "12"}, handlertest.TxBlocks(t, bobs))

	nobody := srv.GetBody(t, "/v1/chains/43112/addresses/0x000000000000000000000000000000000000dEaD/transactions")
	require.Equal(t, map[string]any{"transactions": []any{}}, nobody)

	subnet := srv.GetBody(t, "/v1/chains/779672/addresses/"+handlertest.EVMAddr+"/transactions")
	require.Equal(t, []string{"3"}, handlertest.TxBlocks(t, subnet), "each chain lists its own transactions")
	require.Equal(t, "779672", subnet["transactions"].([]any)[0].(map[string]any)["nativeTransaction"].(map[string]any)["chainId"])
}

func TestListEVMAddressTxsBlockRange(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	require.Equal(t, []string{"13", "12", "11"}, handlertest.TxBlocks(t, srv.GetBody(t, aliceTxsPath+"?startBlock=11&endBlock=14")))
	require.Equal(t, []string{"14", "15"}, handlertest.TxBlocks(t, srv.GetBody(t, aliceTxsPath+"?startBlock=14&sortOrder=asc")))
	require.Equal(t, []string{"11", "10"}, handlertest.TxBlocks(t, srv.GetBody(t, aliceTxsPath+"?endBlock=12")))

	calls := len(backend.EVM.AddressQueries)
	empty := srv.GetBody(t, aliceTxsPath+"?endBlock=0")
	require.Equal(t, []any{}, empty["transactions"], "endBlock is exclusive: 0 selects nothing")
	require.Len(t, backend.EVM.AddressQueries, calls, "nothing to read")
}

func TestListEVMAddressTxsPagingPinsTheFirstPage(t *testing.T) {
	for _, order := range []string{"desc", "asc"} {
		t.Run(order, func(t *testing.T) {
			backend := handlertest.WithFixtures(t, handlertest.NewFakes())
			srv := newTestAPI(t, newTestConfig(), backend)
			path := aliceTxsPath + "?pageSize=2&sortOrder=" + order

			var seen []string
			body := srv.GetBody(t, path)
			for {
				seen = append(seen, handlertest.TxBlocks(t, body)...)
				// Blocks keep arriving while the client pages.
				handlertest.Arrive(backend, uint64(16+len(seen)))
				if _, more := body["nextPageToken"]; !more {
					break
				}
				body = srv.GetBody(t, handlertest.WithToken(path, body))
			}
			want := []string{"15", "14", "13", "12", "11", "10"}
			if order == "asc" {
				want = []string{"10", "11", "12", "13", "14", "15"}
			}
			require.Equal(t, want, seen, "no item repeated or skipped, nothing above the first page's height")
			for _, q := range backend.EVM.AddressQueries {
				require.Equal(t, uint64(handlertest.FixtureHeight), q.Pinned)
				require.Equal(t, 3, q.Limit, "one more than the page size")
			}

			fresh := srv.GetBody(t, path)
			last := backend.EVM.AddressQueries[len(backend.EVM.AddressQueries)-1]
			require.Equal(t, uint64(22), last.Pinned, "a new first page pins anew")
			if order == "desc" {
				require.Equal(t, "22", handlertest.TxBlocks(t, fresh)[0])
			}
		})
	}
}

func TestListEVMAddressTxsTokens(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	first := srv.GetBody(t, aliceTxsPath+"?pageSize=2")
	token := first["nextPageToken"].(string)

	transfers := srv.GetBody(t, "/v1/chains/43112/tokens/"+handlertest.Wavax.Hex()+"/transfers?pageSize=1")
	otherEndpoint := transfers["nextPageToken"].(string)

	forged, err := api.EncodePageToken([]byte("not the node's key"), api.PageToken{Route: routeListTransactions, IssuedAt: srv.Clock.Now()})
	require.NoError(t, err)

	for name, tt := range map[string]struct {
		path      string
		fragments []string
	}{
		"other sort order": {aliceTxsPath + "?pageSize=2&sortOrder=asc&pageToken=" + token, []string{"other parameters"}},
		"other address":    {"/v1/chains/43112/addresses/" + handlertest.EVMAddr2 + "/transactions?pageSize=2&pageToken=" + token, []string{"other parameters"}},
		"other chain":      {"/v1/chains/779672/addresses/" + handlertest.EVMAddr + "/transactions?pageSize=2&pageToken=" + token, []string{"other parameters"}},
		"other range":      {aliceTxsPath + "?pageSize=2&startBlock=1&pageToken=" + token, []string{"other parameters"}},
		"other endpoint":   {aliceTxsPath + "?pageSize=1&pageToken=" + otherEndpoint, []string{"another endpoint"}},
		"forged":           {aliceTxsPath + "?pageSize=2&pageToken=" + forged, []string{"signature"}},
		"truncated":        {aliceTxsPath + "?pageSize=2&pageToken=" + token[:20], []string{"invalid pageToken"}},
	} {
		t.Run(name, func(t *testing.T) {
			handlertest.RequireDataError(t, srv.Get(t, tt.path), http.StatusBadRequest, tt.fragments...)
		})
	}

	t.Run("another page size continues the query", func(t *testing.T) {
		require.Equal(t, []string{"13", "12", "11"}, handlertest.TxBlocks(t, srv.GetBody(t, aliceTxsPath+"?pageSize=3&pageToken="+token)))
	})

	t.Run("same query through another chain form", func(t *testing.T) {
		path := "/v1/chains/" + fakenet.CChainID.String() + "/addresses/" + handlertest.EVMAddr + "/transactions?pageSize=2&pageToken=" + token
		require.Equal(t, []string{"13", "12"}, handlertest.TxBlocks(t, srv.GetBody(t, path)))
	})

	t.Run("a token whose cursor this version cannot read", func(t *testing.T) {
		s := api.NewCore(backend, nil, srv.Clock.Now, "v-test", time.Second)
		pg, err := s.ParsePage(context.Background(), &api.Heights{}, url.Values{}, api.DataPaging(routeListTransactions, true),
			netinfo.C.String(), "0x71c7656ec7ab88b098defb751b7401b5f6d8976f", "", "")
		require.NoError(t, err)
		odd, err := s.NextPageToken(pg, handlertest.FixtureHeight, []byte{1, 2, 3})
		require.NoError(t, err)
		handlertest.RequireDataError(t, srv.Get(t, aliceTxsPath+"?pageToken="+odd), http.StatusBadRequest, "invalid pageToken", "position")
	})
}

func TestListEVMAddressTxsFailures(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	backend.EVM.Err = errors.New("badger: value log corrupt")
	msg := handlertest.RequireDataError(t, srv.Get(t, aliceTxsPath), http.StatusInternalServerError, "internal error")
	require.NotContains(t, msg, "badger")

	cfg := newTestConfig()
	cfg.RequestTimeout = 20 * time.Millisecond
	slow := newTestAPI(t, cfg, backend)
	backend.EVM.Err, backend.EVM.Block = nil, true
	handlertest.RequireDataError(t, slow.Get(t, aliceTxsPath), http.StatusServiceUnavailable, "did not finish within 20ms")
}
