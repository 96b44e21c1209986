package store

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

func TestWebhookEventsBeginAtTheChainsNextBlock(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, dir)
	require.NoError(s.StartStream(ctx, netinfo.C, StreamBlocks, 40))

	h := webhookdata.Webhook{ID: webhookdata.ID{9}, EventType: webhookdata.AddressActivity, Chain: netinfo.C,
		ChainID: "43112", Status: webhookdata.Active, FromHeight: 10,
		Metadata: webhookdata.Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}}}
	created, err := s.CreateWebhook(ctx, h)
	require.NoError(err)
	require.Equal(uint64(40), created.FromHeight, "the index's next block, later than the caller's bound")
	_, err = s.CreateWebhook(ctx, h)
	require.Error(err, "an ID is created once")
	require.NotNil(s.hooks.watches.Load().Chain(netinfo.C))

	// Deactivated, the chain has no watches; made active again, it begins
	// at the caller's bound when that is later than the index.
	off := func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
		w.Status = webhookdata.Inactive
		return w, nil
	}
	on := func(w webhookdata.Webhook) (webhookdata.Webhook, error) { w.Status = webhookdata.Active; return w, nil }
	_, err = s.UpdateWebhook(ctx, h.ID, netinfo.C, 0, off)
	require.NoError(err)
	require.Nil(s.hooks.watches.Load().Chain(netinfo.C))
	again, err := s.UpdateWebhook(ctx, h.ID, netinfo.C, 55, on)
	require.NoError(err)
	require.Equal(uint64(55), again.FromHeight)
	_, err = s.UpdateWebhook(ctx, webhookdata.ID{8}, netinfo.C, 0, on)
	require.ErrorIs(err, ErrWebhookNotFound)

	// Events below the webhook's height are not written; the others wait
	// in order, survive a reopen and leave once acknowledged.
	w := s.newBlockTxn(netinfo.C)
	require.NoError(w.emitWebhookEvent(&again, 54, map[string]int{"n": 0}))
	require.NoError(w.emitWebhookEvent(&again, 55, map[string]int{"n": 1}))
	require.NoError(w.emitWebhookEvent(&again, 55, map[string]int{"n": 2}))
	require.NoError(w.emitWebhookEvent(&again, 56, map[string]int{"n": 3}))
	require.NoError(w.placeWebhookEvents(true))
	require.NoError(w.txn.Commit())
	require.NoError(s.Close())

	s = openTest(t, dir)
	defer s.Close()
	require.NoError(s.LoadWebhooks(ctx))
	require.NotNil(s.hooks.watches.Load().Chain(netinfo.C), "the watches are loaded at open")
	out, err := s.Outbox(ctx, h.ID, 10)
	require.NoError(err)
	require.Len(out, 3)
	require.Equal([]uint64{55, 55, 56}, []uint64{out[0].Height, out[1].Height, out[2].Height})
	require.Equal([]uint32{0, 1, 0}, []uint32{out[0].Seq, out[1].Seq, out[2].Seq})
	require.Contains(string(out[1].Body), `"event":{"n":2}`)
	require.Contains(string(out[1].Body), webhookdata.MessageID(h.ID, "43112", 55, 1))
	require.NoError(s.AckOutbox(ctx, h.ID, out[:2]))
	out, err = s.Outbox(ctx, h.ID, 10)
	require.NoError(err)
	require.Len(out, 1)
	require.Equal(uint64(56), out[0].Height)
}

func TestWebhookSecretIsDrawnOnceAndRotates(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	a, err := s.WebhookSecret(ctx)
	require.NoError(err)
	require.Len(a, 64)
	b, err := s.WebhookSecret(ctx)
	require.NoError(err)
	require.Equal(a, b)
	c, err := s.RotateWebhookSecret(ctx)
	require.NoError(err)
	require.NotEqual(a, c)
	d, err := s.WebhookSecret(ctx)
	require.NoError(err)
	require.Equal(c, d)
}

// The first requests of a fresh node may ask for the secret at once (two
// creations, a delivery): every one gets the same secret, none a conflict.
func TestWebhookSecretDrawnOnceUnderConcurrentFirstUse(t *testing.T) {
	ctx := context.Background()
	for round := 0; round < 20; round++ {
		s := openTest(t, t.TempDir())
		const callers = 8
		secrets := make([]string, callers)
		errs := make([]error, callers)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				secrets[i], errs[i] = s.WebhookSecret(ctx)
			}()
		}
		close(start)
		wg.Wait()
		for i := range callers {
			require.NoError(t, errs[i], "caller %d", i)
			require.Equal(t, secrets[0], secrets[i], "caller %d", i)
		}
		require.NoError(t, s.Close())
	}
}
