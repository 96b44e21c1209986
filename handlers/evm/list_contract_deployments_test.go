package evm

import (
	"net/http"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func deploymentsPath(addr common.Address) string {
	return "/v1/chains/43112/contracts/" + addr.Hex() + "/deployments"
}

func TestListContractDeployments(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	// Alice deployed WAVAX herself (block 10) and Child through Kitties as a factory (block 13).
	backend.EVM.Txs[netinfo.C][3].Tx.Creations = []evmdata.ContractCreation{
		{Address: handlertest.Child, Deployer: handlertest.Alice, DeployerContract: handlertest.Kitties}}
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"contracts": [
		{"address": "{child}", "ercType": "UNKNOWN",
		 "deploymentDetails": {"txHash": "{tx4}", "deployerAddress": "{alice}", "deployerContractAddress": "{kitties}"}},
		{"address": "{wavax}", "ercType": "ERC-20", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18,
		 "deploymentDetails": {"txHash": "{tx1}", "deployerAddress": "{alice}"}}
	]}`)), srv.GetBody(t, deploymentsPath(handlertest.Alice)), "newest first, each as getContractMetadata shows it")

	byFactory := srv.GetBody(t, deploymentsPath(handlertest.Kitties))
	require.Len(t, byFactory["contracts"], 1)
	require.Equal(t, handlertest.Child.Hex(), byFactory["contracts"].([]any)[0].(map[string]any)["address"])
	require.Equal(t, map[string]any{"contracts": []any{}}, srv.GetBody(t, deploymentsPath(handlertest.Carol)))

	first := srv.GetBody(t, deploymentsPath(handlertest.Alice)+"?pageSize=1")
	require.Len(t, first["contracts"], 1)
	backend.SetIndexedHeight(netinfo.C, handlertest.FixtureHeight+5) // blocks arrive between pages
	second := srv.GetBody(t, handlertest.WithToken(deploymentsPath(handlertest.Alice)+"?pageSize=1", first))
	require.Equal(t, handlertest.Wavax.Hex(), second["contracts"].([]any)[0].(map[string]any)["address"])
	require.NotContains(t, second, "nextPageToken")

	for name, tt := range map[string]struct {
		path      string
		fragments []string
	}{
		"bad address":   {"/v1/chains/43112/contracts/0xzz/deployments", []string{"address"}},
		"unknown chain": {"/v1/chains/1/contracts/" + handlertest.Alice.Hex() + "/deployments", []string{"chainId"}},
		"page size":     {deploymentsPath(handlertest.Alice) + "?pageSize=0", []string{"pageSize"}},
		"other token":   {handlertest.WithToken(deploymentsPath(handlertest.Bob)+"?pageSize=1", first), []string{"pageToken"}},
	} {
		t.Run(name, func(t *testing.T) {
			handlertest.RequireDataError(t, srv.Get(t, tt.path), http.StatusBadRequest, tt.fragments...)
		})
	}
}
