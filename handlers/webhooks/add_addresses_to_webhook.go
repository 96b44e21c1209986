package webhooks

import (
	"net/http"
	"slices"

	"github.com/avadata/avadata/handlers/api"
)

// serveAddAddressesToWebhook adds addresses to an address_activity
// webhook and answers it; an address it watches already is no change.
func (s *server) serveAddAddressesToWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeAddAddressesToWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	add, err := s.parseAddressesChangeRequest(r, h, routeAddAddressesToWebhook)
	if err != nil {
		return err
	}
	changed, err := s.changeAddresses(r, h, func(have []string) ([]string, error) {
		return s.evmAddresses(slices.Clone(have), add, fieldAddresses)
	})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, webhookReply(changed))
	return nil
}
