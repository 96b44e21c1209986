package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"go.uber.org/zap"
)

// Route is one entry of the routing table. The same table drives the router,
// the index at GET / and the route names in metrics, so they cannot drift.
type Route struct {
	Name    string
	Method  string
	Path    string // gorilla/mux template, relative to the base URL
	Summary string
	Handler http.Handler
	// Page marks a page of the explorer (handlers/explorer): HTML for
	// people, not an operation of the API, so the OpenAPI document does
	// not describe it.
	Page bool
}

// Handler is an endpoint that returns its failure instead of writing it,
// so every endpoint reports errors the same way. heights is where it records
// which heights of the index its reply reflects (heights.go).
type Handler func(w http.ResponseWriter, r *http.Request, heights *Heights) error

// Adapt turns a Handler into an http.Handler that writes returned errors
// as spec error bodies. Internal errors are logged, not shown to clients.
// Every reply says which heights of the index it reflects (X-Indexed-Height,
// see heights.go).
func (c *Core) Adapt(h Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heights := &Heights{}
		w = &indexedHeightWriter{ResponseWriter: w, heights: heights}
		err := h(w, r, heights)
		if err == nil {
			return
		}
		setRetryAfter(w, err)
		apiErr, internal := ToError(err, c.requestTimeout)
		if internal {
			c.log.Warn("API request failed",
				zap.String("method", r.Method),
				zap.String("path", r.URL.Path),
				zap.Error(err),
			)
		}
		WriteError(w, r, apiErr.Status, apiErr.Message)
	})
}

// NotServedYet is the reply of every recognised endpoint this version does
// not serve yet: a 404 that names the endpoint and the version, so clients
// can tell it from a mistyped URL.
func (c *Core) NotServedYet(r *http.Request) error {
	path := r.URL.Path
	if route := mux.CurrentRoute(r); route != nil {
		if tpl, err := route.GetPathTemplate(); err == nil {
			path = tpl
		}
	}
	return NewError(http.StatusNotFound, "%s %s is not served by avadata %s yet", r.Method, path, c.version)
}
