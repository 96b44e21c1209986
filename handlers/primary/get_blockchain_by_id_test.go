package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestGetBlockchainByIDRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	path := func(n string) string { return "/v1/networks/" + n + "/blockchains/" + testEVMChain.String() }
	cases := networkCasesFor(path, servedBy("blockchainId"))
	p := "/v1/networks/local/blockchains/"
	cases = append(cases,
		handlertest.OK("p-chain alias", p+"p-chain", "blockchainName"),
		handlertest.OK("X-Chain alias any case", p+"X-Chain", "genesisData"),
		handlertest.OK("c-chain by id", p+fakenet.Info().ChainID(netinfo.C).String(), "evmChainId"),
		handlertest.Invalid("not cb58", p+"nope", "invalid blockchainId 'nope'", "p-chain"),
		handlertest.Invalid("network first", "/v1/networks/devnet/blockchains/nope", "network"),
		handlertest.Failing("unknown", p+ids.ID{9}.String(), http.StatusNotFound, "blockchain "+ids.ID{9}.String()+" not found"),
		handlertest.Failing("mainnet x-chain", p+handlertest.MainnetXChain, http.StatusNotFound, "not found"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

// The routes below {blockchainId} still reach their own operations.
func TestGetBlockchainByIDLeavesLongerRoutes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	body := srv.GetBody(t, "/v1/networks/local/blockchains/p-chain/transactions")
	require.Contains(t, body, "transactions")
	body = srv.GetBody(t, "/v1/networks/local/blockchains/p-chain")
	require.Equal(t, "P-Chain", body["blockchainName"])
}

func TestGetBlockchainByIDShape(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	var got map[string]any
	handlertest.RequireJSON(t, srv.Get(t, "/v1/networks/local/blockchains/"+testEVMChain.String()), http.StatusOK, &got)
	require.Equal(t, map[string]any{
		"createBlockTimestamp": 210.0, "createBlockNumber": "8", "blockchainId": testEVMChain.String(),
		"vmId": ids.ID{'s', 'e', 'v', 'm'}.String(), "subnetId": testL1Subnet.String(), "blockchainName": "l1evm",
		"evmChainId": 99999.0, "genesisData": handlertest.DecodeJSON(t, testEVMGenesis),
	}, got)
}
