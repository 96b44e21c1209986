package primary

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

// While the C-chain's index starts above genesis its atomic memory cannot
// be derived (imports before it are unknown): its UTXOs and balances are
// refused naming the first indexed block; the P- and X-chain still answer.
func TestCChainAtomicMemoryRefusedWhileItsHistoryIsPartial(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	fakes.Primary.CHistoryFrom = 812
	srv := newTestAPI(t, handlertest.Config(), fakes)
	for _, path := range []string{
		cUTXOsPath + "?addresses=C-" + alice(t),
		cUTXOsPath + "?addresses=" + alice(t) + "&includeSpent=true",
		cBalancesPath + "?addresses=" + handlertest.EVMAddr,
	} {
		handlertest.RequireDataError(t, srv.Get(t, path), http.StatusBadRequest,
			"C-chain history in this node's index starts at block 812", "avax.getUTXOs with sourceChain", "set indexFrom")
	}
	require.Len(t, listedUTXOs(t, srv, xUTXOsPath+"?addresses="+alice(t)), 3)
	srv.GetBody(t, pBalancesPath+"?addresses="+alice(t))
}

// C-chain atomic txs before its first indexed block are unknown: a time
// range reaching before it is refused; from its time on it answers.
func TestCChainAtomicTxsTimeRangeBeforeItsHistory(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	fakes.Primary.CHistoryFrom = 100 // the fixtures' C-chain import is in block 100
	srv := newTestAPI(t, handlertest.Config(), fakes)
	early := strconv.FormatInt(handlertest.BlockTime(99), 10)
	addrs := "?addresses=" + handlertest.EVMAddr
	for _, q := range []string{addrs + "&startTimestamp=" + early, addrs + "&endTimestamp=" + early} {
		handlertest.RequireDataError(t, srv.Get(t, cTxsPath+q), http.StatusBadRequest,
			"C-chain history in this node's index starts at block 100", "is before that block's time")
	}
	body := srv.GetBody(t, cTxsPath+addrs+"&startTimestamp="+strconv.FormatInt(handlertest.BlockTime(100), 10))
	require.Len(t, body["transactions"], 2, "the import in block 100 and the export in block 101")
	require.Len(t, srv.GetBody(t, cTxsPath+addrs)["transactions"], 2, "without bounds the listing ends at the first block")
}

// Every C-chain reply says where its history starts; P and X replies do not.
func TestCChainRepliesCarryTheHistoryHeader(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	fakes.Primary.CHistoryFrom = 100
	srv := newTestAPI(t, handlertest.Config(), fakes)
	c := srv.Get(t, cTxsPath+"?addresses="+handlertest.EVMAddr)
	require.Equal(t, http.StatusOK, c.Code)
	require.Equal(t, "100", c.Header().Get(api.HeaderHistoryFrom))
	x := srv.Get(t, xUTXOsPath+"?addresses="+alice(t))
	require.Equal(t, http.StatusOK, x.Code)
	require.Empty(t, x.Header().Get(api.HeaderHistoryFrom))
}

func TestCChainAtomicTxNotFoundWhileItsHistoryIsPartial(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	fakes.Primary.CHistoryFrom = 100
	srv := newTestAPI(t, handlertest.Config(), fakes)
	unknown := handlertest.FixtureTxID(netinfo.C, 7).String()
	handlertest.RequireDataError(t, srv.Get(t, cTxsPath+"/"+unknown), http.StatusNotFound,
		"C-chain history in this node's index starts at block 100", "transaction "+unknown+" not found on the c-chain",
		"it may be in an earlier block")
	handlertest.RequireDataError(t, srv.Get(t, pTxsPath+"/"+unknown), http.StatusNotFound, "not found on the p-chain")
}
