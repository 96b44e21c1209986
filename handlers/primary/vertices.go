package primary

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices
// (listLatestXChainVertices) and .../vertices:listByHeight (getVertexByHeight):
// the X-chain's pre-Cortina DAG vertices, newest (highest acceptance index)
// first, or those of one DAG height in the requested order of acceptance. The
// token carries the acceptance index of the page's last vertex. vertexTimestamp
// is the time the host node accepted the vertex (DAG vertices carry none): on a
// node that bootstrapped the DAG, its bootstrap time.

// xChainVertex is the OpenAPI's XChainVertex.
type xChainVertex struct {
	VertexHash      string   `json:"vertexHash"`
	ParentHashes    []string `json:"parentHashes"`
	VertexHeight    uint64   `json:"vertexHeight"`
	VertexIndex     uint64   `json:"vertexIndex"`
	VertexTimestamp int64    `json:"vertexTimestamp"`
	TxCount         int      `json:"txCount"`
	Transactions    []string `json:"transactions"`
	VertexSizeBytes int      `json:"vertexSizeBytes"`
}

// listXChainVerticesResponse is the OpenAPI's ListXChainVerticesResponse.
type listXChainVerticesResponse struct {
	NextPageToken string           `json:"nextPageToken,omitempty"`
	Vertices      []xChainVertex   `json:"vertices"`
	ChainInfo     primaryChainInfo `json:"chainInfo"`
}

// serveVertices reads one page of vertices through list (one more than the
// page, to know whether another follows) and writes it.
func (s *server) serveVertices(w http.ResponseWriter, r *http.Request, pg api.Page,
	list func(after *uint64, limit int) ([]pdata.Vertex, error),
) error {
	after, err := api.ResumeAfter(pg, decodeBlockHeight)
	if err != nil {
		return err
	}
	resp := listXChainVerticesResponse{Vertices: []xChainVertex{}, ChainInfo: newPrimaryChainInfo(r, netinfo.X)}
	if s.vertices != nil {
		vertices, err := list(after, pg.Size+1)
		if err != nil {
			return fmt.Errorf("listing X-chain vertices: %w", err)
		}
		vertices, more := api.TrimPage(vertices, pg.Size)
		if more {
			last := vertices[len(vertices)-1].Index
			if resp.NextPageToken, err = s.NextPageToken(pg, int64(last), encodeBlockHeight(last)); err != nil {
				return err
			}
		}
		for i := range vertices {
			resp.Vertices = append(resp.Vertices, shapeVertex(&vertices[i]))
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// shapeVertex renders a vertex; IDs are cb58.
func shapeVertex(v *pdata.Vertex) xChainVertex {
	out := xChainVertex{
		VertexHash:      v.ID.String(),
		ParentHashes:    make([]string, len(v.ParentIDs)),
		VertexHeight:    v.DAGHeight,
		VertexIndex:     v.Index,
		VertexTimestamp: v.Timestamp,
		TxCount:         len(v.TxIDs),
		Transactions:    make([]string, len(v.TxIDs)),
		VertexSizeBytes: v.Size,
	}
	for i, id := range v.ParentIDs {
		out.ParentHashes[i] = id.String()
	}
	for i, id := range v.TxIDs {
		out.Transactions[i] = id.String()
	}
	return out
}
