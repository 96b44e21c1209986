package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// serveGenerateOrRotateSharedSecret replaces the secret with a new random
// one and answers 201 with it; the next delivery is signed with it.
func (s *server) serveGenerateOrRotateSharedSecret(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeGenerateOrRotateSharedSecret); err != nil {
		return err
	}
	secret, err := s.hooks.RotateWebhookSecret(r.Context())
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, sharedSecretsResponse{Secret: secret})
	return nil
}
