package serve

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/limits"
)

// New serves routes through the whole request path: route names,
// metrics, panics, rate limits, body bounds and time budgets. log may be nil
// (nothing is logged) and so may reg (metrics are not exported).
func New(cfg Config, routes []api.Route, log logging.Logger, reg prometheus.Registerer) (*Handler, error) {
	if log == nil {
		log = logging.NoLog{}
	}
	cfg = cfg.WithDefaults()
	limiter := limits.NewClientLimiter(cfg.Rates, cfg.APIKeys, cfg.clock())
	metrics, err := newAPIMetrics(reg, limiter.AnonymousClients)
	if err != nil {
		return nil, err
	}
	router := newRouter(routes)
	budget := limits.NewTimeBudget(cfg.RequestTimeout, log)

	// Outside in: name the route, count and time the request, turn panics
	// into 500s, then the cheap refusals (key, rate, body size) before the
	// time budget starts a goroutine for the route's handler.
	inner := observeRequests(log, metrics, recoverPanics(log,
		limiter.Middleware(limits.LimitBodies(cfg.MaxBodyBytes, budget.Middleware(router)))))
	return &Handler{handler: prepareRequests(router, inner), budget: budget}, nil
}

// Handler is the HTTP handler of the avadata API.
type Handler struct {
	handler http.Handler
	budget  *limits.TimeBudget
}

func (a *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.handler.ServeHTTP(w, r) }

// Idle returns a channel that closes once no request handler is running,
// including handlers that outlived their time budget (whose clients already
// got a 503) and may still read the store. Call it once no new requests
// come in; the store must stay open until it closes.
func (a *Handler) Idle() <-chan struct{} { return a.budget.Idle() }

// NewRouter is the router of routes alone, without the request path around
// it (names, metrics, limits, budgets): for calls made in process by a
// handler whose own request already went through it (the explorer's
// pages). Its replies are the routes' own, the content type included.
func NewRouter(routes []api.Route) http.Handler {
	router := newRouter(routes)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", api.ContentTypeJSON)
		router.ServeHTTP(w, r)
	})
}

// newRouter builds the gorilla/mux router of routes. Path cleaning is off:
// gorilla would answer "//" or "/a/../b" with a redirect, which neither
// carries a JSON body nor means anything for this API.
//
// Templates are matched whole (gorilla anchors them and a variable never
// spans a "/"), so literal suffixes such as "transactions:listStaking" and
// the plain "transactions" never shadow each other.
//
// Gorilla tries routes in the order they were added and takes the first
// that matches, so /v1/chains/{chainId} added before /v1/chains/allBlocks
// would take "allBlocks" for a chain id. Routes are therefore added most
// specific first (bySpecificity): a literal segment wins over a variable.
func newRouter(routes []api.Route) *mux.Router {
	router := mux.NewRouter().SkipClean(true)
	for _, rt := range bySpecificity(routes) {
		router.Handle(rt.Path, rt.Handler).Methods(rt.Method).Name(rt.Name)
	}
	allowed := newAllowedMethods(routes)
	router.NotFoundHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.WriteError(w, r, http.StatusNotFound, fmt.Sprintf("no route for %s %s; see GET / for the endpoints", r.Method, r.URL.Path))
	})
	router.MethodNotAllowedHandler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		methods := allowed.of(r)
		w.Header().Set("Allow", strings.Join(methods, ", "))
		api.WriteError(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed on %s; allowed: %s",
			r.Method, r.URL.Path, strings.Join(methods, ", ")))
	})
	return router
}

// bySpecificity returns routes ordered so that, of two templates that can
// match one path, the more specific comes first: segment by segment, a
// literal ("allBlocks") before a variable with a literal part
// ("{tokenId}:reindex") before a bare variable ("{chainId}"). Two templates
// can only match one path if they have as many segments (a variable never
// spans a "/"), so comparing the segments' kinds in order is enough; the
// sort is stable, so routes of one shape keep the table's order.
func bySpecificity(routes []api.Route) []api.Route {
	sorted := slices.Clone(routes)
	slices.SortStableFunc(sorted, func(a, b api.Route) int {
		return slices.Compare(segmentKinds(a.Path), segmentKinds(b.Path))
	})
	return sorted
}

// Kinds of template segments, most specific first. A variable whose
// pattern may span "/" (a catch-all such as {rest:.*}) matches paths with
// any number of segments, so it comes after everything: by kind alone, a
// shorter template would sort before the longer ones it shares a prefix
// with and shadow them.
const (
	segmentLiteral = iota
	segmentMixed
	segmentVariable
	segmentRest
)

func segmentKinds(template string) []int {
	segments := strings.Split(template, "/")
	kinds := make([]int, len(segments))
	for i, seg := range segments {
		switch {
		case strings.Contains(seg, ".*}"):
			kinds[i] = segmentRest
		case !strings.Contains(seg, "{"):
			kinds[i] = segmentLiteral
		case strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") && strings.Count(seg, "{") == 1:
			kinds[i] = segmentVariable
		default:
			kinds[i] = segmentMixed
		}
	}
	return kinds
}

// allowedMethods answers which methods the routes serve on a path, for the
// Allow header of 405 replies.
type allowedMethods []pathMethods

type pathMethods struct {
	route   *mux.Route // matches the path template, any method
	methods []string
}

func newAllowedMethods(routes []api.Route) allowedMethods {
	matcher := mux.NewRouter().SkipClean(true)
	var out allowedMethods
	index := make(map[string]int)
	for _, rt := range routes {
		i, seen := index[rt.Path]
		if !seen {
			i = len(out)
			index[rt.Path] = i
			out = append(out, pathMethods{route: matcher.NewRoute().Path(rt.Path)})
		}
		if !slices.Contains(out[i].methods, rt.Method) {
			out[i].methods = append(out[i].methods, rt.Method)
		}
	}
	return out
}

// of returns the methods served on r's path, sorted.
func (a allowedMethods) of(r *http.Request) []string {
	var methods []string
	for _, pm := range a {
		var match mux.RouteMatch
		if pm.route.Match(r, &match) {
			for _, m := range pm.methods {
				if !slices.Contains(methods, m) {
					methods = append(methods, m)
				}
			}
		}
	}
	slices.Sort(methods)
	return methods
}

// prepareRequests is the outermost layer: it strips the node's
// /ext/bc/<chain> prefix, names the route for logs and metrics before anything
// else runs (so even rejected requests are labelled), and makes JSON the
// default content type of every reply.
func prepareRequests(router *mux.Router, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := api.StripChainPrefix(r.URL.Path)
		info := &api.RequestInfo{MetricsService: api.IsMetricsPath(path)}
		if base := strings.TrimSuffix(r.URL.Path, path); base != r.URL.Path {
			info.Base = base
		}
		r = r.WithContext(api.WithRequestInfo(r.Context(), info))
		u := *r.URL
		u.Path, u.RawPath = path, ""
		r.URL = &u
		info.Route = routeName(router, r)

		w.Header().Set("Content-Type", api.ContentTypeJSON)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// routeName returns the name of the route r matches, or a pseudo route.
func routeName(router *mux.Router, r *http.Request) string {
	var match mux.RouteMatch
	if router.Match(r, &match) && match.Route != nil {
		return match.Route.GetName()
	}
	if errors.Is(match.MatchErr, mux.ErrMethodMismatch) {
		return api.RouteMethodNotAllowed
	}
	return api.RouteNotFound
}
