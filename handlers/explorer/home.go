package explorer

import (
	"net/http"
)

// homeData is what the home page shows.
type homeData struct {
	// Status is the API's /v1/status reply: the followed chains.
	Status object
}

// serveHome draws the home page: every followed chain with its height and
// catch-up progress.
func (s *server) serveHome(r *http.Request, req *request) (view, error) {
	status, err := s.get(r.Context(), call(nil, "v1", "status"))
	if err != nil {
		return view{}, err
	}
	return view{Template: "home", Title: "Home", Data: homeData{Status: status}}, nil
}
