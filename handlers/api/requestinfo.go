package api

import (
	"context"
	"strings"
)

// RequestInfo is what the outer layers learn about a request before routing
// and what inner layers (error writer, logging, metrics) need back. It lives
// in the request context, one per request.
type RequestInfo struct {
	// route is the name of the matched route, or one of the pseudo routes
	// below; it labels metrics and logs.
	Route string
	// Base is the node's /ext/bc/<chainID or alias> prefix the request came
	// under ("" if none): pages link below it.
	Base string
	// MetricsService is true for paths under the metrics base ({metrics_url}
	// = {base_url}/metrics), whose error bodies carry message as []string.
	MetricsService bool
	// client says how the rate limiter told the client (empty if the
	// request never reached it); it labels a metric.
	Client ClientSource
	// APIKey is the configured API key the request carries, set by the
	// rate limiter (the one reader of the key headers) when it knows the
	// key; operations that only some keys may use check it. Never logged.
	APIKey string
}

// Pseudo route names for requests that matched no route.
const (
	RouteNotFound         = "notFound"
	RouteMethodNotAllowed = "methodNotAllowed"
)

// MetricsPrefix is the path of the metrics service relative to the base URL.
const MetricsPrefix = "/metrics"

type requestInfoKey struct{}

func WithRequestInfo(ctx context.Context, info *RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

// RequestInfoFrom returns the request's info, or an empty one for requests
// that did not go through the outer handler (direct calls in tests).
func RequestInfoFrom(ctx context.Context) *RequestInfo {
	if info, ok := ctx.Value(requestInfoKey{}).(*RequestInfo); ok {
		return info
	}
	return &RequestInfo{}
}

// IsMetricsPath reports whether path (already stripped of /ext/bc/<id>)
// addresses the metrics service.
func IsMetricsPath(path string) bool {
	return path == MetricsPrefix || strings.HasPrefix(path, MetricsPrefix+"/")
}

// StripChainPrefix removes the node's "/ext/bc/<chainID or alias>" prefix.
// The node hands the plugin the full request path, and the chain segment
// varies (cb58 ID or any alias), so http.StripPrefix cannot do this. Paths
// without the prefix are served as they are, which is what tests use.
func StripChainPrefix(path string) string {
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

// ClientSource says how a request's client was found; it labels a metric
// and names the client in a 429's message.
type ClientSource string

const (
	SourcePeer        ClientSource = "peer"         // the node passed the peer's address
	SourceForwarded   ClientSource = "forwarded"    // from a trusted proxy's X-Forwarded-For
	SourceUnknownPeer ClientSource = "unknown_peer" // no address: one shared bucket
	SourceAPIKey      ClientSource = "api_key"      // a known API key; no address needed
)
