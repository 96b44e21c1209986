package handlers

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/live-check (live-check): whether avadata serves reads, in the
// hosted API's HealthCheckResultDto: one indicator per followed chain, up
// while the chain's indexed data is served (its follower runs, or an
// operator paused it), down once its follower stopped. A follower that lags
// or is stuck still serves what it indexed, so it is live (data-health-check
// reports it). 200 with status "ok" when every indicator is up, 503 with
// status "error" otherwise ("shutting_down" once the VM is stopping).

func (s *server) serveLiveCheck(w http.ResponseWriter, _ *http.Request, _ *api.Heights) error {
	api.WriteHealth(w, s.LiveCheck(s.backend.Health))
	return nil
}
