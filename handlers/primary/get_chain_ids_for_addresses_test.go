package primary

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

const chainIDsPath = "/v1/networks/local/addresses:listChainIds"

func TestGetChainIdsForAddresses(t *testing.T) {
	srv := newUTXOTestAPI(t)
	node := fakenet.Info()
	bob, nobody := handlertest.Bech32Of(t, handlertest.PBob), "P-"+handlertest.Bech32Addr(t, "local", 0x77)
	body := srv.GetBody(t, chainIDsPath+"?addresses="+alice(t)+","+bob+","+nobody)
	require.Equal(t, map[string]any{"addresses": []any{
		map[string]any{"address": alice(t), "blockchainIds": []any{
			node.ChainID(netinfo.P).String(), node.ChainID(netinfo.X).String(), node.ChainID(netinfo.C).String()}},
		map[string]any{"address": bob, "blockchainIds": []any{node.ChainID(netinfo.P).String()}},
		map[string]any{"address": nobody, "blockchainIds": []any{}},
	}}, body)
}

func TestGetChainIdsForAddressesBadInput(t *testing.T) {
	srv := newUTXOTestAPI(t)
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("no addresses", chainIDsPath, "addresses is required"),
		handlertest.Invalid("bad address", chainIDsPath+"?addresses=P-avax1", "invalid addresses"),
		handlertest.Invalid("0x address", chainIDsPath+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Failing("other network", "/v1/networks/mainnet/addresses:listChainIds?addresses="+alice(t), 400),
	})
}
