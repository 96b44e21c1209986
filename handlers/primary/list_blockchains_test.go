package primary

import (
	"testing"

	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestListBlockchainsRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, registryListRouteCases("blockchains"))
}

// Blockchains page in creation order to the end, the P-chain first.
func TestListBlockchainsPages(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	node := fakenet.Info()
	asc := []string{constants.PlatformChainID.String(), node.ChainID(netinfo.X).String(), node.ChainID(netinfo.C).String(),
		testEVMChain.String(), testOtherChain.String()}
	require.Equal(t, asc, pageAll(t, srv, "/v1/networks/local/blockchains?pageSize=2&sortOrder=asc", "blockchains", "blockchainId"))
	desc := []string{asc[4], asc[3], asc[2], asc[1], asc[0]}
	require.Equal(t, desc, pageAll(t, srv, "/v1/networks/local/blockchains?pageSize=1", "blockchains", "blockchainId"))

	body := srv.GetBody(t, "/v1/networks/local/blockchains?sortOrder=asc")
	list := body["blockchains"].([]any)
	require.Len(t, list, 5)
	require.NotContains(t, body, "nextPageToken")
	pChain := list[0].(map[string]any)
	require.Equal(t, "P-Chain", pChain["blockchainName"])
	require.NotContains(t, pChain, "genesisData")
	require.NotContains(t, pChain, "evmChainId")
	require.Equal(t, "0x0001ff", list[1].(map[string]any)["genesisData"], "a binary genesis is 0x hex")
	require.Equal(t, 43112.0, list[2].(map[string]any)["evmChainId"])
	require.Equal(t, "plain text", list[4].(map[string]any)["genesisData"])
}
