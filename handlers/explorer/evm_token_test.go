package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEVMTokenPageOfAnERC20(t *testing.T) {
	replies := evmAddressReplies(t)
	replies[testChain+"/tokens/"+testToken+"/transfers?pageSize=25"] = jsonOf(t, `{"transfers":[{"blockNumber":"4","blockTimestamp":1700000000,
		"txHash":"`+testTxHash+`","from":{"address":"`+testAddr+`"},"to":{"address":"`+testAddr+`"},"logIndex":0,"value":"2500000",
		"erc20Token":{"address":"`+testToken+`","name":"x","symbol":"y","decimals":6}}],"nextPageToken":"t2"}`)
	body := evmPage(t, Config{}, replies, "/evm/43112/token/"+testToken, http.StatusOK)
	require.Contains(t, body, `data-field="amount">2.5</td>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/tx/`+testTxHash+`"`)
	require.Contains(t, body, `<a rel="next" href="/ext/bc/data/explorer/evm/43112/token/`+testToken+`?page=t2">`)
	requireEscaped(t, body)

	body = evmPage(t, Config{}, replies, "/evm/43112/token/"+testToken+"?tab=holders", http.StatusOK)
	require.Contains(t, body, `id="no-holders"`)
	// An ERC-20 has no tokens tab.
	body = evmPage(t, Config{}, replies, "/evm/43112/token/"+testToken+"?tab=tokens", http.StatusBadRequest)
	require.Contains(t, body, "invalid tab &#39;tokens&#39;: this page has the tabs transfers, holders")
	require.NotContains(t, body, `id="no-holders"`)
}

func TestEVMTokenPageOfAnNFTCollection(t *testing.T) {
	c := testChain + "/addresses/" + testToken
	replies := fakeAPI{
		c: jsonOf(t, `{"address":"`+testToken+`","ercType":"ERC-721","name":"<script>alert(1)</script>","symbol":"\"><img src=x onerror=alert(1)>"}`),
		"/metrics/v2/chains/43112/contracts/" + testToken + "/nfts:listHolders?pageSize=25": jsonOf(t, `{"addresses":[{"address":"`+testAddr+`","sortKey":3}],
			"totalHolders":1,"totalTokens":3,"nextPageToken":"h2"}`),
		testChain + "/nfts/collections/" + testToken + "/tokens?pageSize=25": jsonOf(t, `{"tokens":[{"address":"`+testToken+`","tokenId":"77",
			"ownerAddress":"`+testAddr+`","tokenUri":"ipfs://x","metadata":{"name":"<script>alert(1)</script>"}}]}`),
	}
	// Reached as c-chain: the holders' metrics path takes the EVM chain id.
	replies["/v1/chains/c-chain/addresses/"+testToken] = replies[c]
	body := evmPage(t, Config{}, replies, "/evm/c-chain/token/"+testToken+"?tab=holders", http.StatusOK)
	require.Contains(t, body, `<td class="num" data-field="held">3</td>`)
	require.Contains(t, body, `1 holders of 3 tokens.`)
	require.Contains(t, body, `?page=h2&amp;tab=holders`)
	requireEscaped(t, body)

	body = evmPage(t, Config{}, replies, "/evm/43112/token/"+testToken+"?tab=tokens", http.StatusOK)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/nft/`+testToken+`/77"`)
	require.Contains(t, body, `<td class="mono">ipfs://x</td>`)
}
