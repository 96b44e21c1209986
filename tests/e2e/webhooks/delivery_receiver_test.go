package webhooks

import (
	"context"
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// receiverDownFor is how long TestWebhooksDeliveryReceiverDown's receiver
// is down.
const receiverDownFor = 2 * time.Minute

// TestWebhooksDeliveryReceiverDown takes the receiver down for two minutes
// while the watched address keeps getting transactions: once it is back,
// every event arrives, in the chain's order (the backoff has grown to a
// minute or more by then, so this also waits out a long retry).
func TestWebhooksDeliveryReceiverDown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	chain, base, c := onSharedChain(t, ctx)
	receiver := harness.NewWebhookReceiver(t)
	addr := freshAddress(t)
	hook := createActivityHook(t, ctx, base, chain, addr, receiver.URL)

	sent := sendTo(t, ctx, c, addr, 2)
	receiver.WaitFor(t, ctx, "the first events", hasTxs(t, sent))
	receiver.Down()
	down := time.Now()
	for time.Since(down) < receiverDownFor {
		sent = append(sent, sendTo(t, ctx, c, addr, 2)...)
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(10 * time.Second):
		}
	}
	receiver.Up(t)
	up := time.Now()
	got := receiver.WaitFor(t, ctx, "every event after the receiver is back", hasTxs(t, sent))
	t.Logf("%d txs; receiver down %s; all delivered %s after it was back", len(sent),
		receiverDownFor, time.Since(up).Round(time.Millisecond))
	requireDeliveredInOrder(t, ctx, chain, addr, hook, got, harness.WebhookSecret(t, ctx, base))
}

// TestWebhooksDeliveryHangingReceiver has one webhook's receiver hang on
// every request while another webhook watches the same address: the
// hanging deliveries end at the response timeout and are tried again, the
// other webhook gets each event as quickly as ever (latencies logged), and
// once the receiver answers again it gets everything in order.
func TestWebhooksDeliveryHangingReceiver(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	chain, base, c := onSharedChain(t, ctx)
	hanging, healthy := harness.NewWebhookReceiver(t), harness.NewWebhookReceiver(t)
	hanging.SetHang(true)
	addr := freshAddress(t)
	slow := createActivityHook(t, ctx, base, chain, addr, hanging.URL)
	fast := createActivityHook(t, ctx, base, chain, addr, healthy.URL)

	// Each tx: accepted when the node first answers its receipt, then
	// delivered to the healthy receiver.
	var sent []common.Hash
	var latencies []time.Duration
	for i := range 20 {
		h, err := c.SendValue(ctx, addr, big.NewInt(int64(i+1)))
		require.NoError(t, err)
		sent = append(sent, h)
		accepted := pollUntil(t, ctx, func() bool {
			r, err := c.Receipt(ctx, h)
			return err == nil && r != nil
		})
		got := healthy.WaitFor(t, ctx, "the healthy webhook's event", hasTxs(t, []common.Hash{h}))
		latencies = append(latencies, deliveredAt(t, got, h).Sub(accepted))
	}
	slices.Sort(latencies)
	t.Logf("healthy webhook beside a hanging one: acceptance to delivery p50 %s, max %s over %d txs",
		percentile(latencies, 50), latencies[len(latencies)-1], len(latencies))

	// The hanging receiver has seen only the head event, tried again after
	// each timeout (10 s by default).
	attempts := hanging.WaitFor(t, ctx, "a retry after the response timeout",
		func(d []harness.WebhookDelivery) bool { return len(d) >= 2 })
	ds := parseDeliveries(t, attempts)
	for _, d := range ds {
		require.Equal(t, ds[0].MessageID, d.MessageID, "the head event blocks its own webhook only")
	}
	require.Equal(t, sent[0].Hex(), ds[0].Event.Transaction.TxHash)
	require.GreaterOrEqual(t, ds[1].Delivery.At.Sub(ds[0].Delivery.At), 9*time.Second, "the first attempt timed out")

	hanging.SetHang(false)
	got := hanging.WaitFor(t, ctx, "every event once the receiver answers", hasTxs(t, sent))
	requireDeliveredInOrder(t, ctx, chain, addr, slow, got, "")
	requireDeliveredInOrder(t, ctx, chain, addr, fast, healthy.Deliveries(), "")
}

// TestWebhooksDeliveryRotatedSecret rotates the shared secret between two
// deliveries: the next delivery is signed with the new secret, which the
// official SDK's validateWebhook accepts and the old one fails.
func TestWebhooksDeliveryRotatedSecret(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	chain, base, c := onSharedChain(t, ctx)
	receiver := harness.NewWebhookReceiver(t)
	addr := freshAddress(t)
	createActivityHook(t, ctx, base, chain, addr, receiver.URL)

	old := harness.WebhookSecret(t, ctx, base)
	first := sendTo(t, ctx, c, addr, 1)
	receiver.WaitFor(t, ctx, "the first event", hasTxs(t, first))
	rotated := rotateSecret(t, ctx, base)
	require.NotEqual(t, old, rotated)
	require.Equal(t, rotated, harness.WebhookSecret(t, ctx, base))
	second := sendTo(t, ctx, c, addr, 1)
	got := taken(t, receiver.WaitFor(t, ctx, "the event after the rotation", hasTxs(t, second)))
	require.Len(t, got, 2)

	sdk := harness.InstallSDK(t)
	before, after := got[0].Delivery, got[1].Delivery
	byOld := sdk.ValidateWebhooks(t, ctx, old, []harness.WebhookDelivery{before, after})
	byNew := sdk.ValidateWebhooks(t, ctx, rotated, []harness.WebhookDelivery{before, after})
	require.Equal(t, "ok", byOld[0].ValidateWebhook, "the delivery before the rotation: the old secret")
	require.NotEqual(t, "ok", byOld[1].Verify, "the delivery after it: not the old secret")
	require.NotEqual(t, "ok", byNew[0].Verify)
	require.Equal(t, "ok", byNew[1].ValidateWebhook, "the delivery after the rotation: the new secret")
}

// pollUntil polls done every millisecond and returns when it first held.
func pollUntil(t testing.TB, ctx context.Context, done func() bool) time.Time {
	t.Helper()
	for !done() {
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
	return time.Now()
}

// deliveredAt is when the first delivery of tx h the receiver took
// arrived.
func deliveredAt(t testing.TB, got []harness.WebhookDelivery, h common.Hash) time.Time {
	t.Helper()
	for _, d := range taken(t, got) {
		if d.Event.Transaction.TxHash == h.Hex() {
			return d.Delivery.At
		}
	}
	t.Fatalf("no delivery of %s", h)
	return time.Time{}
}

// onSharedChain is the C-chain of the shared network, avadata's base URL
// there and an EWOQ client of the chain (closed when the test ends).
func onSharedChain(t *testing.T, ctx context.Context) (localnet.EVMChain, string, *evmtest.Client) {
	t.Helper()
	net := env.Net(t)
	chain := net.EVMChains()[0]
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return chain, net.BaseURL(), c
}
