package evm

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

// historyPath is the path of one of an address's typed histories on the
// fixtures' C-chain (suffix ":listNative", ...).
func historyPath(addr, suffix string) string {
	return "/v1/chains/43112/addresses/" + addr + "/transactions" + suffix
}

func TestListNativeTransactions(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	path := historyPath(handlertest.EVMAddr, ":listNative")
	body := srv.GetBody(t, path)
	require.Equal(t, []string{"15", "14", "12", "11", "10"}, handlertest.TxHeights(t, body),
		"alice's own txs, newest first; not bob's trade, where only transfers and a frame are hers")
	require.NotContains(t, body, "nextPageToken")
	first := handlertest.Objects(t, body["transactions"])[0]
	require.Equal(t, handlertest.TxHashN(6).Hex(), first["txHash"], "a NativeTransaction, not an entry with lists")
	require.Equal(t, "0", first["txStatus"])
	require.Equal(t, "43112", first["chainId"])
	require.NotContains(t, first, "nativeTransaction")
	require.NotContains(t, first, "input", "input belongs to the transaction endpoints")
	deploy := handlertest.Objects(t, body["transactions"])[4]
	require.Equal(t, handlertest.Wavax.Hex(), deploy["to"].(map[string]any)["address"], "a creation's to is its contract")

	wavax := srv.GetBody(t, historyPath(handlertest.Wavax.Hex(), ":listNative"))
	require.Equal(t, []string{"15", "12", "11", "10"}, handlertest.TxHeights(t, wavax), "recipient, and created contract")

	require.Equal(t, []string{"12", "11"}, handlertest.TxHeights(t, srv.GetBody(t, path+"?startBlock=11&endBlock=14")))
	require.Equal(t, []string{"15", "14", "12", "11", "10"}, handlertest.TxHeights(t, srv.GetBody(t, path+"?sortOrder=asc")),
		"no sortOrder: always newest first")
	calls := len(backend.EVM.Histories.Native)
	require.Equal(t, []any{}, srv.GetBody(t, path+"?endBlock=0")["transactions"])
	require.Len(t, backend.EVM.Histories.Native, calls, "endBlock=0 selects nothing: not read")
	for _, q := range backend.EVM.Histories.Native {
		require.True(t, q.Desc)
	}

	nobody := srv.GetBody(t, historyPath("0x000000000000000000000000000000000000dEaD", ":listNative"))
	require.Equal(t, map[string]any{"transactions": []any{}}, nobody)
}

func TestTypedHistoriesPagePinned(t *testing.T) {
	for _, suffix := range []string{":listNative", ":listErc20", ":listInternals"} {
		t.Run(suffix, func(t *testing.T) {
			backend := handlertest.WithFixtures(t, handlertest.NewFakes())
			srv := newTestAPI(t, newTestConfig(), backend)
			path := historyPath(handlertest.EVMAddr, suffix)
			want := handlertest.TxHeights(t, srv.GetBody(t, path))
			var seen []string
			body := srv.GetBody(t, path+"?pageSize=1")
			for page := 0; ; page++ {
				require.Less(t, page, 10)
				seen = append(seen, handlertest.TxHeights(t, body)...)
				handlertest.Arrive(backend, uint64(16+page)) // blocks keep arriving while the client pages
				if _, more := body["nextPageToken"]; !more {
					break
				}
				body = srv.GetBody(t, handlertest.WithToken(path+"?pageSize=1", body))
			}
			require.Equal(t, want, seen, "nothing repeated, skipped or newer than the first page")
		})
	}
}

func TestTypedHistoriesBadInput(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	alice := handlertest.EVMAddr
	nativeToken := srv.GetBody(t, historyPath(alice, ":listNative")+"?pageSize=1")["nextPageToken"].(string)
	for _, suffix := range []string{":listNative", ":listErc20", ":listErc721", ":listErc1155", ":listInternals"} {
		for name, tt := range map[string]struct {
			path      string
			status    int
			fragments []string
		}{
			"malformed address":     {historyPath("0x1234", suffix), http.StatusBadRequest, []string{"address"}},
			"unknown chain":         {"/v1/chains/999999/addresses/" + alice + "/transactions" + suffix, http.StatusBadRequest, []string{"chainId"}},
			"pageSize 0":            {historyPath(alice, suffix) + "?pageSize=0", http.StatusBadRequest, []string{"pageSize", "between 1 and 100"}},
			"pageSize 101":          {historyPath(alice, suffix) + "?pageSize=101", http.StatusBadRequest, []string{"pageSize"}},
			"negative startBlock":   {historyPath(alice, suffix) + "?startBlock=-1", http.StatusBadRequest, []string{"startBlock"}},
			"endBlock not a number": {historyPath(alice, suffix) + "?endBlock=latest", http.StatusBadRequest, []string{"endBlock"}},
			"empty range":           {historyPath(alice, suffix) + "?startBlock=5&endBlock=5", http.StatusBadRequest, []string{"startBlock", "endBlock"}},
			"garbage pageToken":     {historyPath(alice, suffix) + "?pageToken=nope", http.StatusBadRequest, []string{"pageToken"}},
			"other range's token":   {historyPath(alice, suffix) + "?startBlock=1&pageToken=" + nativeToken, http.StatusBadRequest, []string{"pageToken"}},
		} {
			t.Run(suffix+" "+name, func(t *testing.T) {
				handlertest.RequireDataError(t, srv.Get(t, tt.path), tt.status, tt.fragments...)
			})
		}
		if suffix != ":listNative" {
			t.Run(suffix+" another history's token", func(t *testing.T) {
				handlertest.RequireDataError(t, srv.Get(t, historyPath(alice, suffix)+"?pageSize=1&pageToken="+nativeToken),
					http.StatusBadRequest, "another endpoint")
			})
		}
	}
	t.Run("unknown suffix", func(t *testing.T) {
		handlertest.RequireDataError(t, srv.Get(t, historyPath(alice, ":listErc777")), http.StatusNotFound)
	})
}

func TestTypedHistoriesFailures(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	backend.EVM.Err = errors.New("badger: value log corrupt")
	for _, suffix := range []string{":listNative", ":listErc20", ":listErc1155", ":listInternals"} {
		msg := handlertest.RequireDataError(t, srv.Get(t, historyPath(handlertest.EVMAddr, suffix)), http.StatusInternalServerError, "internal error")
		require.NotContains(t, msg, "badger")
	}
	cfg := newTestConfig()
	cfg.RequestTimeout = 20 * time.Millisecond
	slow := newTestAPI(t, cfg, backend)
	backend.EVM.Err, backend.EVM.Block = nil, true
	handlertest.RequireDataError(t, slow.Get(t, historyPath(handlertest.EVMAddr, ":listErc721")), http.StatusServiceUnavailable, "did not finish")
}
