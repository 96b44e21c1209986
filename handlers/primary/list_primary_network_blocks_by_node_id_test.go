package primary

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

const pBlocksPath = "/v1/networks/local/blockchains/p-chain/nodes/"

func blockNumbers(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, b := range handlertest.Objects(t, body["blocks"]) {
		out = append(out, b["blockNumber"].(string))
	}
	return out
}

func TestListBlocksByNode(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := pBlocksPath + handlertest.NodeID + "/blocks"
	body := srv.GetBody(t, path)
	require.Equal(t, []string{"5", "4", "3", "2", "1"}, blockNumbers(t, body), "newest first; block 6 is another node's")
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	b := handlertest.Objects(t, body["blocks"])[0]
	require.Equal(t, map[string]any{
		"blockNumber":    "5",
		"blockHash":      handlertest.FixtureBlockID(netinfo.P, 5).String(),
		"parentHash":     handlertest.FixtureBlockID(netinfo.P, 4).String(),
		"blockTimestamp": float64(handlertest.BlockTime(5)),
		"blockType":      "BanffStandardBlock",
		"txCount":        float64(1),
		"transactions":   []any{handlertest.FixtureTxID(netinfo.P, 5).String()},
		"blockSizeBytes": float64(305),
		"proposerDetails": map[string]any{
			"proposerId":           handlertest.FixtureBlockID(netinfo.P, 5).String(),
			"proposerParentId":     handlertest.FixtureBlockID(netinfo.P, 4).String(),
			"proposerNodeId":       handlertest.NodeID,
			"proposerPChainHeight": float64(4),
			"proposerTimestamp":    float64(handlertest.BlockTime(5)),
		},
	}, b, "no currentSupply or L1 fee figures: the index has none")

	// Paging.
	paged := path + "?pageSize=2"
	var pages [][]string
	body = srv.GetBody(t, paged)
	for {
		pages = append(pages, blockNumbers(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = srv.GetBody(t, handlertest.WithToken(paged, body))
	}
	require.Equal(t, [][]string{{"5", "4"}, {"3", "2"}, {"1"}}, pages)

	// Time range, inclusive at both ends.
	span := path + "?startTimestamp=" + strconv.FormatInt(handlertest.BlockTime(2), 10) + "&endTimestamp=" + strconv.FormatInt(handlertest.BlockTime(3), 10)
	require.Equal(t, []string{"3", "2"}, blockNumbers(t, srv.GetBody(t, span)))
	q := srv.Fakes.Primary.BlockQueries[len(srv.Fakes.Primary.BlockQueries)-1]
	require.Equal(t, uint64(2), q.FromHeight)
	require.Equal(t, uint64(4), q.ToHeight)
	require.True(t, q.Desc)

	// A node that proposed nothing, or a chain without its blocks.
	require.Equal(t, []any{}, srv.GetBody(t, pBlocksPath+handlertest.NodeID2+"/blocks")["blocks"])
	require.Equal(t, []any{}, srv.GetBody(t, "/v1/networks/local/blockchains/x-chain/nodes/"+handlertest.NodeID+"/blocks")["blocks"])
}

func TestListBlocksByNodeBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	first := srv.GetBody(t, pBlocksPath+handlertest.NodeID+"/blocks?pageSize=1")
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("malformed node id", pBlocksPath+"NodeID-abc/blocks", "invalid nodeId"),
		handlertest.Invalid("node id without prefix", pBlocksPath+"abc/blocks", "invalid nodeId", "NodeID-"),
		handlertest.Invalid("token of another node", handlertest.WithToken(pBlocksPath+handlertest.NodeID2+"/blocks?pageSize=1", first), "invalid pageToken"),
		handlertest.Invalid("token of the tx listing", handlertest.WithToken(pTxsPath+"?pageSize=1", first), "invalid pageToken", "another endpoint"),
	})
	require.Equal(t, http.StatusOK, srv.Get(t, handlertest.WithToken(pBlocksPath+handlertest.NodeID+"/blocks?pageSize=1", first)).Code)
}
