package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// An import writes every record and the secret, or nothing.
func TestImportWebhooksWritesAllOrNothing(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	secret, err := s.WebhookSecret(ctx)
	require.NoError(err)
	hook := func(id byte, chain netinfo.Chain, addr string) webhookdata.Webhook {
		return webhookdata.Webhook{ID: webhookdata.ID{id}, EventType: webhookdata.AddressActivity, Chain: chain,
			ChainID: "99999", Status: webhookdata.Active, Metadata: webhookdata.Metadata{Addresses: []string{addr}}}
	}
	good := "0x00000000000000000000000000000000000000aa"
	_, err = s.ImportWebhooks(ctx, []webhookdata.Webhook{hook(1, netinfo.C, good), hook(2, evmChain, "0x12")}, "other")
	require.Error(err, "a record the writers cannot watch")
	all, err := s.Webhooks(ctx)
	require.NoError(err)
	require.Empty(all)
	kept, err := s.WebhookSecret(ctx)
	require.NoError(err)
	require.Equal(secret, kept)

	out, err := s.ImportWebhooks(ctx, []webhookdata.Webhook{hook(1, netinfo.C, good), hook(2, evmChain, good)}, "other")
	require.NoError(err)
	require.Len(out, 2)
	all, err = s.Webhooks(ctx)
	require.NoError(err)
	require.Len(all, 2)
	now, err := s.WebhookSecret(ctx)
	require.NoError(err)
	require.Equal("other", now)
	require.NotNil(s.hooks.watches.Load().Chain(netinfo.C).Hook(webhookdata.ID{1}))
	require.NotNil(s.hooks.watches.Load().Chain(evmChain).Hook(webhookdata.ID{2}))
}
