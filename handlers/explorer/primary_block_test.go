package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestPrimaryBlockPage(t *testing.T) {
	block := jsonOf(t, `{"blockNumber":"7","blockHash":"`+blockID1+`","parentHash":"`+blockID0+`",
		"blockTimestamp":1700000000,"blockType":"BanffStandardBlock","txCount":2,"transactions":["`+txID1+`","`+txID2+`"],
		"blockSizeBytes":300,"proposerDetails":{"proposerNodeId":"`+nodeID+`","proposerPChainHeight":5}}`)
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/blocks/7":           block,
		primaryAPI + "x-chain/blocks/" + blockID1: block,
		primaryAPI + "x-chain/blocks/99":          &api.Error{Status: http.StatusNotFound, Message: "no x-chain block with height 99 is indexed"},
		primaryAPI + "x-chain/blocks/nope":        &api.Error{Status: http.StatusBadRequest, Message: "invalid blockId 'nope'"},
		primaryAPI + "x-chain/blocks?pageSize=1":  jsonOf(t, `{"blocks":[{"blockNumber":"8"}]}`),
	}, nil)
	for _, id := range []string{"7", blockID1} {
		body := pageBody(t, h, "/x-chain/block/"+id, http.StatusOK)
		require.Contains(t, body, `<td data-field="height">7</td>`)
		require.Contains(t, body, `<td class="mono" data-field="id">`+blockID1+`</td>`)
		require.Contains(t, body, explorerLink("/x-chain/block/"+blockID0))
		require.Contains(t, body, explorerLink("/x-chain/block/6"))
		require.Contains(t, body, explorerLink("/x-chain/block/8"))
		require.Contains(t, body, explorerLink("/validators/"+nodeID))
		require.Contains(t, body, explorerLink("/p-chain/block/5"))
		require.Contains(t, body, explorerLink("/x-chain/tx/"+txID1))
		require.Contains(t, body, explorerLink("/x-chain/tx/"+txID2))
	}
	// At the tip, no next block: its page would be a 404.
	tip := jsonOf(t, `{"blockNumber":"8","blockHash":"`+blockID1+`","parentHash":"`+blockID0+`","blockTimestamp":1700000000,"txCount":0}`)
	atTip := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/blocks/8":          tip,
		primaryAPI + "x-chain/blocks?pageSize=1": jsonOf(t, `{"blocks":[{"blockNumber":"8"}]}`),
	}, nil)
	body := pageBody(t, atTip, "/x-chain/block/8", http.StatusOK)
	require.Contains(t, body, explorerLink("/x-chain/block/7"))
	require.NotContains(t, body, explorerLink("/x-chain/block/9"))
	require.NotContains(t, body, `rel="next"`)
	// The API's errors are the page's.
	require.Contains(t, pageBody(t, h, "/x-chain/block/99", http.StatusNotFound), "no x-chain block with height 99 is indexed")
	require.Contains(t, pageBody(t, h, "/x-chain/block/nope", http.StatusBadRequest), "invalid blockId")
	// The C-chain's blocks are the EVM pages'.
	pageBody(t, h, "/c-chain/block/7", http.StatusNotFound)
}
