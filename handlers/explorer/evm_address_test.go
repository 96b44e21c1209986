package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// evmAddressReplies are an address's balance and contract metadata (a
// hostile ERC-20) and its ERC-20 balances.
func evmAddressReplies(t *testing.T) fakeAPI {
	a := testChain + "/addresses/" + testToken
	return fakeAPI{
		a + "/balances:getNative": jsonOf(t, `{"nativeTokenBalance":{"name":"Avalanche","symbol":"AVAX","decimals":18,"chainId":"43112","balance":"1000000000000000001"}}`),
		a: jsonOf(t, `{"address":"`+testToken+`","ercType":"ERC-20","name":"<script>alert(1)</script>","symbol":"\"><img src=x onerror=alert(1)>",
			"decimals":6,"deploymentDetails":{"txHash":"`+testTxHash+`","deployerAddress":"`+testAddr+`"}}`),
		a + "/balances:listErc20?pageSize=25": jsonOf(t, `{"nativeTokenBalance":{},"erc20TokenBalances":[{"address":"`+testToken+`",
			"name":"<script>alert(1)</script>","symbol":"\"><img src=x onerror=alert(1)>","decimals":6,"balance":"10","ercType":"ERC-20"}],"nextPageToken":"b2"}`),
		a + "/transactions?pageSize=25": jsonOf(t, `{"transactions":[{"nativeTransaction":{"blockNumber":"3","txHash":"`+testTxHash+`","txStatus":"1",
			"value":"0","from":{"address":"`+testAddr+`"},"to":{"address":"`+testToken+`"},"method":{"callType":"CONTRACT_CALL","methodHash":"0x12345678"}},
			"erc20Transfers":[{}]}]}`),
	}
}

func TestEVMAddressPageOfAContract(t *testing.T) {
	body := evmPage(t, Config{}, evmAddressReplies(t), "/evm/43112/address/"+testToken+"?tab=tokens", http.StatusOK)
	require.Contains(t, body, `<span data-field="native-balance">1.000000000000000001</span> AVAX`)
	require.Contains(t, body, `<td data-field="ercType">ERC-20</td>`)
	require.Contains(t, body, `<td data-field="decimals">6</td>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/tx/`+testTxHash+`"`, "the deployment")
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/`+testAddr+`"`, "the deployer")
	require.Contains(t, body, `<td class="num" data-field="balance">0.00001</td>`)
	require.Contains(t, body, `aria-current="page" class="current">Token balances</a>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/`+testToken+`?page=b2&amp;tab=tokens"`)
	requireEscaped(t, body)

	body = evmPage(t, Config{}, evmAddressReplies(t), "/evm/43112/address/"+testToken, http.StatusOK)
	require.Contains(t, body, `ERC-20 ×1`)
	require.Contains(t, body, `>0x12345678</span>`, "a method without a name shows its selector")
}

func TestEVMAddressPageOfAnEOA(t *testing.T) {
	replies := evmAddressReplies(t)
	replies[testChain+"/addresses/"+testToken] = &api.Error{Status: http.StatusNotFound, Message: "not a contract"}
	body := evmPage(t, Config{}, replies, "/evm/43112/address/"+testToken, http.StatusOK)
	require.Contains(t, body, `<h1>Address <span class="mono" id="address">`+testToken+`</span>`)
	require.NotContains(t, body, `id="contract"`)

	replies[testChain+"/addresses/"+testToken+"/balances:getNative"] = &api.Error{Status: http.StatusBadRequest, Message: "invalid address"}
	evmPage(t, Config{}, replies, "/evm/43112/address/"+testToken, http.StatusBadRequest)
}
