package handlers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Request bodies are bounded twice: Config.MaxBodyBytes on every route
// (limitBodies), and a smaller bound of its own on each route that reads a
// body (readBody). Either way a body over the bound is a 413 in the spec's
// error body, never a body read into memory whole.
//
// On a plain HTTP/1.1 request the node has read the whole body before the
// plugin sees it (avalanchego v1.14.2, vms/rpcchainvm/ghttp/http_client.go,
// getHTTPSimpleRequest), and Content-Length is then its exact size, so the
// check on Content-Length answers at once. On HTTP/2 the body streams and
// may have no length; the reader bound catches it.

// limitBodies rejects bodies over maxBytes on every route.
func limitBodies(maxBytes int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > maxBytes {
			tooLarge := bodyTooLarge(maxBytes)
			writeErrorStatus(w, r, tooLarge.status, tooLarge.message)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxBytes)
		}
		next.ServeHTTP(w, r)
	})
}

// readBody reads r's body, at most limit bytes; a longer body, or one over
// the bound of every route, is a 413.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, bodyTooLarge(limit)
	}
	if r.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	var overAll *http.MaxBytesError
	switch {
	case errors.As(err, &overAll):
		return nil, bodyTooLarge(overAll.Limit)
	case err != nil:
		return nil, badRequest("reading the request body failed: %v", err)
	case int64(len(body)) > limit:
		return nil, bodyTooLarge(limit)
	}
	return body, nil
}

func bodyTooLarge(limit int64) *apiError {
	return newAPIError(http.StatusRequestEntityTooLarge, "request body too large: the limit is %s", byteCount(limit))
}

// byteCount writes n as bytes, with KiB or MiB when exact.
func byteCount(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d bytes (%d KiB)", n, n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
