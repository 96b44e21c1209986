package primary

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/pdata"
)

// listLatestXChainVerticesRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices (X-chain
// only).
type listLatestXChainVerticesRequest struct {
	Page api.Page
}

func (s *server) parseListLatestXChainVerticesRequest(r *http.Request, heights *api.Heights) (listLatestXChainVerticesRequest, error) {
	var req listLatestXChainVerticesRequest
	var err error
	if _, err = s.ResolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, api.VertexStream)
	req.Page, err = s.ParsePage(r.Context(), heights, r.URL.Query(), api.DataPaging(routeListLatestXChainVertices, false))
	return req, err
}

func (s *server) serveListLatestXChainVertices(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListLatestXChainVerticesRequest(r, heights)
	if err != nil {
		return err
	}
	if err := s.refuseWithoutVertices(r.Context()); err != nil {
		return err
	}
	return s.serveVertices(w, r, req.Page, func(after *uint64, limit int) ([]pdata.Vertex, error) {
		return s.vertices.LatestVertices(r.Context(), after, limit)
	})
}
