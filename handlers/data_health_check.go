package handlers

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/follower"
)

// GET /v1/health-check (data-health-check): avadata's health, by the rules
// of the node's health check (vm/health.go), in the hosted API's
// HealthCheckResultDto: one indicator per followed chain (and the
// signature aggregator when it runs), up or down with the reason (the
// follower stopped, is stuck, or lags past maxLagBlocks) and the
// follower's heights. Like the hosted service (NestJS Terminus), a healthy
// avadata answers 200 with status "ok", an unhealthy one 503 with status
// "error" and the same body, so a load balancer can probe it; "shutting_down"
// once the VM is stopping.
//
// The health comes from the followers' state the VM keeps, not from the
// index, so the reply reads no stream (no X-Indexed-Height).

// Route names of the service's health operations (the hosted API's
// operationIds, dashes and all).
const (
	routeDataHealthCheck = "data-health-check"
	routeLiveCheck       = "live-check"
)

// HealthReporter judges avadata's health: the VM, by its maxLagBlocks and
// stuckAfter and what it runs besides the followers.
type HealthReporter interface {
	// Health reports every indicator.
	Health() []HealthIndicator
	// ShuttingDown is true once the VM has begun to stop.
	ShuttingDown() bool
}

// HealthIndicator is one part of avadata's health.
type HealthIndicator struct {
	Name string
	// Problem says why it is unhealthy; "" when it is healthy.
	Problem string
	// Details are what the node's health check shows of it: a
	// follower.Status for a follower.
	Details any
}

// Health statuses (HealthCheckResultDto.status, HealthIndicatorResultDto.status).
const (
	healthOK           = "ok"
	healthError        = "error"
	healthShuttingDown = "shutting_down"
	indicatorUp        = "up"
	indicatorDown      = "down"
)

// healthCheckResult is the OpenAPI's HealthCheckResultDto: info holds the
// indicators that are up, error those that are down, details all of them.
type healthCheckResult struct {
	Status  string                     `json:"status"`
	Info    map[string]healthIndicator `json:"info"`
	Error   map[string]healthIndicator `json:"error"`
	Details map[string]healthIndicator `json:"details"`
}

// healthIndicator is the OpenAPI's HealthIndicatorResultDto, with the
// follower's heights and, when down, why.
type healthIndicator struct {
	Status        string  `json:"status"`
	Message       string  `json:"message,omitempty"`
	IndexedHeight *uint64 `json:"indexedHeight,omitempty"`
	NodeHeight    *uint64 `json:"nodeHeight,omitempty"`
	Lag           *uint64 `json:"lag,omitempty"`
	// HistoryFrom is the chain's first indexed block, and History says it
	// in words, when the index starts above genesis (follower.HistoryWords).
	HistoryFrom *uint64 `json:"historyFrom,omitempty"`
	History     string  `json:"history,omitempty"`
}

// newHealthCheckResult sorts the indicators into a result; status is
// "error" when any is down.
func newHealthCheckResult(indicators []HealthIndicator, shuttingDown bool) healthCheckResult {
	res := healthCheckResult{
		Status:  healthOK,
		Info:    map[string]healthIndicator{},
		Error:   map[string]healthIndicator{},
		Details: map[string]healthIndicator{},
	}
	for _, ind := range indicators {
		out := healthIndicator{Status: indicatorUp}
		if s, ok := ind.Details.(follower.Status); ok {
			out.IndexedHeight, out.NodeHeight, out.Lag = &s.IndexedHeight, &s.NodeHeight, &s.Lag
			if words := follower.HistoryWords(s); words != "" {
				out.HistoryFrom, out.History = &s.HistoryFrom, words
			}
		}
		res.Details[ind.Name] = out
		if ind.Problem == "" {
			res.Info[ind.Name] = out
			continue
		}
		out.Status, out.Message = indicatorDown, ind.Problem
		res.Details[ind.Name] = out
		res.Error[ind.Name] = out
		res.Status = healthError
	}
	if shuttingDown {
		res.Status = healthShuttingDown
	}
	return res
}

// writeHealth answers 200 when every indicator is up, 503 otherwise.
func writeHealth(w http.ResponseWriter, res healthCheckResult) {
	status := http.StatusOK
	if res.Status != healthOK {
		status = http.StatusServiceUnavailable
	}
	api.WriteJSON(w, status, res)
}

// servedIndicators judges each follower by whether its chain's data is
// served: up while its follower runs or an operator paused it, down once it
// stopped (live-check, and data-health-check without a HealthReporter).
func servedIndicators(statuses []follower.Status) []HealthIndicator {
	out := make([]HealthIndicator, len(statuses))
	for i, s := range statuses {
		out[i] = HealthIndicator{Name: s.ChainName, Details: s}
		if !s.Running && !s.Paused {
			out[i].Problem = fmt.Sprintf("follower %s is not running: %s", s.ChainName, s.LastError)
		}
	}
	return out
}

func (s *server) serveDataHealthCheck(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	if h := s.backend.Health; h != nil {
		writeHealth(w, newHealthCheckResult(h.Health(), h.ShuttingDown()))
		return nil
	}
	writeHealth(w, newHealthCheckResult(servedIndicators(s.Statuses()), false))
	return nil
}
