package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/explorer"
	"github.com/avadata/avadata/handlers/metrics"
	"github.com/avadata/avadata/handlers/operations"
	"github.com/avadata/avadata/handlers/primary"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/handlers/sigagg"
	"github.com/avadata/avadata/handlers/webhooks"
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
//	GET  /explorer/                         the explorer: HTML pages for people (handlers/explorer)
//	...                                     every domain's operations (doc.go lists them all)
//
// ctrl may be nil; the JSON-RPC follower controls then do not exist. log may
// be nil (nothing is logged) and so may reg (metrics are not exported).
func New(cfg Config, backend Backend, ctrl Controller, log logging.Logger, reg prometheus.Registerer) (*serve.Handler, error) {
	if err := checkBackend(backend); err != nil {
		return nil, fmt.Errorf("creating API handler: %w", err)
	}
	if log == nil {
		log = logging.NoLog{}
	}
	cfg.Config = cfg.Config.WithDefaults()
	openAPI, err := openAPIDocument(cfg.Version)
	if err != nil {
		return nil, err
	}
	core := serve.NewCore(cfg.Config, backend.Node, log)
	s := &server{Core: core, cfg: cfg, backend: backend, openAPI: openAPI}

	routes, err := s.routes(ctrl)
	if err != nil {
		return nil, err
	}
	s.endpoints = describeRoutes(routes)
	return serve.New(cfg.Config, routes, log, reg)
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
	hooks := webhooks.NewService(s.Core, s.cfg.Webhooks, s.backend.Webhooks)
	rpcHandler, err := newRPCHandler(s, ctrl, hooks)
	if err != nil {
		return nil, err
	}
	routes := []api.Route{
		{Name: "index", Method: http.MethodGet, Path: "/", Summary: "this index", Handler: s.Adapt(s.serveIndex)},
		{Name: "openapi", Method: http.MethodGet, Path: "/openapi.json", Summary: "OpenAPI 3.1 document", Handler: s.Adapt(s.serveOpenAPI)},
		{Name: "status", Method: http.MethodGet, Path: "/v1/status", Summary: "follower progress", Handler: s.Adapt(s.serveStatus)},
		{Name: "rpc", Method: http.MethodPost, Path: "/rpc", Summary: "JSON-RPC 2.0 (avadata.status, avadata.pauseFollower, avadata.resumeFollower, avadata.exportWebhooks, avadata.importWebhooks)", Handler: rpcHandler},
		{Name: routeDataHealthCheck, Method: http.MethodGet, Path: "/v1/health-check", Summary: "health of avadata's followers", Handler: s.Adapt(s.serveDataHealthCheck)},
		{Name: routeLiveCheck, Method: http.MethodGet, Path: "/v1/live-check", Summary: "liveness of avadata (reads only)", Handler: s.Adapt(s.serveLiveCheck)},
	}
	b := s.backend
	routes = append(routes, metrics.Routes(s.Core, b.Metrics)...)
	routes = append(routes, metrics.HealthRoutes(s.Core, b.Health)...)
	routes = append(routes, sigagg.Routes(s.Core, b.SigAgg)...)
	routes = append(routes, evm.Routes(s.Core, s.cfg.EVM, b.EVM, b.EVMState)...)
	routes = append(routes, primary.Routes(s.Core, b.Primary, b.Staking, b.Platform, b.Vertices)...)
	routes = append(routes, operations.Routes(s.Core, b.Exports)...)
	routes = append(routes, hooks.Routes()...)

	// The explorer's pages read through the API's routes (not their own).
	pages, err := explorer.Routes(s.Core, s.cfg.Explorer, serve.NewRouter(routes),
		explorer.Readers{Tokens: b.Tokens, Logs: b.Logs, Holders: b.Holders})
	if err != nil {
		return nil, err
	}
	routes = append(routes, pages...)
	return routes, nil
}
