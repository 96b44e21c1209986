package primary

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// listValidators reads the validation rows once per indexed P-chain height:
// again when the height moves (a new block may have added or ended
// validations), never while it stands.
func TestListValidatorsReadsRowsOncePerPHeight(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	rowReads := func() int {
		n := 0
		for _, q := range srv.Fakes.Staking.StakerQueries {
			if q.Bare && len(q.TxIDs) == 0 {
				n++
			}
		}
		return n
	}
	srv.Fakes.SetIndexedHeight(netinfo.P, 7)
	all := listValidators(t, srv, "pageSize=2")
	require.Equal(t, 1, rowReads(), "one read for every page at one height")
	require.Equal(t, all, listValidators(t, srv, "pageSize=1"))
	listValidators(t, srv, "validationStatus=active")
	require.Equal(t, 1, rowReads(), "and for every filter")

	// The next block's rows lack a validation: read again, it is gone.
	gone := slices.IndexFunc(srv.Fakes.Staking.StakerList, func(s pdata.IndexedStaker) bool { return !s.Staker.Delegator })
	require.GreaterOrEqual(t, gone, 0)
	goneTx := srv.Fakes.Staking.StakerList[gone].TxID.String()
	srv.Fakes.Staking.StakerList = slices.Delete(srv.Fakes.Staking.StakerList, gone, gone+1)
	require.Contains(t, listValidators(t, srv, "pageSize=100"), goneTx, "the same height: the rows read at it")
	srv.Fakes.SetIndexedHeight(netinfo.P, 8)
	require.NotContains(t, listValidators(t, srv, "pageSize=100"), goneTx)
	require.Equal(t, 2, rowReads())
}
