package handlers

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
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

// HealthReporter judges avadata's health (api.HealthReporter).
type HealthReporter = api.HealthReporter

// HealthIndicator is one part of avadata's health (api.HealthIndicator).
type HealthIndicator = api.HealthIndicator

func (s *server) serveDataHealthCheck(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteHealth(w, s.HealthCheck(s.backend.Health))
	return nil
}
