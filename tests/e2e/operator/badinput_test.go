package operator

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestOperatorBadInputGets400 sends malformed requests to avadata through the
// node and checks each gets the spec's error body (message, error,
// statusCode, application/json) with a 4xx code that names what was wrong,
// never a 5xx.
func TestOperatorBadInputGets400(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	data, metrics := env.Base(t), env.Metrics(t)
	cases := []struct {
		name, method, url, body string
		status                  int
		mentions                string
	}{
		{"unknown network", "GET", data + "/v1/networks/moonnet/blockchains/p-chain/transactions?addresses=P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", "", 400, "network"},
		{"another network", "GET", data + "/v1/networks/mainnet/blockchains/p-chain/transactions", "", 400, "local"},
		{"wrong chain for staking", "GET", data + "/v1/networks/local/blockchains/x-chain/transactions:listStaking?addresses=P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", "", 400, "blockchainId"},
		{"wrong chain for vertices", "GET", data + "/v1/networks/local/blockchains/c-chain/vertices", "", 400, "blockchainId"},
		{"unknown EVM chain", "GET", data + "/v1/chains/999999/addresses/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC/transactions", "", 400, "chainId"},
		{"unknown metrics chain", "GET", metrics + "/v1/avg_tps/not-a-chain", "", 400, "chainId"},
		{"pageSize 0", "GET", metrics + "/v1/avg_tps/43112?pageSize=0", "", 400, "pageSize"},
		{"pageSize 101", "GET", metrics + "/v1/avg_tps/43112?pageSize=101", "", 400, "pageSize"},
		{"pageSize 0 on data API", "GET", data + "/v1/networks/local/blockchains/p-chain/transactions?pageSize=0", "", 400, "pageSize"},
		{"pageSize 101 on data API", "GET", data + "/v1/chains/43112/addresses/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC/transactions?pageSize=101", "", 400, "pageSize"},
		{"forged page token", "GET", metrics + "/v1/avg_tps/43112?pageToken=eyJ2IjoxLCJwb3MiOjF9.AAAA", "", 400, "pageToken"},
		{"garbage page token", "GET", metrics + "/v1/avg_tps/p-chain?pageToken=%00%01", "", 400, "pageToken"},
		{"bad sortOrder", "GET", data + "/v1/networks/local/blockchains/p-chain/transactions?sortOrder=sideways", "", 400, "sortOrder"},
		{"negative timestamp", "GET", data + "/v1/networks/local/blockchains/p-chain/transactions?startTimestamp=-5", "", 400, "startTimestamp"},
		{"malformed JSON body", "POST", data + "/v1/signatureAggregator/local/aggregateSignatures", `{"message": "0x12",`, 400, "JSON"},
		{"unknown route", "GET", data + "/v1/nothing-here", "", 404, ""},
		{"newline in a path segment", "GET", data + "/v1/chains/43112/addresses/%0A/transactions", "", 400, "address"},
		{"newline in an unknown path", "GET", data + "/v1/%0Anothing", "", 404, ""},
		{"carriage return in a path segment", "GET", data + "/v1/chains/43112/addresses/%0D/transactions", "", 400, "address"},
		{"NUL in a path segment", "GET", data + "/v1/chains/43112/addresses/%00/transactions", "", 400, "address"},
		{"control characters on the metrics service", "GET", metrics + "/v1/avg_tps/%0A%09%7F", "", 400, "chainId"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			header := map[string]string{}
			if c.body != "" {
				header["Content-Type"] = "application/json"
			}
			r := harness.Do(t, ctx, c.method, c.url, []byte(c.body), header)
			harness.RequireErrorBody(t, r, c.status, c.mentions)
		})
	}
}

// TestOperatorJSONRPCInvalidRequests checks bodies that are JSON but no request
// object (null, an object without method, a string, an array, a number) get
// a JSON-RPC "invalid request" error, not an empty reply.
func TestOperatorJSONRPCInvalidRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, body := range []string{`null`, `{}`, `{"jsonrpc":"2.0","id":1}`, `"avadata.status"`, `[]`,
		`[{"jsonrpc":"2.0","method":"avadata.status","id":1}]`, `42`} {
		r := harness.Do(t, ctx, http.MethodPost, env.Base(t)+"/rpc", []byte(body), map[string]string{"Content-Type": "application/json"})
		var reply struct {
			JSONRPC string `json:"jsonrpc"`
			Error   struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &reply), "%s: body %q", body, r.Body)
		require.Equal(t, "2.0", reply.JSONRPC, body)
		require.Equal(t, -32600, reply.Error.Code, "%s: %s", body, r.Body)
	}
}

// TestOperatorMalformedJSONRPC checks the JSON-RPC service answers malformed JSON
// with a JSON-RPC parse error, not a 5xx.
func TestOperatorMalformedJSONRPC(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := harness.Do(t, ctx, http.MethodPost, env.Base(t)+"/rpc", []byte(`{"jsonrpc":"2.0","method":`),
		map[string]string{"Content-Type": "application/json"})
	require.Less(t, r.Status, 500, "body: %s", r.Body)
	var body struct {
		Error struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body), "body: %s", r.Body)
	require.Equal(t, -32700, body.Error.Code, "body: %s", r.Body)
}
