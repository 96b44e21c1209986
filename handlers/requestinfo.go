package handlers

import (
	"context"
	"strings"
)

// requestInfo is what the outer layers learn about a request before routing
// and what inner layers (error writer, logging, metrics) need back. It lives
// in the request context, one per request.
type requestInfo struct {
	// route is the name of the matched route, or one of the pseudo routes
	// below; it labels metrics and logs.
	route string
	// metricsService is true for paths under the metrics base ({metrics_url}
	// = {base_url}/metrics), whose error bodies carry message as []string.
	metricsService bool
	// client says how the rate limiter told the client (empty if the
	// request never reached it); it labels a metric.
	client clientSource
}

// Pseudo route names for requests that matched no route.
const (
	routeNotFound         = "notFound"
	routeMethodNotAllowed = "methodNotAllowed"
)

// metricsPrefix is the path of the metrics service relative to the base URL.
const metricsPrefix = "/metrics"

type requestInfoKey struct{}

func withRequestInfo(ctx context.Context, info *requestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// requestInfoFrom returns the request's info, or an empty one for requests
// that did not go through the outer handler (direct calls in tests).
func requestInfoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(requestInfoKey{}).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// isMetricsPath reports whether path (already stripped of /ext/bc/<id>)
// addresses the metrics service.
func isMetricsPath(path string) bool {
	return path == metricsPrefix || strings.HasPrefix(path, metricsPrefix+"/")
}

// stripChainPrefix removes the node's "/ext/bc/<chainID or alias>" prefix.
// The node hands the plugin the full request path, and the chain segment
// varies (cb58 ID or any alias), so http.StripPrefix cannot do this. Paths
// without the prefix are served as they are, which is what tests use.
func stripChainPrefix(path string) string {
	const nodePrefix = "/ext/bc/"
	if !strings.HasPrefix(path, nodePrefix) {
		if path == "" {
			return "/"
		}
		return path
	}
	rest := path[len(nodePrefix):]
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return "/" // "/ext/bc/<id>": the bare base URL
	}
	return rest[slash:]
}
