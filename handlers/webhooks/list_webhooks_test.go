package webhooks

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

// TestListWebhooks: pages of webhooks by ID cover each once, the status
// filter keeps its own, the last page has no nextPageToken, and a token
// only resumes the listing it came from.
func TestListWebhooks(t *testing.T) {
	a, _ := newTestAPI(t, Config{})
	ids := map[string]bool{}
	var inactive []string
	for i := range 7 {
		id := createEVM(t, a)
		ids[id] = true
		if i%3 == 0 {
			require.Equal(t, http.StatusOK, a.Request(t, http.MethodDelete, "/v1/webhooks/"+id, "", manageHeader...).Code)
			inactive = append(inactive, id)
		}
	}
	list := func(query string) ([]string, []string) {
		var seen, statuses []string
		next := "/v1/webhooks?" + query
		for next != "" {
			rec := a.Get(t, next, readHeader...)
			var page listWebhooksResponse
			handlertest.RequireJSON(t, rec, http.StatusOK, &page)
			handlertest.RequireNoNulls(t, decode(t, rec.Body.Bytes()))
			for _, h := range page.Webhooks {
				seen = append(seen, h.ID)
				statuses = append(statuses, h.Status)
			}
			next = ""
			if page.NextPageToken != "" {
				next = "/v1/webhooks?" + query + "&pageToken=" + page.NextPageToken
			}
		}
		return seen, statuses
	}
	all, _ := list("pageSize=2")
	require.Len(t, all, 7)
	for i, id := range all {
		require.True(t, ids[id])
		if i > 0 {
			require.Less(t, all[i-1], id, "by ID")
		}
	}
	got, statuses := list("pageSize=2&status=inactive")
	require.ElementsMatch(t, inactive, got)
	for _, s := range statuses {
		require.Equal(t, "inactive", s)
	}
	got, _ = list("status=active")
	require.Len(t, got, 7-len(inactive))

	var first listWebhooksResponse
	handlertest.RequireJSON(t, a.Get(t, "/v1/webhooks?pageSize=1&status=active", readHeader...), http.StatusOK, &first)
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks?pageSize=1&status=inactive&pageToken="+first.NextPageToken, readHeader...),
		http.StatusBadRequest, "invalid pageToken")
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks?status=failed", readHeader...), http.StatusBadRequest, "invalid status 'failed'")
	handlertest.RequireDataError(t, a.Get(t, "/v1/webhooks?pageSize=0", readHeader...), http.StatusBadRequest, "invalid pageSize")
}

// TestSharedSecretRotation: rotation answers 201 with a new secret, which
// getSharedSecret then answers and the store signs with.
func TestSharedSecretRotation(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	var before, rotated, after sharedSecretsResponse
	handlertest.RequireJSON(t, a.Get(t, "/v1/webhooks:getSharedSecret", manageHeader...), http.StatusOK, &before)
	handlertest.RequireJSON(t, a.Request(t, http.MethodPost, "/v1/webhooks:generateOrRotateSharedSecret", "", manageHeader...),
		http.StatusCreated, &rotated)
	handlertest.RequireJSON(t, a.Get(t, "/v1/webhooks:getSharedSecret", manageHeader...), http.StatusOK, &after)
	require.NotEqual(t, before.Secret, rotated.Secret)
	require.Equal(t, rotated.Secret, after.Secret)
	stored, err := backend.WebhookSecret(t.Context())
	require.NoError(t, err)
	require.Equal(t, rotated.Secret, stored)
}
