package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

const testNode = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"

func TestValidatorsPageShowsTheListAndTotalsAndEchoesItsFilters(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/validators?minFeePercentage=2.5&nodeIds=%3Cb%3E&pageSize=25&sortBy=delegationFee&validationStatus=active": jsonOf(t, `{
			"validators":[{"txHash":"2tx","nodeId":"`+testNode+`","subnetId":"11111111111111111111111111111111LpoYY",
			"amountStaked":"2000000000000","amountDelegated":"350000000000","delegationFee":"20.0","startTimestamp":1700000000,
			"endTimestamp":1700000060,"validationStatus":"active","uptimePerformance":99.5,"delegationCapacity":"1000000000"}],
			"nextPageToken":"tok<1>"}`),
		"/v1/networks/local": jsonOf(t, `{"validatorDetails":{"validatorCount":5,"totalAmountStaked":"10000000000000000",
			"estimatedAnnualStakingReward":"123","stakingDistributionByVersion":[],"stakingRatio":"0.5"},
			"delegatorDetails":{"delegatorCount":2,"totalAmountStaked":"125000000000"}}`),
	}, nil)
	rec := getPage(t, h, "/validators?nodeIds=%3Cb%3E&validationStatus=active&minFeePercentage=2.5&sortBy=delegationFee&maxUptimePerformance=")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `href="/ext/bc/data/explorer/validators/`+testNode+`"`)
	require.Contains(t, body, `<td class="num" data-field="amountStaked">2000</td>`)
	require.Contains(t, body, `<td class="num" data-field="amountDelegated">350</td>`)
	require.Contains(t, body, `Primary Network`)
	require.Contains(t, body, `<div data-field="validatorCount">5</div>`)
	require.Contains(t, body, `<div data-field="validatorStake">10000000 AVAX</div>`)
	require.Contains(t, body, `<div data-field="delegatorStake">125 AVAX</div>`)
	// The form echoes the filters, escaped; selects keep their choice.
	require.Contains(t, body, `name="nodeIds" value="&lt;b&gt;"`)
	require.NotContains(t, body, "<b>")
	require.Contains(t, body, `name="minFeePercentage" inputmode="decimal" value="2.5"`)
	require.Contains(t, body, `<option selected>active</option>`)
	require.Contains(t, body, `<option selected>delegationFee</option>`)
	// The next page keeps the filters.
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/validators?maxUptimePerformance=&amp;minFeePercentage=2.5&amp;nodeIds=%3Cb%3E&amp;page=tok%3C1%3E&amp;sortBy=delegationFee&amp;validationStatus=active"`)
}

func TestValidatorsPageShowsTheAPIsBadRequest(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/validators?minFeePercentage=1&pageSize=25": &api.Error{Status: http.StatusBadRequest,
			Message: "invalid minFeePercentage '1': must be a number (percent) between 2 and 100"},
		"/v1/networks/local": jsonOf(t, `{}`),
	}, nil)
	rec := getPage(t, h, "/validators?minFeePercentage=1")
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, rec.Body.String(), "invalid minFeePercentage &#39;1&#39;: must be a number (percent) between 2 and 100")
}

func TestValidatorsPageWithoutTheNodesTotals(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/validators?pageSize=25": jsonOf(t, `{"validators":[]}`),
		"/v1/networks/local":                        &api.Error{Status: http.StatusServiceUnavailable, Message: "the node's current validators cannot be read"},
	}, nil)
	rec := getPage(t, h, "/validators")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, "The node's totals are not available: the node&#39;s current validators cannot be read")
	require.Contains(t, body, "No validation matches.")
	require.NotContains(t, body, `rel="next"`)
}
