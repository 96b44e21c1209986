package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// serveGetSharedSecret answers the secret every delivery is signed with
// (one per node, drawn on first use), for the SDK's validateWebhook.
func (s *server) serveGetSharedSecret(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeGetSharedSecret); err != nil {
		return err
	}
	secret, err := s.hooks.WebhookSecret(r.Context())
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, sharedSecretsResponse{Secret: secret})
	return nil
}
