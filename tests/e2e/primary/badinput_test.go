package primary

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestPrimaryBadInput: requests to listLatestPrimaryNetworkTransactions,
// getBalancesByAddresses and listPrimaryNetworkBlocksByNodeId that the
// Data API rules out get a 400 with its error body (message, error,
// statusCode) naming what was wrong.
func TestPrimaryBadInput(t *testing.T) {
	s, ctx := primaryFixture(t)
	fuji, err := address.FormatBech32("fuji", s.addr.Bytes())
	require.NoError(t, err)
	mainnet, err := address.FormatBech32("avax", s.addr.Bytes())
	require.NoError(t, err)
	a := s.chainAddr(t, "P")
	const fujiX = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
	const mainnetC = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v
	}
	cases := []struct {
		name, url, mentions string
	}{
		// Addresses of another network, or of the wrong kind for the chain.
		{"fuji address on P txs", primaryURL(t, "p-chain", "transactions", q("addresses", "P-"+fuji)), "addresses"},
		{"mainnet address on X txs", primaryURL(t, "x-chain", "transactions", q("addresses", "X-"+mainnet)), "addresses"},
		{"fuji address on X balances", primaryURL(t, "x-chain", "balances", q("addresses", fuji)), "addresses"},
		{"mainnet address on C balances", primaryURL(t, "c-chain", "balances", q("addresses", mainnet)), "addresses"},
		{"EVM address on P txs", primaryURL(t, "p-chain", "transactions", q("addresses", s.evm.Hex())), "addresses"},
		{"EVM address on X balances", primaryURL(t, "x-chain", "balances", q("addresses", s.evm.Hex())), "addresses"},
		// The wrong chain: another network's chain ID, a filter the chain
		// does not have.
		{"fuji X-chain ID for txs", primaryURL(t, fujiX, "transactions", q("addresses", a)), "blockchainId"},
		{"mainnet C-chain ID for balances", primaryURL(t, mainnetC, "balances", q("addresses", a)), "blockchainId"},
		{"mainnet C-chain ID for blocks", primaryURL(t, mainnetC, "nodes/NodeID-111111111111111111116DBWJs/blocks", nil), "blockchainId"},
		{"unknown chain for txs", primaryURL(t, "d-chain", "transactions", nil), "blockchainId"},
		{"l1ValidationId on X", primaryURL(t, "x-chain", "transactions",
			q("l1ValidationId", "2mGBT8Sb8fRiEMjPSTbFMhPX1ZTGqe5ZtWu3ozcaYPiPbaUgUr")), "l1ValidationId"},
		// Filters that are only allowed with an address filter.
		{"txTypes without addresses", primaryURL(t, "x-chain", "transactions", q("txTypes", "BaseTx")), "txTypes"},
		{"startTimestamp without addresses", primaryURL(t, "p-chain", "transactions", q("startTimestamp", "1")), "startTimestamp"},
		{"endTimestamp without addresses", primaryURL(t, "c-chain", "transactions", q("endTimestamp", "9999999999")), "endTimestamp"},
		// Malformed values.
		{"unknown txType", primaryURL(t, "p-chain", "transactions", q("addresses", a, "txTypes", "TeleportTx")), "txTypes"},
		{"negative blockTimestamp", primaryURL(t, "p-chain", "balances", q("addresses", a, "blockTimestamp", "-1")), "blockTimestamp"},
		{"text blockTimestamp", primaryURL(t, "x-chain", "balances", q("addresses", a, "blockTimestamp", "yesterday")), "blockTimestamp"},
		{"pageSize 0 on blocks", primaryURL(t, "p-chain", "nodes/NodeID-111111111111111111116DBWJs/blocks", q("pageSize", "0")), "pageSize"},
		{"start after end on blocks", primaryURL(t, "x-chain", "nodes/NodeID-111111111111111111116DBWJs/blocks",
			q("startTimestamp", "200", "endTimestamp", "100")), "Timestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			harness.RequireErrorBody(t, r, http.StatusBadRequest, c.mentions)
		})
	}
}
