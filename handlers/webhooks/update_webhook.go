package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// serveUpdateWebhook changes a webhook's url, name, description, status or
// include flags and answers the result.
func (s *server) serveUpdateWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeUpdateWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	c, err := s.parseUpdateWebhookRequest(r, h)
	if err != nil {
		return err
	}
	changed, err := s.applyChange(r, h, c)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, webhookReply(changed))
	return nil
}
