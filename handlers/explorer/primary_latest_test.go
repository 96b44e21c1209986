package explorer

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrimaryChainPageListsBlocksAndTransactions(t *testing.T) {
	blocks := jsonOf(t, `{"blocks":[{"blockNumber":"7","blockHash":"`+blockID1+`","parentHash":"`+blockID0+`",
		"blockTimestamp":1700000000,"blockType":"BanffStandardBlock","txCount":1,"transactions":["`+txID1+`"],
		"blockSizeBytes":300,"proposerDetails":{"proposerNodeId":"`+nodeID+`"}}],
		"chainInfo":{"chainName":"p-chain","network":"local"},"nextPageToken":"tok&2"}`)
	txs := jsonOf(t, `{"transactions":[{"txHash":"`+txID1+`","txType":"ImportTx","blockNumber":"7","blockTimestamp":1700000000,
		"sourceChain":"`+xChainID+`","destinationChain":"`+pChainID+`","consumedUtxos":[],"emittedUtxos":[]}],
		"chainInfo":{"chainName":"p-chain","network":"local"}}`)
	cTxs := jsonOf(t, `{"transactions":[{"txHash":"`+txID2+`","txType":"ImportTx","blockHeight":12,"timestamp":1700000000,
		"sourceChain":"`+pChainID+`","destinationChain":"`+cChainID+`"}],"chainInfo":{"chainName":"c-chain","network":"local"}}`)
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "p-chain/blocks":                               blocks,
		primaryAPI + "p-chain/blocks?pageSize=25&pageToken=tok%262": jsonOf(t, `{"blocks":[],"chainInfo":{}}`),
		primaryAPI + "p-chain/blocks?pageSize=2&pageToken=tok%262":  jsonOf(t, `{"blocks":[],"chainInfo":{},"nextPageToken":"tok3"}`),
		primaryAPI + "p-chain/transactions":                         txs,
		primaryAPI + "c-chain/transactions":                         cTxs,
	}, nil)

	body := pageBody(t, h, "/p-chain", http.StatusOK)
	require.Contains(t, body, explorerLink("/p-chain/block/7"))
	require.Contains(t, body, explorerLink("/p-chain/block/"+blockID1))
	require.Contains(t, body, explorerLink("/validators/"+nodeID))
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/p-chain?page=tok%262"`)
	// The next page passes the token back as the API's pageToken.
	body = pageBody(t, h, "/p-chain?page=tok%262", http.StatusOK)
	require.Contains(t, body, "No blocks.")
	// A pageSize in the URL is the API's, and the next page keeps it.
	body = pageBody(t, h, "/p-chain?page=tok%262&pageSize=2", http.StatusOK)
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/p-chain?page=tok3&amp;pageSize=2"`)

	body = pageBody(t, h, "/p-chain?tab=transactions", http.StatusOK)
	require.Contains(t, body, explorerLink("/p-chain/tx/"+txID1))
	require.Contains(t, body, explorerLink("/x-chain")) // the import's source chain
	require.Contains(t, body, ">ImportTx<")

	// The C-chain has no blocks tab: its blocks link to the EVM pages.
	pageBody(t, h, "/c-chain?tab=blocks", http.StatusBadRequest)
	body = pageBody(t, h, "/c-chain", http.StatusOK)
	require.Contains(t, body, explorerLink("/c-chain/tx/"+txID2))
	require.Contains(t, body, explorerLink("/evm/43112/block/12"))
	require.False(t, strings.Contains(body, "Latest blocks"))
}
