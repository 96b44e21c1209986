package api

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/indexer/follower"
)

// avadata's health in the hosted APIs' HealthCheckResultDto (NestJS
// Terminus style), shared by the data service's health-check and
// live-check and the metrics service's: one indicator per followed chain
// (and whatever else the VM judges), up or down with why.

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
	HealthOK           = "ok"
	HealthError        = "error"
	HealthShuttingDown = "shutting_down"
	IndicatorUp        = "up"
	IndicatorDown      = "down"
)

// HealthCheckResult is the OpenAPI's HealthCheckResultDto: info holds the
// indicators that are up, error those that are down, details all of them.
type HealthCheckResult struct {
	Status  string                           `json:"status"`
	Info    map[string]HealthIndicatorResult `json:"info"`
	Error   map[string]HealthIndicatorResult `json:"error"`
	Details map[string]HealthIndicatorResult `json:"details"`
}

// HealthIndicatorResult is the OpenAPI's HealthIndicatorResultDto, with the
// follower's heights and, when down, why.
type HealthIndicatorResult struct {
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

// NewHealthCheckResult sorts the indicators into a result; status is
// "error" when any is down, "shutting_down" once the VM is stopping.
func NewHealthCheckResult(indicators []HealthIndicator, shuttingDown bool) HealthCheckResult {
	res := HealthCheckResult{
		Status:  HealthOK,
		Info:    map[string]HealthIndicatorResult{},
		Error:   map[string]HealthIndicatorResult{},
		Details: map[string]HealthIndicatorResult{},
	}
	for _, ind := range indicators {
		out := HealthIndicatorResult{Status: IndicatorUp}
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
		out.Status, out.Message = IndicatorDown, ind.Problem
		res.Details[ind.Name] = out
		res.Error[ind.Name] = out
		res.Status = HealthError
	}
	if shuttingDown {
		res.Status = HealthShuttingDown
	}
	return res
}

// WriteHealth answers 200 when every indicator is up, 503 otherwise, with
// the result as the body either way (as the hosted services do, so a load
// balancer can probe the status code and a person can read why).
func WriteHealth(w http.ResponseWriter, res HealthCheckResult) {
	status := http.StatusOK
	if res.Status != HealthOK {
		status = http.StatusServiceUnavailable
	}
	WriteJSON(w, status, res)
}

// ServedIndicators judges each follower by whether its chain's data is
// served: up while its follower runs or an operator paused it, down once it
// stopped (live-check, and health-check without a HealthReporter).
func ServedIndicators(statuses []follower.Status) []HealthIndicator {
	out := make([]HealthIndicator, len(statuses))
	for i, s := range statuses {
		out[i] = HealthIndicator{Name: s.ChainName, Details: s}
		if !s.Running && !s.Paused {
			out[i].Problem = fmt.Sprintf("follower %s is not running: %s", s.ChainName, s.LastError)
		}
	}
	return out
}

// HealthCheck is a health-check's result: the reporter's judgement, or,
// without one (nil), the followers' by whether they run.
func (c *Core) HealthCheck(h HealthReporter) HealthCheckResult {
	if h != nil {
		return NewHealthCheckResult(h.Health(), h.ShuttingDown())
	}
	return NewHealthCheckResult(ServedIndicators(c.Statuses()), false)
}

// LiveCheck is a live-check's result: every follower up while its chain's
// data is served; a follower that lags or is stuck still serves what it
// indexed, so it is live.
func (c *Core) LiveCheck(h HealthReporter) HealthCheckResult {
	shuttingDown := h != nil && h.ShuttingDown()
	return NewHealthCheckResult(ServedIndicators(c.Statuses()), shuttingDown)
}
