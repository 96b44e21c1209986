package metrics

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET {metrics_url}/v2/health-check (metrics-health-check) and
// GET {metrics_url}/v2/live-check (metrics-live-check): the metrics
// service's health in the SDK's HealthCheckResultDto, judged exactly as the
// data service's /v1/health-check and /v1/live-check judge it (api.Core's
// HealthCheck and LiveCheck): the metrics are read from the same index the
// same followers write, so one judgement serves both. One indicator per
// followed chain, up or down.
//
// Like the data service (and the hosted services, NestJS Terminus), an
// unhealthy answer is a 503 with status "error" and the same body, so a
// load balancer can probe the status code. The SDK (chainkit 0.3.13) reads
// a 503 as an error body and, since this one has no statusCode/message,
// throws ResponseValidationError instead of ServiceUnavailableError; its
// rawResponse still carries the body. A 200 with status "error" would
// please the SDK but lie to every probe, so the precedent stands.

// Route names of the metrics service's health operations (the SDK's
// operationIds, dashes and all).
const (
	routeMetricsHealthCheck = "metrics-health-check"
	routeMetricsLiveCheck   = "metrics-live-check"
)

// HealthRoutes returns the metrics service's health-check and live-check
// routes; health may be nil (as the data service's Backend.Health).
func HealthRoutes(core *api.Core, health api.HealthReporter) []api.Route {
	s := &server{Core: core, health: health}
	return []api.Route{
		{Name: routeMetricsHealthCheck, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/health-check", Summary: "health of the metrics service's followers", Handler: s.Adapt(s.serveMetricsHealthCheck)},
		{Name: routeMetricsLiveCheck, Method: http.MethodGet, Path: api.MetricsPrefix + "/v2/live-check", Summary: "liveness of the metrics service (reads only)", Handler: s.Adapt(s.serveMetricsLiveCheck)},
	}
}

func (s *server) serveMetricsHealthCheck(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteHealth(w, s.HealthCheck(s.health))
	return nil
}
