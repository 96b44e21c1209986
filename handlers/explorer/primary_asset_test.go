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
		primaryAPI + "x-chain/transactions/" + assetID: jsonOf(t, `{"txHash":"`+assetID+`","txType":"CreateAssetTx"}`),
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

// A genesis asset (AVAX) was created by no transaction the API has: the
// page links none.
func TestPrimaryAssetPageOfAGenesisAsset(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/assets/" + assetID: jsonOf(t, `{"assetId":"`+assetID+`","name":"Avalanche","symbol":"AVAX",
			"denomination":9,"type":"secp256k1","createdAtTimestamp":1599696000,"cap":"fixed"}`),
		primaryAPI + "x-chain/assets/" + assetID + "/transactions": jsonOf(t, `{"transactions":[],"chainInfo":{}}`),
	}, nil)
	body := pageBody(t, h, "/x-chain/asset/"+assetID, http.StatusOK)
	require.NotContains(t, body, explorerLink("/x-chain/tx/"+assetID))
	require.Contains(t, body, "in the network's genesis")
}
