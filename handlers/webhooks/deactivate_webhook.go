package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// serveDeactivateWebhook makes a webhook inactive and answers it (the SDK
// takes 200 with the webhook, not 204). The record stays: no operation
// deletes one, and an update with status active resumes it.
func (s *server) serveDeactivateWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeDeactivateWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	inactive := webhookdata.Inactive
	changed, err := s.applyChange(r, h, webhookChange{Status: &inactive})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, webhookReply(changed))
	return nil
}
