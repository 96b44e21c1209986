package webhooks

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func addr(n int) string { return fmt.Sprintf("0x%040x", n) }

// TestWebhookAddresses: adding appends new addresses (lower case, each
// once) and answers the EVM webhook; the list pages through them in that
// order with their total and no nextPageToken on the last page; removing
// drops them, but never the last one.
func TestWebhookAddresses(t *testing.T) {
	a, _ := newTestAPI(t, Config{MaxAddresses: 25})
	id := createEVM(t, a) // watches 0x...a11ce
	path := "/v1/webhooks/" + id + "/addresses"
	var add []string
	for i := 1; i <= 22; i++ {
		add = append(add, addr(i))
	}
	body := fmt.Sprintf(`{"addresses":["0x00000000000000000000000000000000000A11CE",%q,%q]}`, add[0], add[0])
	rec := a.Request(t, http.MethodPatch, path, body, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	got := decode(t, rec.Body.Bytes())
	handlertest.RequireNoNulls(t, got)
	require.Equal(t, "address_activity", got["eventType"])
	require.Equal(t, []any{"0x00000000000000000000000000000000000a11ce", add[0]}, got["metadata"].(map[string]any)["addresses"])

	quoted := jsonList(add[1:])
	rec = a.Request(t, http.MethodPatch, path, `{"addresses":`+quoted+`}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	handlertest.RequireDataError(t, a.Request(t, http.MethodPatch, path, `{"addresses":["`+addr(100)+`","`+addr(101)+`","`+addr(102)+`"]}`, manageHeader...),
		http.StatusBadRequest, "26 addresses", "at most 25")

	want := append([]string{"0x00000000000000000000000000000000000a11ce"}, add...)
	var pages [][]string
	next := path + "?pageSize=10"
	for next != "" {
		var page listWebhookAddressesResponse
		handlertest.RequireJSON(t, a.Get(t, next, readHeader...), http.StatusOK, &page)
		require.Equal(t, len(want), page.TotalAddresses)
		pages = append(pages, page.Addresses)
		next = ""
		if page.NextPageToken != "" {
			next = path + "?pageSize=10&pageToken=" + page.NextPageToken
		}
	}
	require.Len(t, pages, 3)
	var all []string
	for _, p := range pages {
		all = append(all, p...)
	}
	require.Equal(t, want, all)
	handlertest.RequireDataError(t, a.Get(t, path+"?pageSize=101", readHeader...), http.StatusBadRequest, "invalid pageSize")
	handlertest.RequireDataError(t, a.Get(t, path+"?pageToken=junk", readHeader...), http.StatusBadRequest, "invalid pageToken")

	rec = a.Request(t, http.MethodDelete, path, `{"addresses":["`+add[0]+`","`+addr(999)+`"]}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.NotContains(t, decode(t, rec.Body.Bytes())["metadata"].(map[string]any)["addresses"], add[0])
	everything := jsonList(want)
	handlertest.RequireDataError(t, a.Request(t, http.MethodDelete, path, `{"addresses":`+everything+`}`, manageHeader...),
		http.StatusBadRequest, "watching none", "deactivate it instead")
}

func TestWebhookAddressesBadInput(t *testing.T) {
	a, _ := newTestAPI(t, Config{})
	id := createEVM(t, a)
	rec := a.Request(t, http.MethodPost, "/v1/webhooks", pnCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	pn := decode(t, rec.Body.Bytes())["id"].(string)
	for _, method := range []string{http.MethodPatch, http.MethodDelete} {
		for _, tc := range []struct {
			name, id, body string
			fragments      []string
		}{
			{"primary webhook", pn, `{"addresses":["` + addr(1) + `"]}`, []string{"applies only to address_activity webhooks", "primary_network_address_activity"}},
			{"no addresses", id, `{}`, []string{"addresses is required"}},
			{"empty addresses", id, `{"addresses":[]}`, []string{"addresses is required"}},
			{"not an address", id, `{"addresses":["0xnope"]}`, []string{"invalid addresses entry '0xnope'"}},
			{"unknown member", id, `{"addresses":["` + addr(1) + `"],"keys":[]}`, []string{"unknown field 'keys'"}},
		} {
			t.Run(method+" "+tc.name, func(t *testing.T) {
				rec := a.Request(t, method, "/v1/webhooks/"+tc.id+"/addresses", tc.body, manageHeader...)
				handlertest.RequireDataError(t, rec, http.StatusBadRequest, tc.fragments...)
			})
		}
	}
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks/"+pn+"/addresses", readHeader...), http.StatusBadRequest,
		"applies only to address_activity webhooks")
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks/401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b/addresses", readHeader...),
		http.StatusNotFound, "no webhook")
}

func jsonList(list []string) string {
	out := "["
	for i, s := range list {
		if i > 0 {
			out += ","
		}
		out += fmt.Sprintf("%q", s)
	}
	return out + "]"
}
