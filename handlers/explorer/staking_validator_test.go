package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValidatorPageShowsItsValidations(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/validators/" + testNode + "?pageSize=10": jsonOf(t, `{"validators":[
			{"txHash":"2vtx","nodeId":"`+testNode+`","subnetId":"11111111111111111111111111111111LpoYY","amountStaked":"2000000000000",
			 "delegationFee":"20.0000","startTimestamp":1700000000,"endTimestamp":1700000060,"validationStatus":"completed",
			 "delegatorCount":2,"amountDelegated":"350000000000",
			 "rewards":{"validationRewardAmount":"1500","delegationRewardAmount":"250000000","rewardAddresses":["local1<i>"],"rewardTxHash":"2rtx"}},
			{"txHash":"2atx","nodeId":"`+testNode+`","subnetId":"11111111111111111111111111111111LpoYY","amountStaked":"1000000000",
			 "startTimestamp":1700000000,"endTimestamp":1800000000,"validationStatus":"active","uptimePerformance":99.5,
			 "potentialRewards":{"validationRewardAmount":"7","delegationRewardAmount":"0"}}],
			"nextPageToken":"n1"}`),
	}, nil)
	rec := getPage(t, h, "/validators/"+testNode)
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `<section class="validation" data-tx="2vtx" data-status="completed">`)
	require.Contains(t, body, `<td data-field="amountStaked">2000 AVAX</td>`)
	require.Contains(t, body, `<td data-field="validationReward">0.0000015 AVAX</td>`)
	require.Contains(t, body, `<td data-field="delegationReward">0.25 AVAX</td>`)
	require.Contains(t, body, `<td data-field="delegationFee">20.0000 %</td>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/p-chain/tx/2rtx"`)
	// The reward owner links to the one URL of its P-chain address page.
	require.Contains(t, body, `href="/ext/bc/data/explorer/p-chain/address/P-local1%3Ci%3E" data-address="local1&lt;i&gt;">local1&lt;i&gt;</a>`)
	require.Contains(t, body, `<td data-field="potentialValidationReward">0.000000007 AVAX</td>`)
	require.Contains(t, body, `<td data-field="uptimePerformance">99.5 %</td>`)
	require.Contains(t, body, `aria-current="page" class="current">Validations</a>`)
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/validators/`+testNode+`?page=n1"`)
}

func TestValidatorPageTabs(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/delegators?nodeIds=" + testNode + "&pageSize=25": jsonOf(t, `{"delegators":[
			{"txHash":"2dtx","nodeId":"`+testNode+`","rewardAddresses":["local1d"],"amountDelegated":"100000000000","delegationFee":"20",
			 "startTimestamp":1,"endTimestamp":2,"delegationStatus":"completed","grossReward":"125","netReward":"100"},
			{"txHash":"2etx","nodeId":"`+testNode+`","rewardAddresses":["local1e"],"amountDelegated":"250000000000","delegationFee":"20",
			 "startTimestamp":1,"endTimestamp":2,"delegationStatus":"active","estimatedGrossReward":"50","estimatedNetReward":"40"}]}`),
		"/v1/networks/local/rewards?nodeIds=" + testNode + "&pageSize=25": jsonOf(t, `{"historicalRewards":[
			{"addresses":["local1d"],"txHash":"2dtx","amountStaked":"100000000000","nodeId":"`+testNode+`","startTimestamp":1,"endTimestamp":2,
			 "rewardType":"DELEGATOR","utxoId":"2utxo","outputIndex":0,"reward":{"amount":"1000000000"},"rewardTxHash":"2rtx"}]}`),
		"/v1/networks/local/rewards:listPending?nodeIds=" + testNode + "&pageSize=25": jsonOf(t, `{"pendingRewards":[
			{"addresses":["local1e"],"txHash":"2etx","amountStaked":"250000000000","nodeId":"`+testNode+`","startTimestamp":1,"endTimestamp":2,
			 "rewardType":"DELEGATOR","progress":50,"estimatedReward":{"amount":"40"}}]}`),
		"/v1/networks/local/blockchains/p-chain/nodes/" + testNode + "/blocks?pageSize=25": jsonOf(t, `{"blocks":[
			{"blockNumber":"42","blockHash":"2bh","blockTimestamp":3,"blockType":"BanffStandardBlock","txCount":1}]}`),
	}, nil)
	body := getPage(t, h, "/validators/"+testNode+"?tab=delegators").Body.String()
	require.Contains(t, body, `<tr data-tx="2dtx">`)
	require.Contains(t, body, `<td class="num" data-field="amountDelegated">100</td>`)
	require.Contains(t, body, `<td class="num" data-field="netReward">0.0000001</td>`)
	require.Contains(t, body, `<td class="num" data-field="netReward">≈ 0.00000004</td>`)
	require.Contains(t, body, `class="mono delegator" href="/ext/bc/data/explorer/p-chain/tx/2dtx"`)

	body = getPage(t, h, "/validators/"+testNode+"?tab=rewards").Body.String()
	require.Contains(t, body, `<tr data-utxo="2utxo" data-staking-tx="2dtx">`)
	require.Contains(t, body, `<td class="num" data-field="amount">1</td>`)

	body = getPage(t, h, "/validators/"+testNode+"?tab=pending").Body.String()
	require.Contains(t, body, `<td class="num" data-field="estimatedReward">0.00000004</td>`)

	body = getPage(t, h, "/validators/"+testNode+"?tab=blocks").Body.String()
	require.Contains(t, body, `<a href="/ext/bc/data/explorer/p-chain/block/42">42</a>`)

	rec := getPage(t, h, "/validators/"+testNode+"?tab=%3Cx%3E")
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, rec.Body.String(), "invalid tab &#39;&lt;x&gt;&#39;")
}
