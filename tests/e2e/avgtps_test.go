package e2e

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestAvgTPSMatchesNodeBlocks issues real X, P and C transactions, then
// checks that avadata's daily average TPS of every chain equals what the
// node's own blocks (tx counts and timestamps, read over the node's JSON
// APIs) give.
func TestAvgTPSMatchesNodeBlocks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	issuer := newTxIssuer(t, ctx, env.uri)
	issuer.issueX(t, ctx, 5)
	issuer.issueP(t, ctx, 4)
	issuer.issueC(t, ctx, 3)

	chains := map[string]string{"P": "p-chain", "X": "x-chain", "C": "43112"}
	heights := map[string]uint64{}
	for chain := range chains {
		heights[chain] = nodeHeight(t, ctx, env.uri, chain)
		require.NotZero(t, heights[chain], "%s-chain has no blocks", chain)
	}
	waitIndexed(t, ctx, env.base, heights)

	for chain, id := range chains {
		t.Run(chain, func(t *testing.T) {
			want := expectedTPS(nodeBlocks(t, ctx, env.uri, chain, heights[chain]))
			r := get(t, ctx, env.metrics+"/v1/avg_tps/"+id)
			require.Equal(t, http.StatusOK, r.status, "body: %s", r.body)
			require.Contains(t, r.header.Get("Content-Type"), "application/json")
			var body struct {
				Results       []tpsResult `json:"results"`
				Status        int         `json:"status"`
				LastRun       int64       `json:"lastRun"`
				NextPageToken *string     `json:"nextPageToken"`
			}
			r.decode(t, &body)
			require.Equal(t, http.StatusOK, body.Status)
			require.Nil(t, body.NextPageToken, "one page expected")
			require.Len(t, body.Results, len(want))
			for i := range want {
				require.Equal(t, want[i].Timestamp, body.Results[i].Timestamp)
				require.InDelta(t, want[i].Value, body.Results[i].Value, 1e-12, "day %d", want[i].Timestamp)
			}
			require.GreaterOrEqual(t, body.LastRun, body.Results[0].Timestamp)
			require.LessOrEqual(t, body.LastRun, time.Now().Unix())
		})
	}

	// The C-chain by its other names gives the same answer.
	var cChain struct {
		BlockchainID string `json:"blockchainID"`
	}
	require.NoError(t, callJSON(ctx, env.uri+"/ext/info", "info.getBlockchainID", map[string]string{"alias": "C"}, &cChain))
	byNumber := get(t, ctx, env.metrics+"/v1/avg_tps/43112")
	for _, name := range []string{"c-chain", cChain.BlockchainID} {
		r := get(t, ctx, env.metrics+"/v1/avg_tps/"+name)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", name, r.body)
		require.JSONEq(t, string(byNumber.body), string(r.body), name)
	}
}
