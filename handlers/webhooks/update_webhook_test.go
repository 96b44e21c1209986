package webhooks

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/webhookdata"
)

const pnCreate = `{"eventType":"primary_network_address_activity","url":"https://h.example/p","network":"fuji","chainId":"P",
	"metadata":{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"addressActivitySubEvents":["balance_change"]}}}`

// TestUpdateWebhook: PATCH changes only what it names; deactivation says
// why in statusReason; reactivation clears it and begins the events at the
// node's next block again.
func TestUpdateWebhook(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	backend.next[fakenet.SubnetChain] = 5
	id := createEVM(t, a)
	path := "/v1/webhooks/" + id

	rec := a.Request(t, http.MethodPatch, path, `{}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	unchanged := decode(t, rec.Body.Bytes())

	rec = a.Request(t, http.MethodPatch, path, `{"name":"Tokens","description":"Track tokens","url":"https://other.example/x",
		"includeInternalTxs":true,"includeLogs":false}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	got := decode(t, rec.Body.Bytes())
	require.Equal(t, "Tokens", got["name"])
	require.Equal(t, "Track tokens", got["description"])
	require.Equal(t, "https://other.example/x", got["url"])
	require.Equal(t, true, got["includeInternalTxs"])
	require.Equal(t, false, got["includeLogs"])
	require.Equal(t, unchanged["metadata"], got["metadata"])
	require.Equal(t, unchanged["createdAt"], got["createdAt"])

	rec = a.Request(t, http.MethodDelete, path, "", manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	got = decode(t, rec.Body.Bytes())
	require.Equal(t, "inactive", got["status"])
	require.Equal(t, reasonOwner, got["statusReason"])

	backend.next[fakenet.SubnetChain] = 9
	rec = a.Request(t, http.MethodPatch, path, `{"status":"active"}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	got = decode(t, rec.Body.Bytes())
	require.Equal(t, "active", got["status"])
	require.NotContains(t, got, "statusReason")
	parsed, err := webhookdata.ParseID(id)
	require.NoError(t, err)
	stored, _, err := backend.Webhook(t.Context(), parsed)
	require.NoError(t, err)
	require.Equal(t, uint64(9), stored.FromHeight)

	rec = a.Request(t, http.MethodPatch, path, `{"status":"inactive"}`, manageHeader...)
	require.Equal(t, "inactive", decode(t, rec.Body.Bytes())["status"])
}

func TestUpdateWebhookBadInput(t *testing.T) {
	a, _ := newTestAPI(t, Config{})
	id := createEVM(t, a)
	rec := a.Request(t, http.MethodPost, "/v1/webhooks", pnCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	pn := decode(t, rec.Body.Bytes())["id"].(string)
	for _, tc := range []struct {
		name, id, body string
		status         int
		fragments      []string
	}{
		{"unknown member", id, `{"chainId":"1"}`, 400, []string{"unknown field 'chainId'"}},
		{"empty body", id, ``, 400, []string{"body is empty"}},
		{"bad status", id, `{"status":"failed"}`, 400, []string{"invalid status 'failed'", "'active' or 'inactive'"}},
		{"bad url", id, `{"url":"gopher://h.example/"}`, 400, []string{"invalid url"}},
		{"long name", id, `{"name":"` + longText(257) + `"}`, 400, []string{"invalid name"}},
		{"include flag on primary", pn, `{"includeLogs":true}`, 400, []string{"includeLogs applies only to address_activity webhooks"}},
		{"malformed id", "nope", `{}`, 400, []string{"invalid id 'nope'", "UUID"}},
		{"unknown id", "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b", `{}`, 404, []string{"no webhook with id '401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.Request(t, http.MethodPatch, "/v1/webhooks/"+tc.id, tc.body, manageHeader...)
			handlertest.RequireDataError(t, rec, tc.status, tc.fragments...)
		})
	}
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks/nope", readHeader...), 400, "invalid id")
	handlertest.RequireDataError(t, a.Request(t, http.MethodDelete, "/v1/webhooks/401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b", "", manageHeader...), 404, "no webhook")
}

func longText(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'x'
	}
	return string(b)
}

// TestWebhookQuota: past maxWebhooks active webhooks a creation or a
// reactivation is a 400 (deactivating one makes room); past ten times
// that many records a creation is one too, whatever their status.
func TestWebhookQuota(t *testing.T) {
	a, _ := newTestAPI(t, Config{MaxWebhooks: 2})
	first, _ := createEVM(t, a), createEVM(t, a)
	handlertest.RequireDataError(t, a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...),
		http.StatusBadRequest, "2 active webhooks", "webhooks.maxWebhooks")
	require.Equal(t, http.StatusOK, a.Request(t, http.MethodDelete, "/v1/webhooks/"+first, "", manageHeader...).Code)
	third := createEVM(t, a)
	handlertest.RequireDataError(t, a.Request(t, http.MethodPatch, "/v1/webhooks/"+first, `{"status":"active"}`, manageHeader...),
		http.StatusBadRequest, "webhooks.maxWebhooks")
	// Changing an active webhook's other members is no activation.
	require.Equal(t, http.StatusOK, a.Request(t, http.MethodPatch, "/v1/webhooks/"+third, `{"status":"active","name":"x"}`, manageHeader...).Code)

	for range recordsPerActive*2 - 3 {
		require.Equal(t, http.StatusOK, a.Request(t, http.MethodDelete, "/v1/webhooks/"+third, "", manageHeader...).Code)
		third = createEVM(t, a)
	}
	require.Equal(t, http.StatusOK, a.Request(t, http.MethodDelete, "/v1/webhooks/"+third, "", manageHeader...).Code)
	handlertest.RequireDataError(t, a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...),
		http.StatusBadRequest, "keeps 20 webhooks", "reuse an inactive one")
	// Reusing an inactive one still works.
	require.Equal(t, http.StatusOK, a.Request(t, http.MethodPatch, "/v1/webhooks/"+first, `{"status":"active"}`, manageHeader...).Code)
}
