package primary

import (
	"net/http"
	"strconv"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/pdata"
)

// getVertexByHeightRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight
// (X-chain only).
type getVertexByHeightRequest struct {
	VertexHeight uint64
	Page         api.Page
}

func (s *server) parseGetVertexByHeightRequest(r *http.Request, heights *api.Heights) (getVertexByHeightRequest, error) {
	var req getVertexByHeightRequest
	var err error
	if _, err = s.ResolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, api.VertexStream)
	q := r.URL.Query()
	if req.VertexHeight, err = api.ParseRequiredUint(q, paramVertexHeight); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeGetVertexByHeight, true), strconv.FormatUint(req.VertexHeight, 10))
	return req, err
}

func (s *server) serveGetVertexByHeight(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetVertexByHeightRequest(r, heights)
	if err != nil {
		return err
	}
	if err := s.refuseWithoutVertices(r.Context()); err != nil {
		return err
	}
	desc := req.Page.Order == api.SortDesc
	return s.serveVertices(w, r, req.Page, func(after *uint64, limit int) ([]pdata.Vertex, error) {
		return s.vertices.VerticesAtHeight(r.Context(), req.VertexHeight, desc, after, limit)
	})
}
