package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// primaryVertexData is what an X-chain vertex's page shows.
type primaryVertexData struct {
	primaryPage
	// Vertex is getVertexByHash's reply.
	Vertex object
}

// servePrimaryVertex draws /x-chain/vertex/{vertexHash}: a vertex of the
// pre-Cortina DAG, where the node keeps them (elsewhere the API's 404).
func (s *server) servePrimaryVertex(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOf("x-chain")
	if err != nil {
		return view{}, err
	}
	id := api.PathVar(r, "vertexHash")
	vertex, err := s.get(r.Context(), primaryCall(req, p, nil, "vertices", id))
	if err != nil {
		return view{}, err
	}
	return view{Template: "primary_vertex", Title: "X-Chain vertex " + short(id), Data: primaryVertexData{primaryPage: p, Vertex: vertex}}, nil
}
