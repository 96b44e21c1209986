package limits

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// Request bodies are bounded twice: Config.MaxBodyBytes on every route
// (LimitBodies), and a smaller bound of its own on each route that reads a
// body (ReadBody). Either way a body over the bound is a 413 in the spec's
// error body, never a body read into memory whole.
//
// On a plain HTTP/1.1 request the node has read the whole body before the
// plugin sees it (avalanchego v1.14.2, vms/rpcchainvm/ghttp/http_client.go,
// getHTTPSimpleRequest), and Content-Length is then its exact size, so the
// check on Content-Length answers at once. On HTTP/2 the body streams and
// may have no length; the reader bound catches it.

// LimitBodies rejects bodies over maxBytes on every route.
func LimitBodies(maxBytes int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxBytes {
			tooLarge := api.BodyTooLarge(maxBytes)
			api.WriteError(w, r, tooLarge.Status, tooLarge.Message)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
		}
		next.ServeHTTP(w, r)
	})
}
