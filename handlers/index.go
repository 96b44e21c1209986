package handlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// openAPISource is the OpenAPI 3.1 description of what avadata serves now.
// Keep it in step with the routing table (a test compares the two).
//
//go:embed openapi.json
var openAPISource string

// openAPIDocument returns the embedded OpenAPI document with info.version set
// to the running version. Parsing it here also makes a broken document fail
// at startup rather than on the first request.
func openAPIDocument(version string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(openAPISource), &doc); err != nil {
		return nil, fmt.Errorf("parsing embedded openapi.json: %w", err)
	}
	info, ok := doc["info"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("embedded openapi.json has no info object")
	}
	info["version"] = version
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encoding openapi.json: %w", err)
	}
	return out, nil
}

// serveOpenAPI handles GET /openapi.json.
func (s *server) serveOpenAPI(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	w.Header().Set("Content-Type", api.ContentTypeJSON)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(s.openAPI)
	return nil
}

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
