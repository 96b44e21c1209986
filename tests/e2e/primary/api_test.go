package primary

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// primaryNetwork is the {network} path value of the local network: the
// node's network name, as handlers/api/chains.go resolves it.
const primaryNetwork = "local"

// primaryIndexTimeout bounds waiting for avadata to index the scenario.
const primaryIndexTimeout = 2 * time.Minute

// primaryURL builds /v1/networks/local/blockchains/{chain}/{rest}?{q} on
// the shared network.
func primaryURL(t testing.TB, chain, rest string, q url.Values) string {
	u := env.Base(t) + "/v1/networks/" + primaryNetwork + "/blockchains/" + chain + "/" + rest
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// chainAlias maps "P"/"X"/"C" to the Data API alias.
func chainAlias(chain string) string {
	return map[string]string{"P": "p-chain", "X": "x-chain", "C": "c-chain"}[chain]
}

// listPrimaryTxs pages through listLatestPrimaryNetworkTransactions with q
// (pageToken added per page) and returns every item in order, failing on a
// repeated txHash.
func listPrimaryTxs(t *testing.T, ctx context.Context, chain string, q url.Values) []dataapi.PrimaryTx {
	t.Helper()
	var all []dataapi.PrimaryTx
	seen := map[string]bool{}
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s transactions: paging does not end", chain)
		var page dataapi.TxPage
		harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), "transactions", q), &page)
		require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, page.ChainInfo, "%s chainInfo", chain)
		for _, tx := range page.Transactions {
			require.False(t, seen[tx.TxHash], "%s transactions %v: %s repeated across pages", chain, q, tx.TxHash)
			seen[tx.TxHash] = true
			all = append(all, tx)
		}
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

// listBlocksByNode pages through listPrimaryNetworkBlocksByNodeId.
func listBlocksByNode(t *testing.T, ctx context.Context, chain, nodeID string, q url.Values) []dataapi.Block {
	t.Helper()
	var all []dataapi.Block
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s blocks: paging does not end", chain)
		var page dataapi.BlockPage
		harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), "nodes/"+nodeID+"/blocks", q), &page)
		require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, page.ChainInfo, "%s chainInfo", chain)
		all = append(all, page.Blocks...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// waitPrimaryIndexed waits until avadata has indexed P, X and C up to the
// node's current heights, which hold every scenario tx.
func waitPrimaryIndexed(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, primaryIndexTimeout)
	defer cancel()
	heights := map[string]uint64{}
	for _, c := range []string{"P", "X", "C"} {
		heights[c] = truth.Height(t, ctx, env.URI(t), c)
	}
	harness.WaitIndexed(t, ctx, env.Base(t), heights)
}

// primaryFixture is the scenario, indexed.
func primaryFixture(t *testing.T) (*primaryScenario, context.Context) {
	t.Helper()
	s := primaryScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	waitPrimaryIndexed(t, ctx)
	return s, ctx
}

// requireStatus GETs u and requires status code want, returning the reply.
func requireStatus(t *testing.T, ctx context.Context, u string, want int) harness.Reply {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, u)
	require.Equal(t, want, r.Status, "GET %s: %s", u, r.Body)
	return r
}
