package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

const pBlockPath = "/v1/networks/local/blockchains/p-chain/blocks/"

func TestGetBlockById(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	listed := handlertest.Objects(t, srv.GetBody(t, pLatestBlocksPath)["blocks"])
	require.Len(t, listed, 6)
	for _, want := range listed {
		byID := srv.GetBody(t, pBlockPath+want["blockHash"].(string))
		require.Equal(t, want, byID, "block %s by ID is the listed block", want["blockNumber"])
		require.Equal(t, want, srv.GetBody(t, pBlockPath+want["blockNumber"].(string)), "by height")
	}
	id := handlertest.FixtureBlockID(netinfo.P, 3).String()
	require.Equal(t, srv.GetBody(t, pBlockPath+id), srv.GetBody(t, "/v1/networks/local/blockchains/"+
		handlertest.PChainID+"/blocks/"+id), "the P-chain's ID names it as the alias does")
}

func TestGetBlockByIdBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	pBlock := handlertest.FixtureBlockID(netinfo.P, 3).String()
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Failing("unknown ID", pBlockPath+ids.ID{'?'}.String(), http.StatusNotFound, "no p-chain block with ID"),
		handlertest.Failing("unknown height", pBlockPath+"99", http.StatusNotFound, "no p-chain block with height 99"),
		handlertest.Failing("another chain's block", "/v1/networks/local/blockchains/x-chain/blocks/"+pBlock, http.StatusNotFound,
			"no x-chain block with ID"),
		handlertest.Invalid("malformed ID", pBlockPath+"notablockid", "invalid blockId 'notablockid'", "block height", "cb58"),
		handlertest.Invalid("hex ID", pBlockPath+"0xabcdef", "invalid blockId"),
		handlertest.Invalid("negative height", pBlockPath+"-1", "invalid blockId"),
		handlertest.Invalid("height past uint64", pBlockPath+"18446744073709551616", "invalid blockId"),
		handlertest.Invalid("c-chain", "/v1/networks/local/blockchains/c-chain/blocks/1", "blockchainId 'c-chain'", "/v1/chains/"),
		handlertest.Invalid("unknown chain", "/v1/networks/local/blockchains/q-chain/blocks/1", "invalid blockchainId"),
		handlertest.Invalid("other network", "/v1/networks/fuji/blockchains/p-chain/blocks/1", "network"),
	})
}
