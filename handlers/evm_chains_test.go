package handlers

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func cChainInfoJSON() string {
	id := testCChainID.String()
	return `{
		"chainId": "43112", "status": "OK", "chainName": "Avalanche (C-Chain)",
		"description": "The Contract Chain of the Avalanche primary network on local.",
		"platformChainId": "` + id + `", "subnetId": "11111111111111111111111111111111LpoYY", "vmName": "EVM",
		"rpcUrl": "/ext/bc/` + id + `/rpc", "wsUrl": "/ext/bc/` + id + `/ws", "isTestnet": true,
		"networkToken": {"name": "Avalanche", "symbol": "AVAX", "decimals": 18},
		"enabledFeatures": ["nftIndexing"]
	}`
}

func TestListChains(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	body := getBody(t, srv, "/v1/chains")
	chains := body["chains"].([]any)
	require.Len(t, chains, 2)
	require.Equal(t, decodeJSON(t, cChainInfoJSON()), chains[0])
	subnet := chains[1].(map[string]any)
	require.Equal(t, "779672", subnet["chainId"])
	require.Equal(t, "dispatch", subnet["chainName"])
	require.Equal(t, testSubnetID.String(), subnet["subnetId"])
	require.Equal(t, map[string]any{"name": "dispatch", "symbol": "NATIVE", "decimals": 18.0}, subnet["networkToken"])

	for query, want := range map[string]int{
		"network=local": 2, "network=LOCAL": 2, "network=mainnet": 0, "network=fuji": 0, "network=testnet": 0,
		"feature=nftIndexing": 2, "feature=webhooks": 0, "feature=teleporter": 0,
	} {
		require.Len(t, getBody(t, srv, "/v1/chains?"+query)["chains"], want, query)
	}
	requireDataError(t, srv.get(t, "/v1/chains?network=devnet"), http.StatusBadRequest, "invalid network 'devnet'")
	requireDataError(t, srv.get(t, "/v1/chains?feature=bogus"), http.StatusBadRequest, "invalid feature 'bogus'", "'nftIndexing'")
}

func TestListChainsStatusAndPendingIDs(t *testing.T) {
	backend := newFakeBackend() // no follower has reported
	backend.info.Chains[3].EVMChainID = 0
	srv := newTestAPI(t, testConfig(), backend, nil)
	chains := getBody(t, srv, "/v1/chains")["chains"].([]any)
	require.Len(t, chains, 1, "a chain whose EVM chain id is unknown is left out")
	require.Equal(t, "UNAVAILABLE", chains[0].(map[string]any)["status"])

	backend.statuses = append(backend.statuses, followerStatus(netinfo.C, false, true))
	require.Equal(t, "OK", getBody(t, srv, "/v1/chains/43112")["status"], "a paused follower still serves its index")
	backend.statuses[0] = followerStatus(netinfo.C, false, false)
	require.Equal(t, "UNAVAILABLE", getBody(t, srv, "/v1/chains/43112")["status"])
}

func TestGetChain(t *testing.T) {
	cfg := testConfig()
	cfg.EVM.NativeTokens = map[uint64]NativeToken{testSubnetEVMChainID: {Name: "Dispatch Gas", Symbol: "DIS", LogoURI: "https://d.example/logo.png"}}
	srv := newTestAPI(t, cfg, withFixtures(t, newFakeBackend()), nil)
	for _, segment := range []string{"43112", "c-chain", testCChainID.String()} {
		require.Equal(t, decodeJSON(t, cChainInfoJSON()), any(getBody(t, srv, "/v1/chains/"+segment)), segment)
	}
	subnet := getBody(t, srv, "/v1/chains/"+testSubnetChainID.String())
	require.Equal(t, map[string]any{"name": "Dispatch Gas", "symbol": "DIS", "decimals": 18.0, "logoUri": "https://d.example/logo.png"},
		subnet["networkToken"])
	require.Equal(t, "EVM chain 'dispatch' of subnet "+testSubnetID.String()+" on local.", subnet["description"])

	requireDataError(t, srv.get(t, "/v1/chains/43114"), http.StatusBadRequest, "C-chain of mainnet")
	requireDataError(t, srv.get(t, "/v1/chains/x-chain"), http.StatusBadRequest, "unsupported chainId 'x-chain'")
}

func TestGetNativeBalance(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	path := "/v1/chains/43112/addresses/" + alice.Hex() + "/balances:getNative"
	require.Equal(t, map[string]any{"nativeTokenBalance": map[string]any{
		"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0, "chainId": "43112", "balance": "12500000000000000000",
	}}, getBody(t, srv, path))

	cfg := testConfig()
	cfg.EVM.Prices = &fakePrices{}
	priced := newTestAPI(t, cfg, backend, nil)
	require.Equal(t, map[string]any{"nativeTokenBalance": map[string]any{
		"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0, "chainId": "43112", "balance": "12500000000000000000",
		"price":        map[string]any{"currencyCode": "chf", "value": "30.25"},
		"balanceValue": map[string]any{"currencyCode": "chf", "value": "378.125"},
	}}, getBody(t, priced, path+"?currency=CHF"))
	subnet := getBody(t, priced, "/v1/chains/779672/addresses/"+alice.Hex()+"/balances:getNative")["nativeTokenBalance"]
	require.NotContains(t, subnet, "price", "no price known: no price fields")
	require.NotContains(t, subnet, "balanceValue")

	backend.evm.err = errors.New("node unreachable")
	msg := requireDataError(t, srv.get(t, path), http.StatusInternalServerError)
	require.NotContains(t, msg, "unreachable")
}
