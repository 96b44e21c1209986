package explorer

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrimaryAssetPageEscapesItsName(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/assets/" + assetID: jsonOf(t, `{"assetId":"`+assetID+`","name":"`+strings.ReplaceAll(hostileText, `"`, `\"`)+`","symbol":"<b>",
			"denomination":3,"type":"secp256k1","createdAtTimestamp":1700000000,"cap":"fixed"}`),
		primaryAPI + "x-chain/assets/" + assetID + "/transactions": jsonOf(t, `{"transactions":[{"txHash":"`+assetID+`","txType":"CreateAssetTx",
			"blockHeight":2,"timestamp":1700000000}],"chainInfo":{},"nextPageToken":"p2"}`),
	}, nil)
	body := pageBody(t, h, "/x-chain/asset/"+assetID, http.StatusOK)
	require.NotContains(t, body, "<script>")
	require.Contains(t, body, `<td data-field="name">`+escapedText+`</td>`)
	require.Contains(t, body, `<td data-field="symbol">&lt;b&gt;</td>`)
	require.Contains(t, body, `<td data-field="cap">fixed</td>`)
	require.Contains(t, body, explorerLink("/x-chain/tx/"+assetID))
	require.Contains(t, body, explorerLink("/x-chain/block/2"))
	require.Contains(t, body, `?page=p2"`)
	pageBody(t, h, "/x-chain/asset/"+txID1, http.StatusNotFound)
	pageBody(t, h, "/p-chain/asset/"+assetID, http.StatusNotFound)
}
