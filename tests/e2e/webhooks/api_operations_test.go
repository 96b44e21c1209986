package webhooks

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestWebhooksAPIEveryOperation makes each of the ten webhooks.* operations
// over HTTP against the shared node, in the order an owner would: create,
// read, list (pages by two, the status filter), update, add, list and
// remove addresses, deactivate and reactivate, read and rotate the secret.
// Every reply is checked for the SDK's required members and against what
// the earlier calls set; the rotated secret is the one getSharedSecret
// answers afterwards.
func TestWebhooksAPIEveryOperation(t *testing.T) {
	ctx, base, facts, rcv := startAPITest(t)
	call := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		r := harness.WebhookCall(t, ctx, base, method, path, harness.WebhookKey, body)
		require.Equal(t, want, r.Status, "%s %s: %s", method, path, r.Body)
		require.Equal(t, "application/json", r.Header.Get("Content-Type"))
		var out map[string]any
		r.Decode(t, &out)
		return out
	}

	evm := createWebhook(t, ctx, base, evmRequest(rcv.URL, facts.evm[0].evmChainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"))
	id := evm["id"].(string)
	one := "/v1/webhooks/" + id
	pn := createWebhook(t, ctx, base, primaryRequest(rcv.URL, "X", facts.ewoqX))
	va := createWebhook(t, ctx, base, validatorRequest(rcv.URL, facts.nodeID))
	mine := map[string]bool{id: true, pn["id"].(string): true, va["id"].(string): true}

	require.Equal(t, evm, call(http.MethodGet, one, nil, http.StatusOK))

	// listWebhooks: pages of two to the end, each webhook once, by ID.
	seen := map[string]int{}
	query := url.Values{"pageSize": {"2"}}
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100)
		page := call(http.MethodGet, "/v1/webhooks?"+query.Encode(), nil, http.StatusOK)
		for _, h := range page["webhooks"].([]any) {
			seen[h.(map[string]any)["id"].(string)]++
		}
		next, ok := page["nextPageToken"].(string)
		if !ok {
			break
		}
		require.NotEmpty(t, next)
		query.Set("pageToken", next)
	}
	for id := range mine {
		require.Equal(t, 1, seen[id], "webhook %s listed once", id)
	}

	// updateWebhook, then the address operations.
	updated := call(http.MethodPatch, one, map[string]any{"name": "Tokens", "description": "Track tokens",
		"includeLogs": true, "includeInternalTxs": true}, http.StatusOK)
	require.Equal(t, "Tokens", updated["name"])
	require.Equal(t, "Track tokens", updated["description"])
	require.Equal(t, true, updated["includeLogs"])
	require.Equal(t, evm["metadata"], updated["metadata"])
	var added []any
	added = append(added, "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc")
	var more []string
	for i := 1; i <= 4; i++ {
		a := fmt.Sprintf("0x%040x", i)
		more = append(more, a)
		added = append(added, a)
	}
	got := call(http.MethodPatch, one+"/addresses", map[string]any{"addresses": more}, http.StatusOK)
	require.Equal(t, added, got["metadata"].(map[string]any)["addresses"])
	var listed []any
	query = url.Values{"pageSize": {"2"}}
	for {
		page := call(http.MethodGet, one+"/addresses?"+query.Encode(), nil, http.StatusOK)
		require.Equal(t, float64(len(added)), page["totalAddresses"])
		listed = append(listed, page["addresses"].([]any)...)
		next, ok := page["nextPageToken"].(string)
		if !ok {
			break
		}
		query.Set("pageToken", next)
	}
	require.Equal(t, added, listed)
	got = call(http.MethodDelete, one+"/addresses", map[string]any{"addresses": more[:2]}, http.StatusOK)
	require.Equal(t, append(added[:1:1], added[3:]...), got["metadata"].(map[string]any)["addresses"])

	// deactivateWebhook, the status filter, reactivation.
	gone := call(http.MethodDelete, one, nil, http.StatusOK)
	require.Equal(t, "inactive", gone["status"])
	require.Equal(t, "deactivated by its owner", gone["statusReason"])
	inactive := call(http.MethodGet, "/v1/webhooks?status=inactive&pageSize=100", nil, http.StatusOK)
	var found bool
	for _, h := range inactive["webhooks"].([]any) {
		require.Equal(t, "inactive", h.(map[string]any)["status"])
		found = found || h.(map[string]any)["id"] == id
	}
	require.True(t, found, "the deactivated webhook is listed as inactive")
	back := call(http.MethodPatch, one, map[string]any{"status": "active"}, http.StatusOK)
	require.Equal(t, "active", back["status"])
	require.NotContains(t, back, "statusReason")

	// The secret: rotation answers 201 with a new one, which is then the
	// node's.
	before := harness.WebhookSecret(t, ctx, base)
	rotated := call(http.MethodPost, "/v1/webhooks:generateOrRotateSharedSecret", nil, http.StatusCreated)["secret"].(string)
	require.NotEqual(t, before, rotated)
	require.Regexp(t, "^[0-9a-f]{64}$", rotated)
	require.Equal(t, rotated, harness.WebhookSecret(t, ctx, base))
}

// TestWebhooksAPIAccess: over HTTP, each operation is a 401 without a key,
// the reads answer a key that may only read (harness.APIKey) and the rest,
// both secret operations included, are a 403 for it; an unknown key is a
// 401 before any handler runs.
func TestWebhooksAPIAccess(t *testing.T) {
	ctx, base, facts, rcv := startAPITest(t)
	request := evmRequest(rcv.URL, facts.evm[1].evmChainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")
	id := createWebhook(t, ctx, base, request)["id"].(string)
	one := "/v1/webhooks/" + id
	change := map[string]any{"addresses": []string{"0x0000000000000000000000000000000000000b0b"}}
	for _, op := range []struct {
		method, path string
		body         any
		reads        bool
	}{
		{http.MethodPost, "/v1/webhooks", request, false},
		{http.MethodGet, "/v1/webhooks", nil, true},
		{http.MethodGet, one, nil, true},
		{http.MethodPatch, one, map[string]any{"name": "x"}, false},
		{http.MethodDelete, one, nil, false},
		{http.MethodPost, "/v1/webhooks:generateOrRotateSharedSecret", nil, false},
		{http.MethodGet, "/v1/webhooks:getSharedSecret", nil, false},
		{http.MethodGet, one + "/addresses", nil, true},
		{http.MethodPatch, one + "/addresses", change, false},
		{http.MethodDelete, one + "/addresses", change, false},
	} {
		what := op.method + " " + op.path
		r := harness.WebhookCall(t, ctx, base, op.method, op.path, "", op.body)
		harness.RequireErrorBody(t, r, http.StatusUnauthorized, "needs an API key")
		r = harness.WebhookCall(t, ctx, base, op.method, op.path, "not-a-key", op.body)
		harness.RequireErrorBody(t, r, http.StatusUnauthorized, "invalid API key")
		r = harness.WebhookCall(t, ctx, base, op.method, op.path, harness.APIKey, op.body)
		if op.reads {
			require.Equal(t, http.StatusOK, r.Status, "%s: %s", what, r.Body)
		} else {
			harness.RequireErrorBody(t, r, http.StatusForbidden, "webhooks.managementKeys")
		}
	}
}
