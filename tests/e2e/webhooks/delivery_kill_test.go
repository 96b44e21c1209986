package webhooks

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// TestWebhooksDeliveryAcrossKill makes EVM activity on a watched address
// while the receiver refuses every delivery and SIGKILLs the node three
// times: with the events pending and blocks just accepted (possibly not yet
// indexed), again after more activity, and once in the middle of a
// delivery the receiver took but the node never saw answered. Restarted,
// with the receiver taking deliveries, every transaction the node's blocks
// give the address arrives at least once, none missing, in the chain's
// order; the one taken mid-kill arrives again, with the same messageId.
func TestWebhooksDeliveryAcrossKill(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: harness.ChainConfig(), ExtraFlags: harness.NodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	chain := net.EVMChains()[0]
	base := net.BaseURL()

	receiver := harness.NewWebhookReceiver(t)
	receiver.SetStatus(http.StatusInternalServerError)
	addr := freshAddress(t)
	hook := createActivityHook(t, ctx, base, chain, addr, receiver.URL)
	secret := harness.WebhookSecret(t, ctx, base)
	sendThenKill := func(n int) {
		c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
		require.NoError(t, err)
		defer c.Close()
		began := time.Now()
		sendTo(t, ctx, c, addr, n)
		receiver.WaitFor(t, ctx, "a refused delivery", func(d []harness.WebhookDelivery) bool {
			return len(d) > 0 && d[len(d)-1].At.After(began)
		})
		// The last receipts were just answered: their blocks may not be
		// indexed yet when the node dies.
		sendTo(t, ctx, c, addr, n)
		require.NoError(t, net.Kill())
		require.NoError(t, net.Restart(ctx))
	}
	sendThenKill(5)
	sendThenKill(5)
	require.Empty(t, taken(t, receiver.Deliveries()))

	// Killed while the receiver holds a delivery it took: the node never
	// saw the answer, so the event is still in its outbox.
	receiver.SetHang(true)
	receiver.SetStatus(http.StatusOK)
	hung := receiver.WaitFor(t, ctx, "a delivery held open", func(d []harness.WebhookDelivery) bool {
		return len(taken(t, d)) > 0
	})
	require.NoError(t, net.Kill())
	receiver.SetHang(false)
	require.NoError(t, net.Restart(ctx))

	want := chainTruth(t, ctx, chain, addr)
	wantHashes := make([]common.Hash, len(want))
	for i, x := range want {
		wantHashes[i] = x.Hash
	}
	require.Len(t, want, 20, "every tx sent was accepted")
	got := receiver.WaitFor(t, ctx, "every event", hasTxs(t, wantHashes))
	requireDeliveredInOrder(t, ctx, chain, addr, hook, got, secret)
	ds := taken(t, got)
	held := taken(t, hung)[0]
	repeats := 0
	for _, d := range ds {
		if d.MessageID == held.MessageID {
			repeats++
		}
	}
	require.GreaterOrEqual(t, repeats, 2, "the delivery held open at the kill is sent again")
	t.Logf("%d txs on the chain; %d deliveries refused, %d taken (%d repeats)", len(want),
		len(got)-len(ds), len(ds), len(ds)-len(firstOccurrences(ds)))
}
