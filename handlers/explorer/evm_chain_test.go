package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEVMChainPage(t *testing.T) {
	replies := fakeAPI{
		"/v1/chains/c-chain/blocks?pageSize=25": jsonOf(t, `{"blocks":[{"blockNumber":"9","blockTimestamp":1700000000,
			"blockHash":"0x99","txCount":2,"baseFee":"25000000000","gasUsed":"42000"}],"nextPageToken":"tok&en"}`),
		"/v1/chains/c-chain/transactions?pageSize=25&pageToken=p2": jsonOf(t, `{"transactions":[{"blockNumber":"8","blockTimestamp":1700000000,
			"txHash":"`+testTxHash+`","txStatus":"0","value":"1000000000000000000","from":{"address":"`+testAddr+`"},
			"to":{"address":"`+testToken+`","name":"<script>alert(1)</script>","symbol":"\"><img src=x onerror=alert(1)>"},"method":{"callType":"NATIVE_TRANSFER","methodHash":"","methodName":"Native Transfer"}}]}`),
	}
	body := evmPage(t, Config{}, replies, "/evm/c-chain", http.StatusOK)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/block/9"`, "links use the EVM chain id")
	require.Contains(t, body, `<a rel="next" href="/ext/bc/data/explorer/evm/c-chain?page=tok%26en">`)

	body = evmPage(t, Config{}, replies, "/evm/c-chain?tab=transactions&page=p2", http.StatusOK)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/tx/`+testTxHash+`"`)
	require.Contains(t, body, `data-field="value">1</td>`)
	require.Contains(t, body, `data-status="failed"`)
	require.NotContains(t, body, `rel="next"`)
	require.NotContains(t, body, "<img src=x")
	require.Contains(t, body, `<span class="muted">&#34;&gt;&lt;img src=x onerror=alert(1)&gt;</span>`, "a party shows its symbol")
}

func TestEVMBlockPage(t *testing.T) {
	body := evmPage(t, Config{}, fakeAPI{
		testChain + "/blocks/9": jsonOf(t, `{"blockNumber":"9","blockTimestamp":1700000000,"blockHash":"0x99","parentHash":"0x88",
			"txCount":1,"baseFee":"25000000000","gasUsed":"21000","gasLimit":"8000000","feesSpent":"525000000000000"}`),
		testChain + "/blocks/9/transactions?pageSize=25": jsonOf(t, `{"transactions":[{"blockNumber":"9","blockTimestamp":1700000000,
			"txHash":"`+testTxHash+`","txStatus":"1","value":"0","from":{"address":"`+testAddr+`"},"to":{"address":"`+testAddr+`"},
			"method":{"callType":"NATIVE_TRANSFER","methodHash":"","methodName":"Native Transfer"}}],"nextPageToken":"n"}`),
	}, "/evm/43112/block/9", http.StatusOK)
	require.Contains(t, body, `<td data-field="gasLimit">8000000</td>`)
	require.Contains(t, body, `<td data-field="feesSpent">0.000525 AVAX</td>`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/block/0x88"`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/tx/`+testTxHash+`"`)
	require.Contains(t, body, `<a rel="next" href="/ext/bc/data/explorer/evm/43112/block/9?page=n">`)
}
