package webhooks

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// Every kind of webhook an export holds is imported: the validator and
// primary-network kinds' records carry the reply's members too.
func TestImportWebhooksTakesEveryKind(t *testing.T) {
	a, b := newTestReplica(t, Config{}), newTestReplica(t, Config{})
	for _, body := range []string{
		`{"eventType":"validator_activity","url":"https://hooks.example/v","network":"fuji",
			"metadata":{"keyType":"nodeId","keys":["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"],
			"subEvents":{"validatorActivitySubEvents":["validator_stake","reward_distribution"]}}}`,
		`{"eventType":"primary_network_address_activity","url":"https://hooks.example/p","network":"fuji",
			"chainId":"X","metadata":{"keyType":"addresses","keys":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],
			"subEvents":{"addressActivitySubEvents":["balance_change"]},
			"balanceThresholdFilter":{"balanceType":"unlocked","balanceThreshold":"1000"}}}`,
	} {
		rec := a.api.Request(t, http.MethodPost, "/v1/webhooks", body, manageHeader...)
		require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	}
	doc, err := a.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	imported, err := b.svc.ImportWebhooks(t.Context(), doc)
	require.NoError(t, err)
	require.Len(t, imported, 2)
	docB, err := b.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	require.Equal(t, doc, docB)

	// A validator record naming another chain is refused, not read.
	var m map[string]any
	require.NoError(t, json.Unmarshal(doc.Webhooks[0], &m))
	if m["eventType"] != "validator_activity" {
		require.NoError(t, json.Unmarshal(doc.Webhooks[1], &m))
	}
	m["chainId"], m["id"] = "X", "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b"
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	requireImportRefused(t, b, ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{raw}}, "invalid chainId 'X'")
}

// An import does not turn a webhook into one of another kind on the same
// chain: its outbox may hold events of its own kind.
func TestImportWebhooksKeepsAWebhooksKind(t *testing.T) {
	a, b := newTestReplica(t, Config{}), newTestReplica(t, Config{})
	rec := a.api.Request(t, http.MethodPost, "/v1/webhooks", `{"eventType":"validator_activity","url":"https://hooks.example/v",
		"network":"fuji","metadata":{"keyType":"nodeId","keys":["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"],
		"subEvents":{"validatorActivitySubEvents":["validator_stake"]}}}`, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	doc, err := a.svc.ExportWebhooks(t.Context())
	require.NoError(t, err)
	_, err = b.svc.ImportWebhooks(t.Context(), doc)
	require.NoError(t, err)

	var m map[string]any
	require.NoError(t, json.Unmarshal(doc.Webhooks[0], &m))
	m["eventType"], m["chainId"] = "primary_network_address_activity", "P"
	m["metadata"] = map[string]any{"keyType": "addresses", "keys": []string{"P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"},
		"subEvents": map[string]any{"addressActivitySubEvents": []string{"balance_change"}}}
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	requireImportRefused(t, b, ReplicaDocument{Secret: doc.Secret, Webhooks: []json.RawMessage{raw}},
		"is a validator_activity webhook on this node, not primary_network_address_activity")
}

// requireImportRefused imports doc into r and requires a 400 whose message
// holds fragment.
func requireImportRefused(t *testing.T, r replica, doc ReplicaDocument, fragment string) {
	t.Helper()
	_, err := r.svc.ImportWebhooks(t.Context(), doc)
	var apiErr *api.Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.Status)
	require.Contains(t, apiErr.Message, fragment)
}
