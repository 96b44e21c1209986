package primary

import (
	"context"
	"net/http"
	"net/url"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestPrimaryExplorerSearch types what a person pastes from the primary
// network into the explorer's search, in Chromium, and checks where each
// lands: the bech32 addresses, transaction IDs, asset, subnet, blockchain
// and L1 validation IDs the scenarios made (each accepted by the node,
// which the scenarios check), and the node's own ID (info.getNodeID). An
// ID that names both a transaction and what it created (an asset, a
// subnet, a blockchain) leads to the thing.
func TestPrimaryExplorerSearch(t *testing.T) {
	s := primaryScenarioFixture(t)
	l1 := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	waitPrimaryIndexed(t, ctx)
	root := env.Base(t) + "/explorer"
	b := harness.NewBrowser(t, env.URI(t))

	first := func(chain string, skip ...string) string {
		t.Helper()
	txs:
		for _, tx := range s.txsOn(chain, false) {
			for _, sk := range skip {
				if tx.txType == sk {
					continue txs
				}
			}
			return tx.id.String()
		}
		require.Fail(t, "no "+chain+" tx in the scenario")
		return ""
	}
	pTx, xTx, cTx := first("P"), first("X", "CreateAssetTx"), first("C")
	node := nodeID(t, ctx).String()
	cases := []struct{ what, q, path string }{
		{"P address", s.chainAddr(t, "P"), "/p-chain/address/" + s.chainAddr(t, "P")},
		{"X address", s.chainAddr(t, "X"), "/x-chain/address/" + s.chainAddr(t, "X")},
		{"C address", s.chainAddr(t, "C"), "/c-chain/address/" + s.chainAddr(t, "C")},
		{"P tx", pTx, "/p-chain/tx/" + pTx},
		{"X tx", xTx, "/x-chain/tx/" + xTx},
		{"C atomic tx", cTx, "/c-chain/tx/" + cTx},
		{"node ID", node, "/validators/" + node},
		{"asset ID (its CreateAssetTx's)", s.asset.String(), "/x-chain/asset/" + s.asset.String()},
		{"subnet ID (its CreateSubnetTx's)", l1.subnetID.String(), "/subnets/" + l1.subnetID.String()},
		{"blockchain ID (its CreateChainTx's)", l1.chainID.String(), "/blockchains/" + l1.chainID.String()},
		{"L1 validation ID", l1.first.validationID.String(), "/l1-validators/" + l1.first.validationID.String()},
	}
	b.Open(t, root+"/")
	b.RequireClean(t)
	for i, c := range cases {
		if i == 0 {
			b.Submit(t, "form.search input", c.q) // the search box itself, once
		} else {
			b.Open(t, root+"/search?q="+url.QueryEscape(c.q))
		}
		require.Equal(t, root+c.path, b.Location(t), "search for the %s %s", c.what, c.q)
		// The page it lands on is served and names what was searched.
		require.EqualValues(t, http.StatusOK, b.Status(), "the page of the %s %s", c.what, c.q)
		require.Contains(t, strings.ToLower(b.Text(t, "main")), strings.ToLower(path.Base(c.path)), "the page of the %s", c.what)
		b.RequireClean(t)
	}

	// A bech32 address without its chain: on P or on X.
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/search?q="+url.QueryEscape(s.bech32(t))))
	b.RequireClean(t)
	base, err := url.Parse(root)
	require.NoError(t, err)
	links := b.Attrs(t, "#candidates tr.candidate a", "href")
	require.ElementsMatch(t, []string{
		base.Path + "/p-chain/address/" + s.chainAddr(t, "P"),
		base.Path + "/x-chain/address/" + s.chainAddr(t, "X"),
	}, links)
}
