package webhooks

import (
	"context"
	"math/big"
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
// while the receiver refuses every delivery, SIGKILLs the node with the
// events pending (and again while it catches up on blocks accepted before
// the kill it had not indexed), restarts it and lets the receiver take
// them: every transaction the node's blocks give the address arrives at
// least once, none missing, in the chain's order.
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

	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	sent := sendTo(t, ctx, c, addr, 10)
	receiver.WaitFor(t, ctx, "a refused delivery", func(d []harness.WebhookDelivery) bool { return len(d) > 0 })

	// Kill with the events pending, and with more txs just sent: some
	// are accepted but not yet indexed when the node dies.
	more := sendAsync(t, ctx, c, addr, 10)
	require.NoError(t, net.Kill())
	c.Close()
	require.NoError(t, net.Restart(ctx))
	restarted := time.Now()
	c, err = evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	sent = append(sent, more...)
	// The txs sent before the kill that the node never accepted are gone;
	// the truth below is what its blocks hold.
	sent = append(sent, sendTo(t, ctx, c, addr, 5)...)
	receiver.WaitFor(t, ctx, "a refused delivery after the restart", func(d []harness.WebhookDelivery) bool {
		return len(d) > 0 && d[len(d)-1].At.After(restarted)
	})
	require.Empty(t, taken(t, receiver.Deliveries()))
	require.NoError(t, net.Kill())
	require.NoError(t, net.Restart(ctx))

	receiver.SetStatus(http.StatusOK)
	want := chainTruth(t, ctx, chain, addr)
	wantHashes := make([]common.Hash, len(want))
	for i, x := range want {
		wantHashes[i] = x.Hash
	}
	got := receiver.WaitFor(t, ctx, "every event", hasTxs(t, wantHashes))
	requireDeliveredInOrder(t, ctx, chain, addr, hook, got, secret)
	t.Logf("%d txs sent, %d on the chain; %d deliveries refused, %d taken (%d repeats)", len(sent), len(want),
		len(got)-len(taken(t, got)), len(taken(t, got)), len(taken(t, got))-len(firstOccurrences(taken(t, got))))
}

// sendAsync sends n value transfers to addr without waiting for receipts
// (the node may die before it accepts them); it returns the hashes it
// handed to the node.
func sendAsync(t *testing.T, ctx context.Context, c *evmtest.Client, addr common.Address, n int) []common.Hash {
	t.Helper()
	var out []common.Hash
	for range n {
		h, err := c.SendValue(ctx, addr, big.NewInt(1))
		require.NoError(t, err)
		out = append(out, h)
	}
	return out
}
