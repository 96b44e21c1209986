package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestBlockchainPageLinksAFollowedEVMChain(t *testing.T) {
	chain := `{"blockchainId":"2chain","blockchainName":"<b>evm</b>","vmId":"vm1","subnetId":"` + testSubnet + `",
		"createBlockNumber":"7","createBlockTimestamp":3,"evmChainId":99999,"genesisData":{"config":{"chainId":99999}}}`
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/blockchains/2chain": jsonOf(t, chain),
		"/v1/chains/99999":                      jsonOf(t, `{"chainId":"99999"}`),
	}, nil)
	rec := getPage(t, h, "/blockchains/2chain")
	require.Equal(t, http.StatusOK, rec.Code)
	body := rec.Body.String()
	require.Contains(t, body, `<td data-field="name">&lt;b&gt;evm&lt;/b&gt;</td>`)
	require.Contains(t, body, `id="subnet-link" href="/ext/bc/data/explorer/subnets/`+testSubnet+`"`)
	require.Contains(t, body, `id="creation-tx" href="/ext/bc/data/explorer/p-chain/tx/2chain"`)
	require.Contains(t, body, `id="evm-chain" href="/ext/bc/data/explorer/evm/99999"`)
	require.Contains(t, body, `id="creation-block" href="/ext/bc/data/explorer/p-chain/block/7"`)
}

func TestBlockchainPageOfAnEVMChainNotFollowed(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/blockchains/2chain": jsonOf(t, `{"blockchainId":"2chain","blockchainName":"x","createBlockNumber":"7","evmChainId":5}`),
		"/v1/chains/5":                          &api.Error{Status: http.StatusNotFound, Message: "not followed"},
	}, nil)
	body := getPage(t, h, "/blockchains/2chain").Body.String()
	require.NotContains(t, body, `id="evm-chain"`)
	require.Contains(t, body, `(not followed by this node)`)
}
