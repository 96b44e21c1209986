package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// On an index built from getBlockByHeight (a node without --index-enabled)
// the proposer and vertex operations are refused with a 400 naming the
// flag; on one that misses the X-chain's DAG era so are X balances and
// UTXOs. The rest answers as before.
func TestWithoutIndexAPI(t *testing.T) {
	byNode := pBlocksPath + handlertest.NodeID + "/blocks"
	xByNode := "/v1/networks/local/blockchains/x-chain/nodes/" + handlertest.NodeID + "/blocks"
	const (
		vertices = "/v1/networks/local/blockchains/x-chain/vertices"
		vtxByH   = "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1"
		vtxByID  = "/v1/networks/local/blockchains/x-chain/vertices/3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP"
	)
	addr := handlertest.Bech32Of(t, handlertest.PAlice)
	xBalances := xBalancesPath + "?addresses=" + addr
	xUTXOs := xUTXOsPath + "?addresses=" + addr
	pBalances := pBalancesPath + "?addresses=" + addr

	refused := func(t *testing.T, srv *handlertest.API, path, says string) {
		t.Helper()
		rec := srv.Get(t, path)
		require.Equal(t, http.StatusBadRequest, rec.Code, "%s: %s", path, rec.Body.String())
		require.Contains(t, rec.Body.String(), "--index-enabled=true", path)
		require.Contains(t, rec.Body.String(), says, path)
	}
	served := func(t *testing.T, srv *handlertest.API, path string) {
		t.Helper()
		rec := srv.Get(t, path)
		require.Equal(t, http.StatusOK, rec.Code, "%s: %s", path, rec.Body.String())
	}

	t.Run("index API: as before", func(t *testing.T) {
		srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
		for _, p := range []string{byNode, vertices, vtxByH, xBalances, xUTXOs} {
			served(t, srv, p)
		}
	})
	t.Run("getBlockByHeight, no DAG era (a local network)", func(t *testing.T) {
		fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
		fakes.Primary.Sources = map[netinfo.Chain]pdata.ChainSource{
			netinfo.P: {ByHeight: true}, netinfo.X: {ByHeight: true},
		}
		srv := newTestAPI(t, handlertest.Config(), fakes)
		refused(t, srv, byNode, "the blocks a node proposed")
		refused(t, srv, xByNode, "X-chain")
		refused(t, srv, vertices, "X-chain vertices")
		refused(t, srv, vtxByH, "X-chain vertices")
		refused(t, srv, vtxByID, "X-chain vertices")
		for _, p := range []string{xBalances, xUTXOs, pBalances} {
			served(t, srv, p)
		}
	})
	t.Run("getBlockByHeight on a network with a DAG era", func(t *testing.T) {
		fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
		fakes.Primary.Sources = map[netinfo.Chain]pdata.ChainSource{
			netinfo.P: {ByHeight: true}, netinfo.X: {ByHeight: true, MissingDAG: true},
		}
		srv := newTestAPI(t, handlertest.Config(), fakes)
		refused(t, srv, xBalances, "DAG-era")
		refused(t, srv, xUTXOs, "DAG-era")
		served(t, srv, pBalances)

		// 404s say why the index may not hold the resource.
		unknown := ids.GenerateTestID().String()
		notFound(t, srv, "/v1/networks/local/blockchains/x-chain/transactions/"+unknown, "misses the DAG-era txs")
		notFound(t, srv, "/v1/networks/local/blockchains/x-chain/assets/"+unknown, "misses the DAG-era txs")
		notFound(t, srv, "/v1/networks/local/blockchains/p-chain/blocks/"+unknown, "platform.getBlock")
	})
	t.Run("index API: 404s as before", func(t *testing.T) {
		srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
		rec := srv.Get(t, "/v1/networks/local/blockchains/p-chain/blocks/"+ids.GenerateTestID().String())
		require.Equal(t, http.StatusNotFound, rec.Code)
		require.NotContains(t, rec.Body.String(), "index API")
	})
}

func notFound(t *testing.T, srv *handlertest.API, path, says string) {
	t.Helper()
	rec := srv.Get(t, path)
	require.Equal(t, http.StatusNotFound, rec.Code, "%s: %s", path, rec.Body.String())
	require.Contains(t, rec.Body.String(), says, path)
}
