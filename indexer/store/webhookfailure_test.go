package store

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

func TestWebhookFailureClockSurvivesAReopenAndEndsWithAStatusOrURLChange(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, dir)
	h, err := s.CreateWebhook(ctx, webhookdata.Webhook{ID: webhookdata.ID{7}, EventType: webhookdata.AddressActivity,
		URL: "https://a.example/hook", Chain: netinfo.C, ChainID: "43112", Status: webhookdata.Active,
		Metadata: webhookdata.Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}}})
	require.NoError(err)
	_, found, err := s.WebhookFailingSince(ctx, h.ID)
	require.NoError(err)
	require.False(found, "no run of failures yet")

	since := time.UnixMilli(time.Now().UnixMilli())
	require.NoError(s.SetWebhookFailingSince(ctx, h.ID, since))
	require.NoError(s.Close())
	s = openTest(t, dir)
	defer s.Close()
	require.NoError(s.LoadWebhooks(ctx))
	got, found, err := s.WebhookFailingSince(ctx, h.ID)
	require.NoError(err)
	require.True(found)
	require.True(since.Equal(got), "kept across a reopen, to the millisecond")

	failing := func() bool {
		_, found, err := s.WebhookFailingSince(ctx, h.ID)
		require.NoError(err)
		return found
	}
	change := func(fn func(*webhookdata.Webhook)) {
		_, err := s.UpdateWebhook(ctx, h.ID, h.Chain, 0, func(w webhookdata.Webhook) (webhookdata.Webhook, error) {
			fn(&w)
			return w, nil
		})
		require.NoError(err)
	}
	change(func(w *webhookdata.Webhook) { w.Name = "renamed" })
	require.True(failing(), "a change that is not of the status or URL keeps the run")
	change(func(w *webhookdata.Webhook) { w.URL = "https://b.example/hook" })
	require.False(failing(), "a new URL starts a new run")

	require.NoError(s.SetWebhookFailingSince(ctx, h.ID, since))
	change(func(w *webhookdata.Webhook) { w.Status = webhookdata.Inactive })
	require.False(failing(), "made inactive, the run ends")
	require.NoError(s.SetWebhookFailingSince(ctx, h.ID, since))
	change(func(w *webhookdata.Webhook) { w.Status = webhookdata.Active })
	require.False(failing(), "made active again, the webhook starts a fresh clock")

	require.NoError(s.SetWebhookFailingSince(ctx, h.ID, since))
	require.NoError(s.ClearWebhookFailingSince(ctx, h.ID))
	require.False(failing(), "a delivery that succeeded ends the run")
	require.NoError(s.ClearWebhookFailingSince(ctx, h.ID), "ending no run is no error")
}
