package handlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

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
