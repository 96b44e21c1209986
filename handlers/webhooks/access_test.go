package webhooks

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

// operation is one route called with a body that would be valid.
type operation struct {
	name, method, path, body string
	manages                  bool
}

func operations(id string) []operation {
	one := "/v1/webhooks/" + id
	return []operation{
		{routeCreateWebhook, http.MethodPost, "/v1/webhooks", evmCreate, true},
		{routeListWebhooks, http.MethodGet, "/v1/webhooks", "", false},
		{routeGetWebhook, http.MethodGet, one, "", false},
		{routeUpdateWebhook, http.MethodPatch, one, `{"name":"n"}`, true},
		{routeDeactivateWebhook, http.MethodDelete, one, "", true},
		{routeGenerateOrRotateSharedSecret, http.MethodPost, "/v1/webhooks:generateOrRotateSharedSecret", "", true},
		{routeGetSharedSecret, http.MethodGet, "/v1/webhooks:getSharedSecret", "", true},
		{routeGetAddressesFromWebhook, http.MethodGet, one + "/addresses", "", false},
		{routeAddAddressesToWebhook, http.MethodPatch, one + "/addresses", `{"addresses":["0x0000000000000000000000000000000000000b0b"]}`, true},
		{routeRemoveAddressesFromWebhook, http.MethodDelete, one + "/addresses", `{"addresses":["0x0000000000000000000000000000000000000b0b"]}`, true},
	}
}

// TestWebhookAccess: every operation is a 401 without an API key; with a
// key that may only read, the reads answer and everything else, the
// secret included, is a 403 naming the setting; a management key may do
// everything.
func TestWebhookAccess(t *testing.T) {
	a, _ := newTestAPI(t, Config{})
	id := createEVM(t, a)
	ops := operations(id)
	require.Len(t, ops, 10)
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			handlertest.RequireDataError(t, a.Request(t, op.method, op.path, op.body), http.StatusUnauthorized, op.name, "needs an API key")
			rec := a.Request(t, op.method, op.path, op.body, readHeader...)
			if op.manages {
				handlertest.RequireDataError(t, rec, http.StatusForbidden, op.name, "webhooks.managementKeys", "may only read")
			} else {
				require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			}
			want := http.StatusOK
			if op.name == routeCreateWebhook || op.name == routeGenerateOrRotateSharedSecret {
				want = http.StatusCreated
			}
			rec = a.Request(t, op.method, op.path, op.body, manageHeader...)
			require.Equal(t, want, rec.Code, rec.Body.String())
			require.Equal(t, api.ContentTypeJSON, rec.Header().Get("Content-Type"))
		})
	}
}

// TestWebhooksNotServedWithoutBackend: a node that keeps no webhooks
// answers each operation as not served (after the key check).
func TestWebhooksNotServedWithoutBackend(t *testing.T) {
	serveCfg := handlertest.Config()
	serveCfg.APIKeys = append(serveCfg.APIKeys, manageKey)
	a := handlertest.NewAPI(t, serveCfg, handlertest.NewFakes(), func(core *api.Core) []api.Route {
		return Routes(core, Config{ManagementKeys: []string{manageKey}}, nil)
	})
	for _, op := range operations("401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b") {
		handlertest.RequireDataError(t, a.Request(t, op.method, op.path, op.body, manageHeader...), http.StatusNotFound, "not served")
	}
}

// createEVM creates the address_activity webhook of evmCreate and returns
// its ID.
func createEVM(t *testing.T, a *handlertest.API) string {
	t.Helper()
	rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	return decode(t, rec.Body.Bytes())["id"].(string)
}
