package evm

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

func cChainInfoJSON() string {
	id := fakenet.CChainID.String()
	return `{
		"chainId": "43112", "status": "OK", "chainName": "Avalanche (C-Chain)",
		"description": "The Contract Chain of the Avalanche primary network on local.",
		"platformChainId": "` + id + `", "subnetId": "11111111111111111111111111111111LpoYY", "vmName": "EVM",
		"rpcUrl": "/ext/bc/` + id + `/rpc", "wsUrl": "/ext/bc/` + id + `/ws", "isTestnet": true,
		"networkToken": {"name": "Avalanche", "symbol": "AVAX", "decimals": 18},
		"enabledFeatures": ["nftIndexing", "webhooks"]
	}`
}

func TestListChains(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	body := srv.GetBody(t, "/v1/chains")
	chains := body["chains"].([]any)
	require.Len(t, chains, 2)
	require.Equal(t, handlertest.DecodeJSON(t, cChainInfoJSON()), chains[0])
	subnet := chains[1].(map[string]any)
	require.Equal(t, "779672", subnet["chainId"])
	require.Equal(t, "dispatch", subnet["chainName"])
	require.Equal(t, fakenet.SubnetID.String(), subnet["subnetId"])
	require.Equal(t, map[string]any{"name": "dispatch", "symbol": "NATIVE", "decimals": 18.0}, subnet["networkToken"])

	for query, want := range map[string]int{
		"network=local": 2, "network=LOCAL": 2, "network=mainnet": 0, "network=fuji": 0, "network=testnet": 2,
		"feature=nftIndexing": 2, "feature=webhooks": 2, "feature=teleporter": 0,
	} {
		require.Len(t, srv.GetBody(t, "/v1/chains?"+query)["chains"], want, query)
	}
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains?network=devnet"), http.StatusBadRequest, "invalid network 'devnet'")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains?feature=bogus"), http.StatusBadRequest, "invalid feature 'bogus'", "'nftIndexing'")
}

func TestListChainsStatusAndPendingIDs(t *testing.T) {
	backend := handlertest.NewFakes() // no follower has reported
	backend.Info.Chains[3].EVMChainID = 0
	srv := newTestAPI(t, newTestConfig(), backend)
	chains := srv.GetBody(t, "/v1/chains")["chains"].([]any)
	require.Len(t, chains, 1, "a chain whose EVM chain id is unknown is left out")
	require.Equal(t, "UNAVAILABLE", chains[0].(map[string]any)["status"])

	backend.FollowerStatuses = append(backend.FollowerStatuses, handlertest.FollowerStatus(netinfo.C, false, true))
	require.Equal(t, "OK", srv.GetBody(t, "/v1/chains/43112")["status"], "a paused follower still serves its index")
	backend.FollowerStatuses[0] = handlertest.FollowerStatus(netinfo.C, false, false)
	require.Equal(t, "UNAVAILABLE", srv.GetBody(t, "/v1/chains/43112")["status"])
}

func TestGetChain(t *testing.T) {
	cfg := newTestConfig()
	cfg.EVM.NativeTokens = map[uint64]NativeToken{fakenet.SubnetEVMChainID: {Name: "Dispatch Gas", Symbol: "DIS", LogoURI: "https://d.example/logo.png"}}
	srv := newTestAPI(t, cfg, handlertest.WithFixtures(t, handlertest.NewFakes()))
	for _, segment := range []string{"43112", "c-chain", fakenet.CChainID.String()} {
		require.Equal(t, handlertest.DecodeJSON(t, cChainInfoJSON()), any(srv.GetBody(t, "/v1/chains/"+segment)), segment)
	}
	subnet := srv.GetBody(t, "/v1/chains/"+fakenet.SubnetChainID.String())
	require.Equal(t, map[string]any{"name": "Dispatch Gas", "symbol": "DIS", "decimals": 18.0, "logoUri": "https://d.example/logo.png"},
		subnet["networkToken"])
	require.Equal(t, "EVM chain 'dispatch' of subnet "+fakenet.SubnetID.String()+" on local.", subnet["description"])

	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/43114"), http.StatusBadRequest, "C-chain of mainnet")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/x-chain"), http.StatusBadRequest, "unsupported chainId 'x-chain'")
}

func TestGetNativeBalance(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	path := "/v1/chains/43112/addresses/" + handlertest.Alice.Hex() + "/balances:getNative"
	require.Equal(t, map[string]any{"nativeTokenBalance": map[string]any{
		"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0, "chainId": "43112", "balance": "12500000000000000000",
	}}, srv.GetBody(t, path))

	cfg := newTestConfig()
	cfg.EVM.Prices = &fakePrices{}
	priced := newTestAPI(t, cfg, backend)
	require.Equal(t, map[string]any{"nativeTokenBalance": map[string]any{
		"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0, "chainId": "43112", "balance": "12500000000000000000",
		"price":        map[string]any{"currencyCode": "chf", "value": "30.25"},
		"balanceValue": map[string]any{"currencyCode": "chf", "value": "378.125"},
	}}, priced.GetBody(t, path+"?currency=CHF"))
	subnet := priced.GetBody(t, "/v1/chains/779672/addresses/"+handlertest.Alice.Hex()+"/balances:getNative")["nativeTokenBalance"]
	require.NotContains(t, subnet, "price", "no price known: no price fields")
	require.NotContains(t, subnet, "balanceValue")

	backend.EVM.Err = errors.New("node unreachable")
	msg := handlertest.RequireDataError(t, srv.Get(t, path), http.StatusInternalServerError)
	require.NotContains(t, msg, "unreachable")
}
