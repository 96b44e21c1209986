package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// serveGetWebhook answers one webhook.
func (s *server) serveGetWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.reading(r, routeGetWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, webhookReply(h))
	return nil
}
