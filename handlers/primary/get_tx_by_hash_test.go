package primary

import (
	"errors"
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TestGetTxByHashShapesAsTheListing: every fixture tx of P, X and C, read by
// its hash, is the very object the chain's transactions listing shows.
func TestGetTxByHashShapesAsTheListing(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	for chain, path := range map[netinfo.Chain]string{netinfo.P: pTxsPath, netinfo.X: xTxsPath, netinfo.C: cTxsPath} {
		listed := txsByHash(t, srv.GetBody(t, path+"?pageSize=100"))
		require.NotEmpty(t, listed, "%s", chain)
		for hash, want := range listed {
			got := srv.GetBody(t, path+"/"+hash)
			require.Equal(t, want, got, "%s tx %s by hash", chain, hash)
		}
	}
}

func TestGetTxByHashErrors(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, handlertest.Config(), fakes)
	xTx := handlertest.FixtureTxID(netinfo.X, 2).String()
	handlertest.RequireDataError(t, srv.Get(t, pTxsPath+"/"+xTx), http.StatusNotFound, xTx, "p-chain", "x-chain transaction")
	unknown := ids.ID{'n', 'o'}.String()
	handlertest.RequireDataError(t, srv.Get(t, cTxsPath+"/"+unknown), http.StatusNotFound, unknown, "not found on the c-chain")
	handlertest.RequireDataError(t, srv.Get(t, xTxsPath+"/not-a-tx-id"), http.StatusBadRequest, "txHash", "not-a-tx-id")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/local/blockchains/d-chain/transactions/"+xTx),
		http.StatusBadRequest, "blockchainId")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/fuji/blockchains/x-chain/transactions/"+xTx),
		http.StatusBadRequest, "network")

	fakes.Primary.Err = errors.New("disk on fire")
	rec := srv.Get(t, xTxsPath+"/"+xTx)
	require.Equal(t, http.StatusInternalServerError, rec.Code)
	require.NotContains(t, rec.Body.String(), "disk on fire", "internal details stay in the log")
}

// TestGetDAGTxByHash: a tx of the pre-Cortina DAG is its
// XChainNonLinearTransaction, as the listing shows it.
func TestGetDAGTxByHash(t *testing.T) {
	backend := handlertest.NewFakes()
	dag, linear, _ := withDAGTxs(backend)
	srv := newTestAPI(t, handlertest.Config(), backend)
	listed := txsByHash(t, srv.GetBody(t, xTxsPath+"?addresses=X-"+handlertest.Bech32Of(t, handlertest.PAlice)))
	got := srv.GetBody(t, xTxsPath+"/"+dag.String())
	requireKeys(t, got, xNonLinearRequired...)
	require.Equal(t, "non-linear", got["chainFormat"])
	require.Equal(t, listed[dag.String()], got)
	require.Equal(t, listed[linear.String()], srv.GetBody(t, xTxsPath+"/"+linear.String()))
}
