package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/avadata/avadata/handlers/limits"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
)

// server holds what the endpoint handlers share. It is built once by New and
// only read afterwards, but for the caches that guard themselves.
type server struct {
	*api.Core
	cfg     Config
	backend Backend
	// openAPI is the OpenAPI document, with the configured version filled in.
	openAPI []byte
	// endpoints lists the routing table for the index (GET /).
	endpoints []indexEndpoint
}

// New returns the HTTP handler of the avadata API. The VM registers it under
// both of its handler keys, "" and "/{rest:(?s).*}", so it receives every request
// for /ext/bc/<chainID or alias>[/...]; it strips that prefix itself.
//
// Layout below the base URL {base_url} = /ext/bc/<chainID or alias>:
//
//	GET  /                                  index: name, version, network, endpoints
//	GET  /openapi.json                      OpenAPI 3.1 document of what is served
//	GET  /v1/status                         follower progress
//	POST /rpc                               JSON-RPC 2.0, service "avadata"
//	GET  /metrics/v1/avg_tps/{chainId}      metrics service ({metrics_url} = {base_url}/metrics)
//	...                                     the Data API endpoints of the spec (routes_*.go)
//
// ctrl may be nil; the JSON-RPC follower controls then do not exist. log may
// be nil (nothing is logged) and so may reg (metrics are not exported).
func New(cfg Config, backend Backend, ctrl Controller, log logging.Logger, reg prometheus.Registerer) (*API, error) {
	return newHandler(cfg, backend, ctrl, log, reg, time.Now)
}

// API is the HTTP handler of the avadata API.
type API struct {
	handler http.Handler
	budget  *limits.TimeBudget
}

func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.handler.ServeHTTP(w, r) }

// Idle returns a channel that closes once no request handler is running,
// including handlers that outlived their time budget (whose clients already
// got a 503) and may still read the store. Call it once no new requests
// come in; the store must stay open until it closes.
func (a *API) Idle() <-chan struct{} { return a.budget.Idle() }

// newHandler is New with an injectable clock.
func newHandler(
	cfg Config,
	backend Backend,
	ctrl Controller,
	log logging.Logger,
	reg prometheus.Registerer,
	now func() time.Time,
) (*API, error) {
	if err := checkBackend(backend); err != nil {
		return nil, fmt.Errorf("creating API handler: %w", err)
	}
	if log == nil {
		log = logging.NoLog{}
	}
	cfg = cfg.withDefaults()
	openAPI, err := openAPIDocument(cfg.Version)
	if err != nil {
		return nil, err
	}
	core := api.NewCore(backend.Node, log, now, cfg.Version, cfg.RequestTimeout)
	s := &server{Core: core, cfg: cfg, backend: backend, openAPI: openAPI}

	routes, err := s.routes(ctrl)
	if err != nil {
		return nil, err
	}
	s.endpoints = describeRoutes(routes)
	limiter := limits.NewClientLimiter(cfg.Rates, cfg.APIKeys, now)
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
	return &API{handler: prepareRequests(router, inner), budget: budget}, nil
}

// checkBackend rejects a Backend without the readers every build needs.
// EVMState may be nil: the endpoints that show native balances then answer
// 503.
func checkBackend(b Backend) error {
	switch {
	case b.Node == nil:
		return errors.New("backend has no Node view")
	case b.Metrics == nil:
		return errors.New("backend has no Metrics reader")
	case b.EVM == nil:
		return errors.New("backend has no EVM reader")
	}
	return nil
}

// routes is the routing table.
func (s *server) routes(ctrl Controller) ([]api.Route, error) {
	rpcHandler, err := newRPCHandler(s, ctrl)
	if err != nil {
		return nil, err
	}
	routes := []api.Route{
		{Name: "index", Method: http.MethodGet, Path: "/", Summary: "this index", Handler: s.Adapt(s.serveIndex)},
		{Name: "openapi", Method: http.MethodGet, Path: "/openapi.json", Summary: "OpenAPI 3.1 document", Handler: s.Adapt(s.serveOpenAPI)},
		{Name: "status", Method: http.MethodGet, Path: "/v1/status", Summary: "follower progress", Handler: s.Adapt(s.serveStatus)},
		{Name: "rpc", Method: http.MethodPost, Path: "/rpc", Summary: "JSON-RPC 2.0 (avadata.status, avadata.pauseFollower, avadata.resumeFollower)", Handler: rpcHandler},
	}
	b := s.backend
	routes = append(routes, newMetricsRoutes(s.Core, b.Metrics)...)
	routes = append(routes, newSigAggRoutes(s.Core, b.SigAgg)...)
	routes = append(routes, newEVMRoutes(s.Core, s.cfg.EVM, b.EVM, b.EVMState)...)
	routes = append(routes, newPrimaryRoutes(s.Core, b.Primary, b.Staking, b.Platform, b.Vertices)...)
	return routes, nil
}

// newRouter builds the gorilla/mux router of routes. Path cleaning is off:
// gorilla would answer "//" or "/a/../b" with a redirect, which neither
// carries a JSON body nor means anything for this API.
//
// Templates are matched whole (gorilla anchors them and a variable never
// spans a "/"), so literal suffixes such as "transactions:listStaking" and
// the plain "transactions" never shadow each other.
func newRouter(routes []api.Route) *mux.Router {
	router := mux.NewRouter().SkipClean(true)
	for _, rt := range routes {
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
