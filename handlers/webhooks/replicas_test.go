package webhooks

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// replica is one node's webhook service over its own store.
type replica struct {
	api     *handlertest.API
	svc     *Service
	backend testBackend
}

func newTestReplica(t *testing.T, cfg Config) replica {
	t.Helper()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	require.NoError(t, st.LoadWebhooks(t.Context()))
	cfg.ManagementKeys = []string{manageKey}
	cfg.Resolver = fakeResolver{netip.MustParseAddr("93.184.216.34")}
	r := replica{backend: testBackend{Store: st, next: map[netinfo.Chain]uint64{}}}
	serveCfg := handlertest.Config()
	serveCfg.APIKeys = append(serveCfg.APIKeys, manageKey)
	r.api = handlertest.NewAPI(t, serveCfg, handlertest.NewFakes(), func(core *api.Core) []api.Route {
		r.svc = NewService(core, cfg, r.backend)
		return r.svc.Routes()
	})
	return r
}

func TestImportWebhooksCopiesUnderTheSameID(t *testing.T) {
	a, b := newTestReplica(t, Config{}), newTestReplica(t, Config{})
	rec := a.api.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	created := decode(t, rec.Body.Bytes())
	pn := a.api.Request(t, http.MethodPost, "/v1/webhooks", `{"eventType":"primary_network_address_activity",
		"url":"https://hooks.example/p","network":"fuji","chainId":"X","metadata":{"keyType":"addresses",
		"keys":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],"subEvents":{"addressActivitySubEvents":["balance_change"]}}}`,
		manageHeader...)
	require.Equal(t, http.StatusCreated, pn.Code, pn.Body.String())

	doc, err := a.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	require.Len(t, doc.Webhooks, 2)
	secretA, err := a.backend.WebhookSecret(t.Context())
	require.NoError(t, err)
	require.Equal(t, secretA, doc.Secret)

	b.backend.next[fakenet.SubnetChain] = 42
	imported, err := b.svc.ImportWebhooks(t.Context(), doc)
	require.NoError(t, err)
	require.Len(t, imported, 2)
	secretB, err := b.backend.WebhookSecret(t.Context())
	require.NoError(t, err)
	require.Equal(t, secretA, secretB)

	// B answers the webhook as A does, and starts it at its own next block.
	id := created["id"].(string)
	require.Equal(t, a.api.Get(t, "/v1/webhooks/"+id, readHeader...).Body.String(),
		b.api.Get(t, "/v1/webhooks/"+id, readHeader...).Body.String())
	parsed, err := webhookdata.ParseID(id)
	require.NoError(t, err)
	stored, found, err := b.backend.Webhook(t.Context(), parsed)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, uint64(42), stored.FromHeight)

	// Importing again replaces; an export of B reads back the same document.
	again, err := b.svc.ImportWebhooks(t.Context(), doc)
	require.NoError(t, err)
	require.True(t, again[0].Replaced)
	docB, err := b.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	require.Equal(t, doc, docB)
}

func TestImportWebhooksRefusesABadDocumentWhole(t *testing.T) {
	a, b := newTestReplica(t, Config{}), newTestReplica(t, Config{})
	rec := a.api.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	doc, err := a.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	good := doc.Webhooks[0]
	edit := func(change func(m map[string]any)) json.RawMessage {
		var m map[string]any
		require.NoError(t, json.Unmarshal(good, &m))
		change(m)
		out, err := json.Marshal(m)
		require.NoError(t, err)
		return out
	}
	for _, tc := range []struct {
		name     string
		doc      ReplicaDocument
		fragment string
	}{
		{"no secret", ReplicaDocument{Webhooks: doc.Webhooks}, "secret is required"},
		{"unknown chain", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{good,
			edit(func(m map[string]any) { m["id"] = "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b"; m["chainId"] = "999999" })}}, "webhooks[1]: "},
		{"no id", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{edit(func(m map[string]any) { delete(m, "id") })}}, "webhooks[0]: id is required"},
		{"bad status", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{edit(func(m map[string]any) { m["status"] = "on" })}}, "invalid status 'on'"},
		{"unknown member", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{edit(func(m map[string]any) { m["fromHeight"] = 1 })}}, "fromHeight"},
		{"not an object", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{json.RawMessage(`[1]`)}}, "webhooks[0]: "},
		{"twice", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{good, good}}, "twice"},
		{"bad address", ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{edit(func(m map[string]any) {
			m["metadata"] = map[string]any{"addresses": []string{"0x12"}}
		})}}, "webhooks[0]: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.svc.ImportWebhooks(t.Context(), tc.doc)
			var apiErr *api.Error
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusBadRequest, apiErr.Status)
			require.Contains(t, apiErr.Message, tc.fragment)
			all, err := b.backend.Webhooks(t.Context())
			require.NoError(t, err)
			require.Empty(t, all)
			require.NotContains(t, apiErr.Message, doc.Secret)
		})
	}
	// The secret is left as it was too.
	secretB, err := b.backend.WebhookSecret(t.Context())
	require.NoError(t, err)
	require.NotEqual(t, doc.Secret, secretB)
}

func TestImportWebhooksKeepsTheQuota(t *testing.T) {
	a, b := newTestReplica(t, Config{}), newTestReplica(t, Config{MaxWebhooks: 1})
	for range 2 {
		rec := a.api.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
		require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	}
	doc, err := a.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	_, err = b.svc.ImportWebhooks(t.Context(), doc)
	require.ErrorContains(t, err, "webhooks.maxWebhooks")
}
