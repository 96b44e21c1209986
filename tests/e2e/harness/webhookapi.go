package harness

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// WebhookCall sends one webhooks management request to base_url (the
// avadata chain's URL) with key as x-glacier-api-key ("" sends none) and
// body as JSON (nil sends none).
func WebhookCall(t *testing.T, ctx context.Context, base, method, path, key string, body any) Reply {
	t.Helper()
	var raw []byte
	header := map[string]string{}
	if body != nil {
		var err error
		raw, err = json.Marshal(body)
		require.NoError(t, err)
		header["Content-Type"] = "application/json"
	}
	if key != "" {
		header["x-glacier-api-key"] = key
	}
	return Do(t, ctx, method, base+path, raw, header)
}

// CreateWebhook creates a webhook with the management key and returns its
// reply (the SDK's WebhookResponse); the test fails unless it is a 201.
func CreateWebhook(t *testing.T, ctx context.Context, base string, request any) map[string]any {
	t.Helper()
	reply := WebhookCall(t, ctx, base, "POST", "/v1/webhooks", WebhookKey, request)
	// Just after a node starts, avadata may not have read the chain's
	// height from the node yet: a 503 says to retry shortly.
	for deadline := time.Now().Add(time.Minute); reply.Status == 503 && time.Now().Before(deadline); {
		select {
		case <-ctx.Done():
			require.FailNow(t, "creating a webhook", "context ended while the node answered 503: %s", reply.Body)
		case <-time.After(500 * time.Millisecond):
		}
		reply = WebhookCall(t, ctx, base, "POST", "/v1/webhooks", WebhookKey, request)
	}
	require.Equal(t, 201, reply.Status, "creating a webhook: %s", reply.Body)
	var out map[string]any
	reply.Decode(t, &out)
	return out
}

// WebhookSecret reads the node's shared webhook secret.
func WebhookSecret(t *testing.T, ctx context.Context, base string) string {
	t.Helper()
	reply := WebhookCall(t, ctx, base, "GET", "/v1/webhooks:getSharedSecret", WebhookKey, nil)
	require.Equal(t, 200, reply.Status, "reading the webhook secret: %s", reply.Body)
	var out struct {
		Secret string `json:"secret"`
	}
	reply.Decode(t, &out)
	return out.Secret
}
