package metrics

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET {metrics_url}/v2/live-check (metrics-live-check): whether the metrics
// service serves reads, judged as the data service's /v1/live-check
// (api.Core.LiveCheck): a chain is up while its follower runs or an
// operator paused it. See metrics_health_check.go for the 503.

func (s *server) serveMetricsLiveCheck(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteHealth(w, s.LiveCheck(s.health))
	return nil
}
