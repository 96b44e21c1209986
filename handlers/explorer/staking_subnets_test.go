package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

const testSubnet = "2bRCr6B4MiEfSjidDwxDpdCyviwnfUVqB2HGwhm947w9YYqb7r"

func TestSubnetsPageListsSubnetsWithTheirChains(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/subnets?pageSize=25": jsonOf(t, `{"subnets":[
			{"subnetId":"11111111111111111111111111111111LpoYY","isL1":false,"createBlockIndex":"0","createBlockTimestamp":1,
			 "subnetOwnershipInfo":{"addresses":[],"threshold":0,"locktime":0},"blockchains":[{"blockchainId":"2q9e","blockchainName":"X-Chain"}]},
			{"subnetId":"`+testSubnet+`","isL1":true,"createBlockIndex":"9","createBlockTimestamp":2,
			 "subnetOwnershipInfo":{"addresses":["local1own"],"threshold":1,"locktime":0},
			 "blockchains":[{"blockchainId":"2chain","blockchainName":"<script>alert(1)</script>"}]}],
			"nextPageToken":"s2"}`),
	}, nil)
	rec := getPage(t, h, "/subnets")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `<tr data-subnet="`+testSubnet+`">`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/subnets/`+testSubnet+`">`+testSubnet+`</a>`)
	require.Contains(t, body, `>Primary Network</a>`)
	require.Contains(t, body, `<td data-field="kind"><span class="badge ok">L1</span></td>`)
	require.Contains(t, body, `<span class="muted">(1 of 1)</span>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/blockchains/2chain" title="2chain">&lt;script&gt;alert(1)&lt;/script&gt;</a>`)
	require.NotContains(t, body, "<script>")
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/subnets?page=s2"`)
}

func TestSubnetPageOfAnL1(t *testing.T) {
	subnet := `{"subnetId":"` + testSubnet + `","isL1":true,"createBlockIndex":"9","createBlockTimestamp":2,
		"subnetOwnershipInfo":{"addresses":["local1own"],"threshold":1,"locktime":0},
		"l1ConversionTransactionHash":"2conv","l1ValidatorManagerDetails":{"blockchainId":"2mgr","contractAddress":"0xada0"},
		"blockchains":[{"blockchainId":"2chain","blockchainName":"mine","vmId":"vm1","subnetId":"` + testSubnet + `","createBlockTimestamp":3}]}`
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/subnets/" + testSubnet:                           jsonOf(t, subnet),
		"/v1/networks/local/l1Validators?pageSize=25&subnetId=" + testSubnet: jsonOf(t, `{"validators":[],"blockHeight":"20"}`),
		"/v1/networks/local/l1Validators?includeInactiveL1Validators=true&pageSize=25&subnetId=" + testSubnet: jsonOf(t, `{"validators":[
			{"validationId":"2val","nodeId":"NodeID-A","subnetId":"`+testSubnet+`","weight":100,"remainingBalance":1500000000,"creationTimestamp":4}],
			"blockHeight":"20"}`),
		"/v1/networks/local/validators?pageSize=25&subnetId=" + testSubnet: jsonOf(t, `{"validators":[]}`),
	}, nil)
	rec := getPage(t, h, "/subnets/"+testSubnet)
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `id="conversion-tx" href="/ext/bc/data/explorer/p-chain/tx/2conv"`)
	require.Contains(t, body, `id="manager-chain" href="/ext/bc/data/explorer/blockchains/2mgr"`)
	require.Contains(t, body, `<tr data-blockchain="2chain">`)
	require.Contains(t, body, `aria-current="page" class="current">L1 validators</a>`)
	require.Contains(t, body, `No L1 validator is active.`)
	require.Contains(t, body, `id="toggle-inactive" href="/ext/bc/data/explorer/subnets/`+testSubnet+`?includeInactiveL1Validators=true"`)

	body = getPage(t, h, "/subnets/"+testSubnet+"?includeInactiveL1Validators=true").Body.String()
	require.Contains(t, body, `href="/ext/bc/data/explorer/l1-validators/2val"`)
	require.Contains(t, body, `<td class="num" data-field="remainingBalance">1.5</td>`)
	require.Contains(t, body, `<td class="num" data-field="weight">100</td>`)

	body = getPage(t, h, "/subnets/"+testSubnet+"?tab=validators").Body.String()
	require.Contains(t, body, `No validation of this subnet in the index.`)
}

func TestSubnetPageNotFound(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/subnets/" + testSubnet: &api.Error{Status: http.StatusNotFound, Message: "subnet not found"},
	}, nil)
	rec := getPage(t, h, "/subnets/"+testSubnet)
	require.Equal(t, http.StatusNotFound, rec.Code)
	require.Contains(t, rec.Body.String(), "subnet not found")
}
