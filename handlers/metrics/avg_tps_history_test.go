package metrics

import (
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

// On a chain indexed from above genesis the oldest day counts only the
// transactions from the first indexed block: it is left out, on whichever
// page it would fall.
func TestAvgTPSLeavesOutThePartialOldestDay(t *testing.T) {
	for _, size := range []string{"2", "3", "4", "10"} {
		backend := handlertest.NewFakes()
		newest := 19_700 * handlertest.Day
		backend.Buckets[netinfo.C] = handlertest.DailyBuckets(6, newest, 100)
		backend.EVM.SetHistoryFrom(netinfo.C, 812)
		srv := newTestAPI(t, handlertest.Config(), backend)

		var got []int64
		query := url.Values{"pageSize": {size}}
		for pages := 0; ; pages++ {
			require.Less(t, pages, 10)
			page := getAvgTPS(t, srv, "c-chain", query)
			for _, r := range page.Results {
				got = append(got, r.Timestamp)
			}
			if page.NextPageToken == nil {
				break
			}
			query = url.Values{"pageSize": {size}, "pageToken": {*page.NextPageToken}}
		}
		want := make([]int64, 5)
		for i := range want {
			want[i] = backend.Buckets[netinfo.C][i].Start
		}
		require.Equal(t, want, got, "pageSize %s: every day but the oldest, once", size)
		rec := srv.Get(t, "/ext/bc/data/metrics/v1/avg_tps/c-chain")
		require.Equal(t, "812", rec.Header().Get(api.HeaderHistoryFrom))
	}
}
