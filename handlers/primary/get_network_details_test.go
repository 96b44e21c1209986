package primary

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetNetworkDetails(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	fakes.Platform.State.Supply = 100_000_000_000_000
	srv := newTestAPI(t, handlertest.Config(), fakes)
	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, "/v1/networks/local"), http.StatusOK, &body)
	handlertest.RequireNoNulls(t, body)
	require.Equal(t, map[string]any{
		"validatorDetails": map[string]any{
			"validatorCount":               float64(2),
			"totalAmountStaked":            "9975000000000", // 2000 + 7975 AVAX
			"estimatedAnnualStakingReward": "5000000",       // the node's one potential reward; the fixtures' delegations have none
			"stakingDistributionByVersion": []any{},
			"stakingRatio":                 "0.1", // (9975 + 25) / 100000 AVAX
		},
		"delegatorDetails": map[string]any{"delegatorCount": float64(1), "totalAmountStaked": "25000000000"},
	}, body)
	require.Equal(t, http.StatusOK, srv.Get(t, "/v1/networks/testnet").Code)
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/mainnet"), http.StatusBadRequest, "network")

	calls := fakes.Platform.CallCount()
	srv.Get(t, "/v1/networks/local")
	require.Equal(t, calls, fakes.Platform.CallCount(), "the current validators are reused for a few seconds")

	fakes.Platform.Err = errors.New("node down")
	srv.Clock.Advance(liveSetTTL)
	handlertest.RequireDataError(t, srv.Get(t, "/v1/networks/local"), http.StatusServiceUnavailable, "current validators")
}
