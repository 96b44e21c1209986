package webhooks

import (
	"context"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestWebhooksAPIRefusesPrivateTargets starts a node of its own with the
// default webhooks.allowPrivateTargets (false): a URL whose host is or
// resolves to a loopback, private, link-local or unspecified address is a
// 400 naming the address (the tests' own loopback receiver, localhost, the
// cloud metadata address, a private and a carrier-NAT one), while a public
// address is accepted. Nothing is created by the refused ones.
func TestWebhooksAPIRefusesPrivateTargets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	config["webhooks"] = map[string]any{"managementKeys": []string{harness.WebhookKey}}
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	base := net.BaseURL()
	chainID := strconv.FormatUint(net.EVMChains()[0].EVMChainID, 10)
	rcv := harness.NewWebhookReceiver(t)

	for _, url := range []string{rcv.URL, "http://localhost:9/hook", "http://169.254.169.254/latest", "http://10.0.0.1/hook",
		"http://100.64.1.1/hook", "http://[::1]:9/hook", "http://0.0.0.0/hook"} {
		r := harness.WebhookCall(t, ctx, base, http.MethodPost, "/v1/webhooks", harness.WebhookKey,
			evmRequest(url, chainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"))
		harness.RequireErrorBody(t, r, http.StatusBadRequest, "not a public address")
		t.Logf("%s: %s", url, r.Body)
	}
	list := harness.WebhookCall(t, ctx, base, http.MethodGet, "/v1/webhooks", harness.APIKey, nil)
	require.JSONEq(t, `{"webhooks":[]}`, string(list.Body))

	public := harness.CreateWebhook(t, ctx, base, evmRequest("https://93.184.216.34/hook", chainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"))
	require.Equal(t, "active", public["status"])
	r := harness.WebhookCall(t, ctx, base, http.MethodPatch, "/v1/webhooks/"+public["id"].(string), harness.WebhookKey,
		map[string]any{"url": rcv.URL})
	harness.RequireErrorBody(t, r, http.StatusBadRequest, "not a public address")
	r = harness.WebhookCall(t, ctx, base, http.MethodDelete, "/v1/webhooks/"+public["id"].(string), harness.WebhookKey, nil)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}
