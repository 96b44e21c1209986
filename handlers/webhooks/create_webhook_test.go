package webhooks

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

const evmCreate = `{"eventType":"address_activity","url":"https://hooks.example/in","chainId":"779672",
	"metadata":{"addresses":["0x00000000000000000000000000000000000A11CE","0x00000000000000000000000000000000000a11ce"]},
	"includeLogs":true}`

func TestCreateWebhookEachKind(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	backend.next[fakenet.SubnetChain] = 7
	p := fakenet.Info().ChainID(netinfo.P).String()
	for _, tc := range []struct {
		name, body, chainID string
		chain               netinfo.Chain
	}{
		{"evm", evmCreate, "779672", fakenet.SubnetChain},
		{"primary", `{"eventType":"primary_network_address_activity","url":"https://hooks.example/p","network":"fuji",
			"chainId":"X","metadata":{"keyType":"addresses","keys":["X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],
			"subEvents":{"addressActivitySubEvents":["balance_change"]},
			"balanceThresholdFilter":{"balanceType":"unlocked","balanceThreshold":"1000"}}}`, fakenet.XChainID.String(), netinfo.X},
		{"validator", `{"eventType":"validator_activity","url":"https://hooks.example/v","network":"fuji",
			"metadata":{"keyType":"nodeId","keys":["NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"],
			"subEvents":{"validatorActivitySubEvents":["validator_stake","reward_distribution"]}}}`, p, netinfo.P},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.Request(t, http.MethodPost, "/v1/webhooks", tc.body, manageHeader...)
			require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
			body := decode(t, rec.Body.Bytes())
			handlertest.RequireNoNulls(t, body)
			require.Equal(t, tc.chainID, body["chainId"])
			require.Equal(t, "active", body["status"])
			require.Equal(t, "", body["name"])
			require.Equal(t, "", body["description"])
			id, err := webhookdata.ParseID(body["id"].(string))
			require.NoError(t, err)
			stored, found, err := backend.Webhook(t.Context(), id)
			require.NoError(t, err)
			require.True(t, found)
			require.Equal(t, tc.chain, stored.Chain)
			if tc.name == "evm" {
				require.Equal(t, []any{"0x00000000000000000000000000000000000a11ce"}, body["metadata"].(map[string]any)["addresses"])
				require.Equal(t, true, body["includeLogs"])
				require.Equal(t, false, body["includeInternalTxs"])
				require.Equal(t, uint64(7), stored.FromHeight)
			} else {
				require.NotContains(t, body, "includeLogs")
			}
		})
	}
}

func TestGetSharedSecretExistsOnceCreated(t *testing.T) {
	a, backend := newTestAPI(t, Config{})
	rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
	require.Equal(t, http.StatusCreated, rec.Code, rec.Body.String())
	stored, err := backend.WebhookSecret(t.Context())
	require.NoError(t, err)
	var got sharedSecretsResponse
	handlertest.RequireJSON(t, a.Get(t, "/v1/webhooks:getSharedSecret", manageHeader...), http.StatusOK, &got)
	require.Equal(t, stored, got.Secret)
	require.Len(t, got.Secret, 64)
}
