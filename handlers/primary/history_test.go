package primary

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
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
