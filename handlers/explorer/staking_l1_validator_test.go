package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestL1ValidatorPage(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/l1Validators?includeInactiveL1Validators=true&l1ValidationId=2val": jsonOf(t, `{"validators":[
			{"validationId":"2val","validationIdHex":"0xab","nodeId":"NodeID-A","subnetId":"`+testSubnet+`","weight":100,
			 "remainingBalance":0,"creationTimestamp":4,"blsCredentials":{},
			 "remainingBalanceOwner":{"addresses":["local1own"],"threshold":1},"deactivationOwner":{"addresses":["local1own"],"threshold":1}}],
			"blockHeight":"20"}`),
		"/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=2val&pageSize=25": jsonOf(t, `{"transactions":[
			{"txHash":"2dis","txType":"DisableL1ValidatorTx","blockNumber":"12","blockTimestamp":5},
			{"txHash":"2conv","txType":"ConvertSubnetToL1Tx","blockNumber":"10","blockTimestamp":4}],"nextPageToken":"t2"}`),
		"/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=2val&pageSize=1&sortOrder=asc": jsonOf(t, `{"transactions":[
			{"txHash":"2conv","txType":"ConvertSubnetToL1Tx","blockNumber":"10","blockTimestamp":4}]}`),
	}, nil)
	rec := getPage(t, h, "/l1-validators/2val")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `data-status="inactive">inactive</span>`)
	require.Contains(t, body, `<td class="mono" data-field="nodeId">NodeID-A</td>`)
	require.Contains(t, body, `<td data-field="remainingBalance">0 AVAX`)
	require.Contains(t, body, `id="creation-tx" href="/ext/bc/data/explorer/p-chain/tx/2conv"`)
	require.Contains(t, body, `<tr data-tx="2dis">`)
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/l1-validators/2val?page=t2"`)
}

func TestL1ValidatorPageNotFound(t *testing.T) {
	empty := `{"transactions":[]}`
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/l1Validators?includeInactiveL1Validators=true&l1ValidationId=2val":             jsonOf(t, `{"validators":[],"blockHeight":"1"}`),
		"/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=2val&pageSize=25":              jsonOf(t, empty),
		"/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=2val&pageSize=1&sortOrder=asc": jsonOf(t, empty),
	}, nil)
	rec := getPage(t, h, "/l1-validators/2val")
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Body.String(), "L1 validation 2val not found")
}
