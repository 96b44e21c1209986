package e2e

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"
)

// TestPrimaryBadInput: requests to endpoints 4, 7 and 14 that the spec
// rules out get a 400 with the spec's error body (message, error,
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
		{"fuji address on P txs", primaryURL("p-chain", "transactions", q("addresses", "P-"+fuji)), "addresses"},
		{"mainnet address on X txs", primaryURL("x-chain", "transactions", q("addresses", "X-"+mainnet)), "addresses"},
		{"fuji address on X balances", primaryURL("x-chain", "balances", q("addresses", fuji)), "addresses"},
		{"mainnet address on C balances", primaryURL("c-chain", "balances", q("addresses", mainnet)), "addresses"},
		{"EVM address on P txs", primaryURL("p-chain", "transactions", q("addresses", s.evm.Hex())), "addresses"},
		{"EVM address on X balances", primaryURL("x-chain", "balances", q("addresses", s.evm.Hex())), "addresses"},
		// The wrong chain: another network's chain ID, a filter the chain
		// does not have.
		{"fuji X-chain ID for txs", primaryURL(fujiX, "transactions", q("addresses", a)), "blockchainId"},
		{"mainnet C-chain ID for balances", primaryURL(mainnetC, "balances", q("addresses", a)), "blockchainId"},
		{"mainnet C-chain ID for blocks", primaryURL(mainnetC, "nodes/NodeID-111111111111111111116DBWJs/blocks", nil), "blockchainId"},
		{"unknown chain for txs", primaryURL("d-chain", "transactions", nil), "blockchainId"},
		{"l1ValidationId on X", primaryURL("x-chain", "transactions",
			q("l1ValidationId", "2mGBT8Sb8fRiEMjPSTbFMhPX1ZTGqe5ZtWu3ozcaYPiPbaUgUr")), "l1ValidationId"},
		// Filters that need an address filter (rule 1).
		{"txTypes without addresses", primaryURL("x-chain", "transactions", q("txTypes", "BaseTx")), "txTypes"},
		{"startTimestamp without addresses", primaryURL("p-chain", "transactions", q("startTimestamp", "1")), "startTimestamp"},
		{"endTimestamp without addresses", primaryURL("c-chain", "transactions", q("endTimestamp", "9999999999")), "endTimestamp"},
		// Malformed values.
		{"unknown txType", primaryURL("p-chain", "transactions", q("addresses", a, "txTypes", "TeleportTx")), "txTypes"},
		{"negative blockTimestamp", primaryURL("p-chain", "balances", q("addresses", a, "blockTimestamp", "-1")), "blockTimestamp"},
		{"text blockTimestamp", primaryURL("x-chain", "balances", q("addresses", a, "blockTimestamp", "yesterday")), "blockTimestamp"},
		{"pageSize 0 on blocks", primaryURL("p-chain", "nodes/NodeID-111111111111111111116DBWJs/blocks", q("pageSize", "0")), "pageSize"},
		{"start after end on blocks", primaryURL("x-chain", "nodes/NodeID-111111111111111111116DBWJs/blocks",
			q("startTimestamp", "200", "endTimestamp", "100")), "Timestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evmGet(t, ctx, c.url)
			requireErrorBody(t, r, http.StatusBadRequest, c.mentions)
		})
	}
}
