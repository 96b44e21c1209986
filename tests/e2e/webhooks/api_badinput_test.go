package webhooks

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestWebhooksAPIBadInput: over HTTP against the shared node, every kind
// of bad input the issue names gets the spec's 400 body naming what is
// wrong: a malformed URL or scheme, an unknown chain (another network's
// C-chain, a chain the node does not follow, the X-chain as an EVM chain),
// addresses of the wrong kind or network, too many addresses, a network
// that is not the node's, an unknown member; an unknown webhook is a 404.
// Nothing is created by any of them.
func TestWebhooksAPIBadInput(t *testing.T) {
	ctx, base, facts, rcv := startAPITest(t)
	cChain := facts.evm[0].evmChainID
	evmAddr := "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"
	fujiAddr, err := address.Format("X", "fuji", genesis.EWOQKey.Address().Bytes())
	require.NoError(t, err)
	tooMany := make([]string, 10_001)
	for i := range tooMany {
		tooMany[i] = fmt.Sprintf("0x%040x", i+1)
	}
	with := func(r map[string]any, key string, v any) map[string]any {
		out := map[string]any{}
		for k, x := range r {
			out[k] = x
		}
		out[key] = v
		return out
	}
	before := countWebhooks(t, ctx, base)
	for _, tc := range []struct {
		name     string
		body     map[string]any
		mentions string
	}{
		{"malformed url", evmRequest("http://h.example/%zz", cChain, evmAddr), "not a URL"},
		{"ftp url", evmRequest("ftp://h.example/", cChain, evmAddr), "http or https"},
		{"relative url", evmRequest("/hook", cChain, evmAddr), "http or https"},
		{"long url", evmRequest("https://h.example/"+strings.Repeat("a", 2048), cChain, evmAddr), "at most 2048"},
		{"mainnet C-chain", evmRequest(rcv.URL, "43114", evmAddr), "C-chain of mainnet"},
		{"unknown EVM chain", evmRequest(rcv.URL, "12345", evmAddr), "unsupported chainId '12345'"},
		{"X-chain as EVM chain", evmRequest(rcv.URL, facts.xChainID, evmAddr), "not an EVM chain"},
		{"bech32 as EVM address", evmRequest(rcv.URL, cChain, facts.ewoqX), "invalid metadata.addresses entry"},
		{"too many addresses", evmRequest(rcv.URL, cChain, tooMany...), "at most 10000"},
		{"bad event signature", with(evmRequest(rcv.URL, cChain, evmAddr), "metadata",
			map[string]any{"addresses": []string{evmAddr}, "eventSignatures": []string{"0x1234"}}), "eventSignatures entry '0x1234'"},
		{"EVM address on X", primaryRequest(rcv.URL, "X", evmAddr), "bech32"},
		{"fuji address on this network", primaryRequest(rcv.URL, "X", fujiAddr), "address of 'fuji'"},
		{"subnet chain as primary chain", primaryRequest(rcv.URL, facts.evm[1].blockchainID, facts.ewoqX), "P-, X- or C-chain"},
		{"mainnet", with(primaryRequest(rcv.URL, "X", facts.ewoqX), "network", "mainnet"), "is not this node's network"},
		{"network local", with(validatorRequest(rcv.URL, facts.nodeID), "network", "local"), "'mainnet' or 'fuji'"},
		{"bad node ID", validatorRequest(rcv.URL, "NodeID-nope"), "not a node ID"},
		{"unknown member", with(evmRequest(rcv.URL, cChain, evmAddr), "network", "fuji"), "unknown field 'network'"},
	} {
		r := harness.WebhookCall(t, ctx, base, http.MethodPost, "/v1/webhooks", harness.WebhookKey, tc.body)
		harness.RequireErrorBody(t, r, http.StatusBadRequest, tc.mentions)
		t.Logf("%s: %s", tc.name, r.Body)
	}
	require.Equal(t, before, countWebhooks(t, ctx, base), "no bad request created a webhook")

	unknown := "/v1/webhooks/401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b"
	harness.RequireErrorBody(t, harness.WebhookCall(t, ctx, base, http.MethodGet, unknown, harness.WebhookKey, nil), http.StatusNotFound, "no webhook")
	harness.RequireErrorBody(t, harness.WebhookCall(t, ctx, base, http.MethodDelete, unknown, harness.WebhookKey, nil), http.StatusNotFound, "no webhook")
	harness.RequireErrorBody(t, harness.WebhookCall(t, ctx, base, http.MethodGet, "/v1/webhooks/nope", harness.WebhookKey, nil), http.StatusBadRequest, "invalid id")
	pn := createWebhook(t, ctx, base, primaryRequest(rcv.URL, "P", facts.ewoqX))
	r := harness.WebhookCall(t, ctx, base, http.MethodPatch, "/v1/webhooks/"+pn["id"].(string)+"/addresses", harness.WebhookKey,
		map[string]any{"addresses": []string{evmAddr}})
	harness.RequireErrorBody(t, r, http.StatusBadRequest, "only to address_activity webhooks")
}

// countWebhooks is how many webhooks the node keeps.
func countWebhooks(t *testing.T, ctx context.Context, base string) int {
	t.Helper()
	r := harness.WebhookCall(t, ctx, base, http.MethodGet, "/v1/webhooks?pageSize=100", harness.APIKey, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var page struct {
		Webhooks      []any  `json:"webhooks"`
		NextPageToken string `json:"nextPageToken"`
	}
	r.Decode(t, &page)
	require.Empty(t, page.NextPageToken, "the tests keep fewer than 100 webhooks")
	return len(page.Webhooks)
}
