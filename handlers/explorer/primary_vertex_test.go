package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestPrimaryVertexPage(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/vertices/" + blockID1: jsonOf(t, `{"vertexHash":"`+blockID1+`","parentHashes":["`+blockID0+`"],
			"vertexHeight":3,"vertexIndex":4,"vertexTimestamp":1600000000,"txCount":1,"transactions":["`+txID1+`"],"vertexSizeBytes":90}`),
		primaryAPI + "x-chain/vertices/" + blockID0: &api.Error{Status: http.StatusNotFound,
			Message: "no X-chain vertex with ID " + blockID0 + " is indexed: this node follows no DAG vertices"},
	}, nil)
	body := pageBody(t, h, "/x-chain/vertex/"+blockID1, http.StatusOK)
	require.Contains(t, body, `<td data-field="height">3</td>`)
	require.Contains(t, body, explorerLink("/x-chain/vertex/"+blockID0))
	require.Contains(t, body, explorerLink("/x-chain/tx/"+txID1))
	require.Contains(t, pageBody(t, h, "/x-chain/vertex/"+blockID0, http.StatusNotFound), "this node follows no DAG vertices")
}
