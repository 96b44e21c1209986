package primary

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetUtxosByAddressesV2(t *testing.T) {
	srv := newUTXOTestAPI(t)
	body := `{"addresses": "P-` + alice(t) + `"}`
	var get, post map[string]any
	handlertest.RequireJSON(t, srv.Get(t, pUTXOsPath+"?addresses=P-"+alice(t)+"&sortBy=amount&pageSize=2"), http.StatusOK, &get)
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, pUTXOsPath+"?sortBy=amount&pageSize=2", body), http.StatusOK, &post)
	require.Equal(t, get["utxos"], post["utxos"], "the same listing as the GET")
	require.Contains(t, post, "nextPageToken")

	// The token goes on with the same body only.
	var next map[string]any
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, handlertest.WithToken(pUTXOsPath+"?sortBy=amount&pageSize=2", post), body),
		http.StatusOK, &next)
	require.Len(t, next["utxos"], 2)
	other := `{"addresses": "P-` + alice(t) + `,` + handlertest.Bech32Of(t, handlertest.PBob) + `"}`
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, handlertest.WithToken(pUTXOsPath+"?sortBy=amount&pageSize=2", post), other),
		http.StatusBadRequest, "pageToken")

	// Larger pages than the GET.
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, pUTXOsPath+"?pageSize=1024", body), http.StatusOK, &post)
}

func TestGetUtxosByAddressesV2BadInput(t *testing.T) {
	srv := newUTXOTestAPI(t)
	addrs := make([]string, maxUTXOAddressesV2+1)
	for i := range addrs {
		addrs[i] = handlertest.Bech32Of(t, ids.ShortID{byte(i), byte(i >> 8), 1})
	}
	post := func(name, path, body string, fragments ...string) handlertest.RouteCase {
		c := handlertest.Invalid(name, path, fragments...)
		c.Method, c.Body = http.MethodPost, body
		return c
	}
	ok := `{"addresses": "` + alice(t) + `"}`
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		post("no body", pUTXOsPath, "", "body is empty"),
		post("not JSON", pUTXOsPath, "addresses=x", "must be a JSON object"),
		post("broken JSON", pUTXOsPath, `{"addresses": `, "malformed JSON body"),
		post("no addresses", pUTXOsPath, `{}`, "addresses is required"),
		post("addresses not a string", pUTXOsPath, `{"addresses": ["a"]}`, "addresses", "must be a string"),
		post("unknown field", pUTXOsPath, `{"addresses": "x", "pageSize": 5}`, "unknown field 'pageSize'"),
		post("bad address", pUTXOsPath, `{"addresses": "avax1nope"}`, "invalid addresses"),
		post("too many addresses", pUTXOsPath, `{"addresses": "`+strings.Join(addrs, ",")+`"}`, "invalid addresses", "more than 256"),
		post("pageSize 1025", pUTXOsPath+"?pageSize=1025", ok, "pageSize"),
		post("bad sortBy", pUTXOsPath+"?sortBy=age", ok, "sortBy"),
	})
}
