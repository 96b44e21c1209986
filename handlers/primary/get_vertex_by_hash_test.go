package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

const xVertexPath = "/v1/networks/local/blockchains/x-chain/vertices/"

func TestGetVertexByHash(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.Vertices = handlertest.FixtureVertices()
	srv := newTestAPI(t, handlertest.Config(), backend)
	listed := handlertest.Objects(t, srv.GetBody(t, "/v1/networks/local/blockchains/x-chain/vertices?pageSize=100")["vertices"])
	require.Len(t, listed, 5)
	for _, want := range listed {
		require.Equal(t, want, srv.GetBody(t, xVertexPath+want["vertexHash"].(string)), "vertex %v is the listed vertex", want["vertexIndex"])
	}
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Failing("unknown vertex", xVertexPath+ids.ID{'?'}.String(), http.StatusNotFound, "no X-chain vertex with ID"),
		handlertest.Failing("a tx ID", xVertexPath+ids.ID{'t', 1}.String(), http.StatusNotFound, "no X-chain vertex with ID"),
		handlertest.Invalid("malformed", xVertexPath+"notavertex", "invalid vertexHash 'notavertex'", "cb58"),
		handlertest.Invalid("p-chain", "/v1/networks/local/blockchains/p-chain/vertices/"+ids.ID{'v', 1}.String(), "blockchainId", "not supported"),
		handlertest.Invalid("c-chain", "/v1/networks/local/blockchains/c-chain/vertices/"+ids.ID{'v', 1}.String(), "blockchainId", "not supported"),
		handlertest.Invalid("other network", "/v1/networks/mainnet/blockchains/x-chain/vertices/"+ids.ID{'v', 1}.String(), "network"),
	})
}

func TestGetVertexByHashWithoutReader(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Failing("no vertex follower", xVertexPath+ids.ID{'v', 1}.String(), http.StatusNotFound, "follows no DAG vertices"),
	})
}
