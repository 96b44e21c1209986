package primary

import (
	"testing"

	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestListSubnetsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, registryListRouteCases("subnets"))
}

// Subnets page in creation order both ways, one at a time, to the end;
// a token does not resume the other order.
func TestListSubnetsPages(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	asc := []string{constants.PrimaryNetworkID.String(), testL1Subnet.String(), testPlainSubnet.String()}
	require.Equal(t, asc, pageAll(t, srv, "/v1/networks/local/subnets?pageSize=1&sortOrder=asc", "subnets", "subnetId"))
	desc := []string{asc[2], asc[1], asc[0]}
	require.Equal(t, desc, pageAll(t, srv, "/v1/networks/local/subnets?pageSize=1", "subnets", "subnetId"))
	require.Equal(t, desc, pageAll(t, srv, "/v1/networks/local/subnets?pageSize=2&sortOrder=desc", "subnets", "subnetId"))

	body := srv.GetBody(t, "/v1/networks/local/subnets?pageSize=1")
	rec := srv.Get(t, "/v1/networks/local/subnets?pageSize=1&sortOrder=asc&pageToken="+body["nextPageToken"].(string))
	handlertest.RequireDataError(t, rec, 400, "pageToken")
}
