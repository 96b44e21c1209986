package metrics

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/metricdata"
)

type lookingGlassBody struct {
	NextPageToken *string `json:"nextPageToken"`
	Addresses     []struct {
		Addresses []string `json:"addresses"`
		SortKey   string   `json:"sortKey"`
	} `json:"addresses"`
}

func addressesFakes() *handlertest.Fakes {
	f := handlertest.NewFakes()
	f.StakeSeries.Series = map[ids.ID]metricdata.StakingSeries{constants.PrimaryNetworkID: {}, {'S'}: {}}
	v := func(subnet ids.ID, start, end int64, tx byte, addrs ...ids.ShortID) handlertest.FakeValidation {
		return handlertest.FakeValidation{Subnet: subnet, Start: start, End: end,
			ValidatorRewardAddresses: metricdata.ValidatorRewardAddresses{TxID: ids.ID{tx}, Start: start, Addresses: addrs}}
	}
	f.StakeSeries.Validations = []handlertest.FakeValidation{
		v(constants.PrimaryNetworkID, 100, 500, 1, ids.ShortID{1}),
		v(constants.PrimaryNetworkID, 200, 300, 2, ids.ShortID{2}, ids.ShortID{3}),
		v(constants.PrimaryNetworkID, 200, 900, 3, ids.ShortID{4}),
		v(constants.PrimaryNetworkID, 600, 900, 4, ids.ShortID{5}),
		v(ids.ID{'S'}, 100, 900, 5, ids.ShortID{6}),
	}
	return f
}

func getAddresses(t *testing.T, srv *handlertest.API, subnet string, q url.Values) lookingGlassBody {
	t.Helper()
	rec := srv.Get(t, "/ext/bc/data/metrics/v2/subnets/"+subnet+"/validators:getAddresses?"+q.Encode())
	var body lookingGlassBody
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	var raw map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &raw)
	handlertest.RequireNoNulls(t, raw)
	return body
}

func TestValidatorsByDateRange(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), addressesFakes())
	primary := constants.PrimaryNetworkID.String()
	pAddr := func(b byte) string {
		s, err := address.Format("P", "local", ids.ShortID{b}.Bytes())
		require.NoError(t, err)
		return s
	}

	body := getAddresses(t, srv, primary, url.Values{"startTimestamp": {"301"}, "endTimestamp": {"550"}, "network": {"testnet"}})
	require.Nil(t, body.NextPageToken)
	require.Len(t, body.Addresses, 2, "validations 1 and 3 overlap 301..550")
	require.Equal(t, []string{pAddr(1)}, body.Addresses[0].Addresses)
	require.Equal(t, "100", body.Addresses[0].SortKey)
	require.Equal(t, "200", body.Addresses[1].SortKey)

	// Paged one by one over everything: the SDK repeats the query with
	// pageToken.
	q := url.Values{"pageSize": {"1"}}
	var keys []string
	for page := 0; ; page++ {
		require.Less(t, page, 10)
		body := getAddresses(t, srv, primary, q)
		for _, a := range body.Addresses {
			keys = append(keys, a.SortKey)
		}
		if body.NextPageToken == nil {
			break
		}
		q.Set("pageToken", *body.NextPageToken)
	}
	require.Equal(t, []string{"100", "200", "200", "600"}, keys)

	body = getAddresses(t, srv, ids.ID{'S'}.String(), url.Values{})
	require.Len(t, body.Addresses, 1)
	require.Equal(t, []string{pAddr(6)}, body.Addresses[0].Addresses)
}

func TestValidatorsByDateRangeErrors(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), addressesFakes())
	base := "/ext/bc/data/metrics/v2/subnets/"
	primary := constants.PrimaryNetworkID.String()
	for _, tt := range []struct {
		name, path string
		status     int
		fragment   string
	}{
		{"bad subnet", base + "xyz/validators:getAddresses", 400, "invalid subnetId 'xyz'"},
		{"unknown subnet", base + ids.ID{'?'}.String() + "/validators:getAddresses", 404, "not found"},
		{"another network", base + primary + "/validators:getAddresses?network=mainnet", 400, "this node serves network 'local'"},
		{"page size", base + primary + "/validators:getAddresses?pageSize=5001", 400, "pageSize"},
		{"inverted", base + primary + "/validators:getAddresses?startTimestamp=9&endTimestamp=2", 400, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			handlertest.RequireMetricsError(t, srv.Get(t, tt.path), tt.status, tt.fragment)
		})
	}
}
