package webhooks

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// requireHeightUnknown checks a 503 that says the node's height of the
// chain is not known yet, in the spec's error body, with Retry-After.
func requireHeightUnknown(t *testing.T, code int, header http.Header, body []byte) {
	t.Helper()
	require.Equal(t, http.StatusServiceUnavailable, code, string(body))
	require.Equal(t, strconv.Itoa(api.DefaultRetryAfter), header.Get("Retry-After"))
	got := decode(t, body)
	require.Contains(t, got["message"], "the node's height of chain 779672 is not known yet")
	require.Equal(t, "Service Unavailable", got["error"])
	require.EqualValues(t, http.StatusServiceUnavailable, got["statusCode"])
}

// A webhook created while the node's height is not known would begin with
// the index's next block, which may lie far behind the node: the creation
// is refused until the height is known, and then begins at it.
func TestCreateWebhookWaitsForTheNodesHeight(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	backend.unknown[fakenet.SubnetChain] = true
	rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
	requireHeightUnknown(t, rec.Code, rec.Header(), rec.Body.Bytes())
	all, err := backend.Webhooks(t.Context())
	require.NoError(t, err)
	require.Empty(t, all)

	delete(backend.unknown, fakenet.SubnetChain)
	backend.next[fakenet.SubnetChain] = 12
	id := createEVM(t, a)
	parsed, err := webhookdata.ParseID(id)
	require.NoError(t, err)
	stored, _, err := backend.Webhook(t.Context(), parsed)
	require.NoError(t, err)
	require.Equal(t, uint64(12), stored.FromHeight)
}

// Making a webhook active again needs the node's height as a creation
// does; every other change works without it.
func TestReactivateWebhookWaitsForTheNodesHeight(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	backend.next[fakenet.SubnetChain] = 5
	id := createEVM(t, a)
	path := "/v1/webhooks/" + id
	rec := a.Request(t, http.MethodDelete, path, "", manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())

	backend.unknown[fakenet.SubnetChain] = true
	rec = a.Request(t, http.MethodPatch, path, `{"status":"active"}`, manageHeader...)
	requireHeightUnknown(t, rec.Code, rec.Header(), rec.Body.Bytes())
	rec = a.Request(t, http.MethodPatch, path, `{"name":"renamed"}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Equal(t, "inactive", decode(t, rec.Body.Bytes())["status"])

	delete(backend.unknown, fakenet.SubnetChain)
	backend.next[fakenet.SubnetChain] = 40
	rec = a.Request(t, http.MethodPatch, path, `{"status":"active"}`, manageHeader...)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	parsed, err := webhookdata.ParseID(id)
	require.NoError(t, err)
	stored, _, err := backend.Webhook(t.Context(), parsed)
	require.NoError(t, err)
	require.Equal(t, webhookdata.Active, stored.Status)
	require.Equal(t, uint64(40), stored.FromHeight)
}
