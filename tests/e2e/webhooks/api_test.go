package webhooks

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestWebhooksAPICreateEachKind creates one webhook of each event type on
// every chain it may watch, over HTTP against the shared node, and checks
// each reply's chainId against the node's own APIs (eth_chainId of both
// EVM chains, whichever form the request named the chain in;
// info.getBlockchainID of X, of P for a validator webhook, and of the
// C-chain's atomic txs), the SDK's required members (name, description
// as strings, createdAt in ms), and that getWebhook answers the same.
// The shared secret exists once a webhook does.
func TestWebhooksAPICreateEachKind(t *testing.T) {
	ctx, base, facts, rcv := startAPITest(t)
	before := time.Now().UnixMilli()

	type want struct {
		request map[string]any
		chainID string
	}
	var cases []want
	for _, c := range facts.evm {
		cases = append(cases,
			want{evmRequest(rcv.URL, c.evmChainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), c.evmChainID},
			want{evmRequest(rcv.URL, c.blockchainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), c.evmChainID})
	}
	cases = append(cases,
		want{primaryRequest(rcv.URL, "X", facts.ewoqX), facts.xChainID},
		want{primaryRequest(rcv.URL, facts.pChainID, facts.ewoqX), facts.pChainID},
		want{primaryRequest(rcv.URL, "c-chain", strings.TrimPrefix(facts.ewoqX, "X-")), blockchainID(t, ctx, env.URI(t), "C")},
		want{validatorRequest(rcv.URL, facts.nodeID), facts.pChainID})
	for _, c := range cases {
		got := createWebhook(t, ctx, base, c.request)
		require.Equal(t, c.chainID, got["chainId"], "%v", c.request)
		require.Equal(t, c.request["eventType"], got["eventType"])
		require.Equal(t, "active", got["status"])
		require.Equal(t, "", got["name"])
		require.Equal(t, "", got["description"])
		require.Equal(t, rcv.URL, got["url"])
		createdAt := int64(got["createdAt"].(float64))
		require.GreaterOrEqual(t, createdAt, before)
		require.LessOrEqual(t, createdAt, time.Now().UnixMilli())
		if c.request["eventType"] == "address_activity" {
			require.Equal(t, []any{"0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"}, got["metadata"].(map[string]any)["addresses"])
			require.Equal(t, false, got["includeLogs"])
		} else {
			require.NotContains(t, got, "includeLogs")
			require.NotContains(t, got["metadata"], "network")
		}
		read := harness.WebhookCall(t, ctx, base, http.MethodGet, "/v1/webhooks/"+got["id"].(string), harness.APIKey, nil)
		require.Equal(t, http.StatusOK, read.Status, "%s", read.Body)
		var again map[string]any
		read.Decode(t, &again)
		require.Equal(t, got, again)
	}
	secret := harness.WebhookSecret(t, ctx, base)
	require.Regexp(t, "^[0-9a-f]{64}$", secret)
}

// createWebhook creates a webhook and deactivates it when the test ends,
// so no test leaves the shared node delivering to a receiver that is gone.
func createWebhook(t *testing.T, ctx context.Context, base string, request map[string]any) map[string]any {
	t.Helper()
	got := harness.CreateWebhook(t, ctx, base, request)
	id := got["id"].(string)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		r := harness.WebhookCall(t, ctx, base, http.MethodDelete, "/v1/webhooks/"+id, harness.WebhookKey, nil)
		require.Equal(t, http.StatusOK, r.Status, "deactivating %s: %s", id, r.Body)
	})
	return got
}
