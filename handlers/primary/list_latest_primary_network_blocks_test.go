package primary

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const pLatestBlocksPath = "/v1/networks/local/blockchains/p-chain/blocks"

// blockPages follows nextPageToken from path and returns each page's block
// numbers; between pages it calls between (may be nil).
func blockPages(t *testing.T, srv *handlertest.API, path string, between func()) [][]string {
	t.Helper()
	var pages [][]string
	body := srv.GetBody(t, path)
	for {
		pages = append(pages, blockNumbers(t, body))
		if _, more := body["nextPageToken"]; !more {
			return pages
		}
		if between != nil {
			between()
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
}

func TestListLatestPrimaryNetworkBlocks(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, pLatestBlocksPath)
	require.Equal(t, []string{"6", "5", "4", "3", "2", "1"}, blockNumbers(t, body), "every block, newest first")
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])

	// A block is shaped as the blocks-by-node listing shapes it.
	byNode := handlertest.Objects(t, srv.GetBody(t, pBlocksPath+handlertest.NodeID+"/blocks")["blocks"])
	require.Equal(t, byNode[0], handlertest.Objects(t, body["blocks"])[1], "block 5")
	other := handlertest.Objects(t, body["blocks"])[0]
	require.Equal(t, ids.BuildTestNodeID([]byte{9}).String(), other["proposerDetails"].(map[string]any)["proposerNodeId"])

	require.Equal(t, [][]string{{"6", "5", "4", "3"}, {"2", "1"}}, blockPages(t, srv, pLatestBlocksPath+"?pageSize=4", nil))

	// Blocks that arrive while a client pages neither repeat nor shift
	// the pages: they are below none of the first page's.
	added := false
	pages := blockPages(t, srv, pLatestBlocksPath+"?pageSize=2", func() {
		if !added {
			added = true
			srv.Fakes.Primary.AddBlock(pdata.IndexedBlock{Chain: netinfo.P, Number: 7, ID: handlertest.FixtureBlockID(netinfo.P, 7),
				ParentID: handlertest.FixtureBlockID(netinfo.P, 6), Time: handlertest.BlockTime(7), Type: "BanffStandardBlock"})
		}
	})
	require.Equal(t, [][]string{{"6", "5"}, {"4", "3"}, {"2", "1"}}, pages)
	require.Equal(t, []string{"7", "6"}, blockNumbers(t, srv.GetBody(t, pLatestBlocksPath+"?pageSize=2")), "a new first page shows it")

	// Time range, inclusive at both ends.
	span := pLatestBlocksPath + "?startTimestamp=" + strconv.FormatInt(handlertest.BlockTime(2), 10) +
		"&endTimestamp=" + strconv.FormatInt(handlertest.BlockTime(4), 10)
	require.Equal(t, [][]string{{"4", "3"}, {"2"}}, blockPages(t, srv, span+"&pageSize=2", nil))
	q := srv.Fakes.Primary.BlockQueries[len(srv.Fakes.Primary.BlockQueries)-1]
	require.Equal(t, pdata.BlockQuery{FromHeight: 2, ToHeight: 5, Desc: true, After: 3, Limit: 3}, q)
	late := pLatestBlocksPath + "?startTimestamp=" + strconv.FormatInt(handlertest.BlockTime(9), 10)
	require.Equal(t, []any{}, srv.GetBody(t, late)["blocks"])

	// The X-chain's blocks are its own.
	require.Equal(t, []any{}, srv.GetBody(t, "/v1/networks/local/blockchains/x-chain/blocks")["blocks"])
}

func TestListLatestPrimaryNetworkBlocksBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	first := srv.GetBody(t, pLatestBlocksPath+"?pageSize=1")
	byNode := srv.GetBody(t, pBlocksPath+handlertest.NodeID+"/blocks?pageSize=1")
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("c-chain", "/v1/networks/local/blockchains/c-chain/blocks", "blockchainId 'c-chain'", "/v1/chains/", "/blocks"),
		handlertest.Invalid("unknown chain", "/v1/networks/local/blockchains/q-chain/blocks", "invalid blockchainId"),
		handlertest.Invalid("other network", "/v1/networks/mainnet/blockchains/p-chain/blocks", "network"),
		handlertest.Invalid("page size 0", pLatestBlocksPath+"?pageSize=0", "pageSize"),
		handlertest.Invalid("page size 101", pLatestBlocksPath+"?pageSize=101", "pageSize"),
		handlertest.Invalid("start not a number", pLatestBlocksPath+"?startTimestamp=yesterday", "startTimestamp"),
		handlertest.Invalid("negative end", pLatestBlocksPath+"?endTimestamp=-1", "endTimestamp"),
		handlertest.Invalid("start after end", pLatestBlocksPath+"?startTimestamp=10&endTimestamp=5", "startTimestamp"),
		handlertest.Invalid("garbled token", pLatestBlocksPath+"?pageToken=abc", "invalid pageToken"),
		handlertest.Invalid("token of the X-chain", handlertest.WithToken("/v1/networks/local/blockchains/x-chain/blocks?pageSize=1", first),
			"invalid pageToken"),
		handlertest.Invalid("token of another time range", handlertest.WithToken(pLatestBlocksPath+"?pageSize=1&endTimestamp=99999999999", first),
			"invalid pageToken"),
		handlertest.Invalid("token of the blocks-by-node listing", handlertest.WithToken(pLatestBlocksPath+"?pageSize=1", byNode),
			"invalid pageToken", "another endpoint"),
	})
	require.Equal(t, http.StatusOK, srv.Get(t, handlertest.WithToken(pLatestBlocksPath+"?pageSize=1", first)).Code)
}

// TestListLatestPrimaryNetworkBlocksGenesisTime: the genesis block (height
// 0) is in a time range by its own time, not by the heights around it.
func TestListLatestPrimaryNetworkBlocksGenesisTime(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	genesisTime := handlertest.BlockTime(1) - 1000
	srv.Fakes.Primary.AddBlock(pdata.IndexedBlock{Chain: netinfo.P, Number: 0, ID: handlertest.FixtureBlockID(netinfo.P, 0),
		Time: genesisTime, Type: "ApricotCommitBlock"})
	at := func(name string, ts int64) string { return name + "=" + strconv.FormatInt(ts, 10) }
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"", []string{"6", "5", "4", "3", "2", "1", "0"}},
		{at("startTimestamp", genesisTime), []string{"6", "5", "4", "3", "2", "1", "0"}},
		{at("startTimestamp", genesisTime+1), []string{"6", "5", "4", "3", "2", "1"}},
		{at("startTimestamp", handlertest.BlockTime(1)), []string{"6", "5", "4", "3", "2", "1"}},
		{at("endTimestamp", genesisTime), []string{"0"}},
		{at("endTimestamp", genesisTime-1), []string{}},
		{at("startTimestamp", genesisTime+1) + "&" + at("endTimestamp", handlertest.BlockTime(1)-1), []string{}},
		{at("startTimestamp", genesisTime) + "&" + at("endTimestamp", handlertest.BlockTime(1)), []string{"1", "0"}},
	} {
		got := []string{}
		for _, page := range blockPages(t, srv, pLatestBlocksPath+"?pageSize=100&"+tc.query, nil) {
			got = append(got, page...)
		}
		require.Equal(t, tc.want, got, tc.query)
	}
}
