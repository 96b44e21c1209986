package handlers

import (
	_ "embed"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// openAPISource is the OpenAPI 3.1 description of what avadata serves now.
// Keep it in step with the routing table (a test compares the two).
//
//go:embed openapi.json
var openAPISource string

// indexResponse is the body of GET / (the bare base URL).
type indexResponse struct {
	Name      string          `json:"name"`
	Version   string          `json:"version"`
	Network   string          `json:"network"`
	Endpoints []indexEndpoint `json:"endpoints"`
}

// indexEndpoint describes one route, with its path relative to the base URL.
type indexEndpoint struct {
	Method  string `json:"method"`
	Path    string `json:"path"`
	Summary string `json:"summary"`
}

// describeRoutes lists the routing table for the index.
func describeRoutes(routes []api.Route) []indexEndpoint {
	endpoints := make([]indexEndpoint, len(routes))
	for i, rt := range routes {
		endpoints[i] = indexEndpoint{Method: rt.Method, Path: rt.Path, Summary: rt.Summary}
	}
	return endpoints
}

// serveIndex handles GET /: a small self-description, so that opening the
// base URL in a browser says what lives there.
func (s *server) serveIndex(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteJSON(w, http.StatusOK, indexResponse{
		Name:      "avadata",
		Version:   s.Version(),
		Network:   s.Network().Name(),
		Endpoints: s.endpoints,
	})
	return nil
}
