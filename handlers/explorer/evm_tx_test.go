package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// evmTxReply is a getTransaction reply with one transfer of each standard
// by a hostile token, and an internal transaction.
const evmTxReply = `{
 "nativeTransaction":{"blockNumber":"7","blockTimestamp":1700000000,"blockHash":"0xbb","chainId":"43112","blockIndex":0,
  "txHash":"` + testTxHash + `","txStatus":"1","txType":2,"gasLimit":"100000","gasUsed":"21000","gasPrice":"25000000001",
  "nonce":"3","from":{"address":"` + testAddr + `"},"to":{"address":"` + testToken + `","name":"` + `\u003cscript\u003ealert(1)\u003c/script\u003e` + `"},
  "method":{"callType":"CONTRACT_CALL","methodHash":"0xa9059cbb","methodName":"transfer(address,uint256)"},
  "value":"1500000000000000000","input":"0xa9059cbb","baseFeePerGas":"25000000000"},
 "networkTokenDetails":{"networkToken":{"name":"Avalanche","symbol":"AVAX","decimals":18}},
 "erc20Transfers":[{"from":{"address":"` + testAddr + `"},"to":{"address":"` + testToken + `"},"logIndex":0,"value":"1234500",
  "erc20Token":{"address":"` + testToken + `","name":"<script>alert(1)</script>","symbol":"\"><img src=x onerror=alert(1)>","decimals":6,"ercType":"ERC-20"}}],
 "erc721Transfers":[{"from":{"address":"` + testAddr + `"},"to":{"address":"` + testToken + `"},"logIndex":1,
  "erc721Token":{"address":"` + testToken + `","name":"N","symbol":"NFT","ercType":"ERC-721","tokenId":"42","tokenUri":"","metadata":{"indexStatus":"UNINDEXED"}}}],
 "erc1155Transfers":[{"from":{"address":"` + testAddr + `"},"to":{"address":"` + testToken + `"},"logIndex":2,"value":"7",
  "erc1155Token":{"address":"` + testToken + `","ercType":"ERC-1155","tokenId":"5","tokenUri":"","metadata":{"indexStatus":"UNINDEXED"}}}],
 "internalTransactions":[{"from":{"address":"` + testToken + `"},"to":{"address":"` + testAddr + `"},"internalTxType":"CALL",
  "value":"2000000000000000","isReverted":true,"gasUsed":"10","gasLimit":"20"}]
}`

func TestEVMTxPage(t *testing.T) {
	body := evmPage(t, Config{}, fakeAPI{testChain + "/transactions/" + testTxHash: jsonOf(t, evmTxReply)},
		"/evm/43112/tx/"+testTxHash, http.StatusOK)
	require.Contains(t, body, `<span class="badge ok" data-status="success">success</span>`)
	require.Contains(t, body, `<td data-field="value">1.5 AVAX</td>`)
	// 21000 × 25000000001 wei = 525000000021000 wei, exactly.
	require.Contains(t, body, `<td data-field="fee">0.000525000000021 AVAX</td>`)
	require.Contains(t, body, `>transfer(address,uint256)</span>`)
	require.Contains(t, body, `data-field="amount">1.2345</td>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/nft/`+testToken+`/42"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/nft/`+testToken+`/5"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/block/7"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/`+testAddr+`"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/token/`+testToken+`"`)
	require.Contains(t, body, `<td class="num" data-field="value">0.002</td>`)
	require.Contains(t, body, `reverted`)
	requireEscaped(t, body)
}

func TestEVMTxPageTellsUntracedFromNone(t *testing.T) {
	reply := jsonOf(t, evmTxReply).(map[string]any)
	delete(reply, "internalTransactions")
	body := evmPage(t, Config{}, fakeAPI{testChain + "/transactions/" + testTxHash: reply}, "/evm/43112/tx/"+testTxHash, http.StatusOK)
	require.Contains(t, body, "Not known: this block was not traced.")
	reply["internalTransactions"] = []any{}
	body = evmPage(t, Config{}, fakeAPI{testChain + "/transactions/" + testTxHash: reply}, "/evm/43112/tx/"+testTxHash, http.StatusOK)
	require.Contains(t, body, "None.")
}

func TestEVMTxFee(t *testing.T) {
	require.Equal(t, "340282366920938463463374607431768211455000000",
		txFee(object{"gasUsed": "1000000", "gasPrice": "340282366920938463463374607431768211455"}))
	require.Equal(t, "", txFee(object{"gasUsed": "x", "gasPrice": "1"}))
}
