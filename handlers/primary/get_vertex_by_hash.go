package primary

import (
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}
// (getVertexByHash): one of the X-chain's pre-Cortina DAG vertices by its
// ID, shaped as the vertex listings shape it.

const paramVertexHash = "vertexHash"

// getVertexByHashRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}
// (X-chain only).
type getVertexByHashRequest struct {
	VertexID ids.ID
}

func (s *server) parseGetVertexByHashRequest(r *http.Request, heights *api.Heights) (getVertexByHashRequest, error) {
	var req getVertexByHashRequest
	var err error
	if _, err = s.ResolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, api.VertexStream)
	req.VertexID, err = api.ParseCB58ID(paramVertexHash, api.PathVar(r, paramVertexHash))
	return req, err
}

func (s *server) serveGetVertexByHash(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetVertexByHashRequest(r, heights)
	if err != nil {
		return err
	}
	if err := s.refuseWithoutVertices(r.Context()); err != nil {
		return err
	}
	if s.vertices == nil {
		return api.NotFound("no X-chain vertex with ID %s is indexed: this node follows no DAG vertices", req.VertexID)
	}
	v, found, err := s.vertices.VertexByID(r.Context(), req.VertexID)
	if err != nil {
		return fmt.Errorf("reading X-chain vertex %s: %w", req.VertexID, err)
	}
	if !found {
		return api.NotFound("no X-chain vertex with ID %s is indexed", req.VertexID)
	}
	api.WriteJSON(w, http.StatusOK, shapeVertex(&v))
	return nil
}
