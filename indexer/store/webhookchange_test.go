package store

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// The records a change starts from are kept in memory between changes:
// after any sequence of changes (one that fails after editing what it got
// included) the published watch sets are those of the stored records.
func TestWebhookChangesKeepTheRecordsInMemoryTrue(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	require.NoError(s.StartStream(ctx, netinfo.C, StreamBlocks, 3))
	require.NoError(s.LoadWebhooks(ctx))
	for i := range 3 {
		_, err := s.CreateWebhook(ctx, webhookdata.Webhook{ID: webhookdata.ID{byte(i + 1)}, EventType: webhookdata.AddressActivity,
			Chain: netinfo.C, ChainID: "43112", Status: webhookdata.Active,
			Metadata: webhookdata.Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}}})
		require.NoError(err)
	}
	requireWatchesOfStored := func() {
		t.Helper()
		stored, err := s.Webhooks(ctx)
		require.NoError(err)
		want, err := webhookdata.NewWatches(stored)
		require.NoError(err)
		require.Equal(want, s.WebhookWatches())
	}
	requireWatchesOfStored()

	failed := errors.New("refused")
	_, err := s.UpdateWebhook(ctx, webhookdata.ID{2}, netinfo.C, 0, func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
		h.Metadata.Addresses[0] = "0x00000000000000000000000000000000000000bb"
		return h, failed
	})
	require.ErrorIs(err, failed)
	requireWatchesOfStored()
	_, err = s.UpdateWebhook(ctx, webhookdata.ID{2}, netinfo.C, 0, func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
		require.Equal([]string{"0x00000000000000000000000000000000000000aa"}, h.Metadata.Addresses)
		h.Metadata.Addresses = append(h.Metadata.Addresses, "0x00000000000000000000000000000000000000cc")
		h.Status = webhookdata.Inactive
		return h, nil
	})
	require.NoError(err)
	requireWatchesOfStored()
	_, err = s.UpdateWebhook(ctx, webhookdata.ID{2}, netinfo.C, 7, func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
		h.Status = webhookdata.Active
		return h, nil
	})
	require.NoError(err)
	requireWatchesOfStored()
	require.Len(s.WebhookWatches().Chain(netinfo.C).Hooks, 3)

	// A record the writers could not watch is refused, not stored.
	_, err = s.UpdateWebhook(ctx, webhookdata.ID{3}, netinfo.C, 0, func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
		h.Metadata.Addresses = []string{"not an address"}
		return h, nil
	})
	require.ErrorContains(err, "not an EVM address")
	requireWatchesOfStored()
	h, _, err := s.Webhook(ctx, webhookdata.ID{3})
	require.NoError(err)
	require.Equal([]string{"0x00000000000000000000000000000000000000aa"}, h.Metadata.Addresses)
}
