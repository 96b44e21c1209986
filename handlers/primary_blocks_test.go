package handlers

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

const pBlocksPath = "/v1/networks/local/blockchains/p-chain/nodes/"

func blockNumbers(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, b := range objects(t, body["blocks"]) {
		out = append(out, b["blockNumber"].(string))
	}
	return out
}

func TestListBlocksByNode(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	path := pBlocksPath + testNodeID + "/blocks"
	body := getBody(t, srv, path)
	require.Equal(t, []string{"5", "4", "3", "2", "1"}, blockNumbers(t, body), "newest first; block 6 is another node's")
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	b := objects(t, body["blocks"])[0]
	require.Equal(t, map[string]any{
		"blockNumber":    "5",
		"blockHash":      fixtureBlockID(netinfo.P, 5).String(),
		"parentHash":     fixtureBlockID(netinfo.P, 4).String(),
		"blockTimestamp": float64(blockTime(5)),
		"blockType":      "BanffStandardBlock",
		"txCount":        float64(1),
		"transactions":   []any{fixtureTxID(netinfo.P, 5).String()},
		"blockSizeBytes": float64(305),
		"proposerDetails": map[string]any{
			"proposerId":           fixtureBlockID(netinfo.P, 5).String(),
			"proposerParentId":     fixtureBlockID(netinfo.P, 4).String(),
			"proposerNodeId":       testNodeID,
			"proposerPChainHeight": float64(4),
			"proposerTimestamp":    float64(blockTime(5)),
		},
	}, b, "no currentSupply or L1 fee figures: the index has none")

	// Paging.
	paged := path + "?pageSize=2"
	var pages [][]string
	body = getBody(t, srv, paged)
	for {
		pages = append(pages, blockNumbers(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = getBody(t, srv, withToken(paged, body))
	}
	require.Equal(t, [][]string{{"5", "4"}, {"3", "2"}, {"1"}}, pages)

	// Time range, inclusive at both ends.
	span := path + "?startTimestamp=" + strconv.FormatInt(blockTime(2), 10) + "&endTimestamp=" + strconv.FormatInt(blockTime(3), 10)
	require.Equal(t, []string{"3", "2"}, blockNumbers(t, getBody(t, srv, span)))
	q := srv.backend.primary.blockQueries[len(srv.backend.primary.blockQueries)-1]
	require.Equal(t, uint64(2), q.FromHeight)
	require.Equal(t, uint64(4), q.ToHeight)
	require.True(t, q.Desc)

	// A node that proposed nothing, or a chain without its blocks.
	require.Equal(t, []any{}, getBody(t, srv, pBlocksPath+testNodeID2+"/blocks")["blocks"])
	require.Equal(t, []any{}, getBody(t, srv, "/v1/networks/local/blockchains/x-chain/nodes/"+testNodeID+"/blocks")["blocks"])
}

func TestListBlocksByNodeBadInput(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	first := getBody(t, srv, pBlocksPath+testNodeID+"/blocks?pageSize=1")
	runRouteCases(t, srv, []routeCase{
		invalid("malformed node id", pBlocksPath+"NodeID-abc/blocks", "invalid nodeId"),
		invalid("node id without prefix", pBlocksPath+"abc/blocks", "invalid nodeId", "NodeID-"),
		invalid("token of another node", withToken(pBlocksPath+testNodeID2+"/blocks?pageSize=1", first), "invalid pageToken"),
		invalid("token of the tx listing", withToken(pTxsPath+"?pageSize=1", first), "invalid pageToken", "another endpoint"),
	})
	require.Equal(t, http.StatusOK, srv.get(t, withToken(pBlocksPath+testNodeID+"/blocks?pageSize=1", first)).Code)
}
