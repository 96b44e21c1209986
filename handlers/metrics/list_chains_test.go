package metrics

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

type chainsBody struct {
	NextPageToken *string        `json:"nextPageToken"`
	Chains        []metricsChain `json:"chains"`
}

func TestListChains(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	c := metricsChain{EVMChainID: 43112, ChainName: "Avalanche (C-Chain)", BlockchainID: fakenet.CChainID.String(),
		SubnetID: constants.PrimaryNetworkID.String(), Network: "testnet"}
	dispatch := metricsChain{EVMChainID: fakenet.SubnetEVMChainID, ChainName: "dispatch",
		BlockchainID: fakenet.SubnetChainID.String(), SubnetID: fakenet.SubnetID.String(), Network: "testnet"}
	for _, q := range []string{"", "?network=testnet", "?network=local", "?network=Testnet"} {
		var body chainsBody
		handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains"+q), http.StatusOK, &body)
		require.Equal(t, []metricsChain{c, dispatch}, body.Chains, q)
		require.Nil(t, body.NextPageToken, "one page")
	}
	for _, q := range []string{"?network=mainnet", "?network=fuji"} {
		rec := srv.Get(t, "/ext/bc/data/metrics/v2/chains"+q)
		require.JSONEq(t, `{"chains":[]}`, rec.Body.String(), q)
	}
	handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains?network=moon"), http.StatusBadRequest, "network", "moon")
	handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains?pageToken=abc"), http.StatusBadRequest, "pageToken", "never paged")
}

func TestListChainsMainnetAndUnreadChainID(t *testing.T) {
	fakes := handlertest.NewFakes()
	fakes.Info.NetworkID = constants.MainnetID
	for i := range fakes.Info.Chains {
		if fakes.Info.Chains[i].Chain == fakenet.SubnetChain {
			fakes.Info.Chains[i].EVMChainID = 0 // the follower has not read eth_chainId yet
		}
		if fakes.Info.Chains[i].Chain == netinfo.C {
			fakes.Info.Chains[i].EVMChainID = 43114
		}
	}
	srv := newTestAPI(t, handlertest.Config(), fakes)
	var body chainsBody
	handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains?network=mainnet"), http.StatusOK, &body)
	require.Len(t, body.Chains, 1)
	require.Equal(t, uint64(43114), body.Chains[0].EVMChainID)
	require.Equal(t, "mainnet", body.Chains[0].Network)
	// On mainnet testnet is Fuji, which this node does not serve.
	require.JSONEq(t, `{"chains":[]}`, srv.Get(t, "/ext/bc/data/metrics/v2/chains?network=testnet").Body.String())
}

func TestGetChain(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	for _, id := range []string{"779672", fakenet.SubnetChainID.String()} {
		var got metricsChain
		handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/"+id), http.StatusOK, &got)
		require.Equal(t, metricsChain{EVMChainID: fakenet.SubnetEVMChainID, ChainName: "dispatch",
			BlockchainID: fakenet.SubnetChainID.String(), SubnetID: fakenet.SubnetID.String(), Network: "testnet"}, got)
	}
	var c map[string]any
	handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/c-chain"), http.StatusOK, &c)
	require.Equal(t, map[string]any{"evmChainId": float64(43112), "chainName": "Avalanche (C-Chain)",
		"blockchainId": fakenet.CChainID.String(), "subnetId": constants.PrimaryNetworkID.String(), "network": "testnet"}, c)
	for _, id := range []string{"99", "p-chain", "total", "43114"} {
		handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/"+id), http.StatusBadRequest, "chainId")
	}
}
