package webhooks

import (
	"net/http"
	"slices"

	"github.com/avadata/avadata/handlers/api"
)

// serveRemoveAddressesFromWebhook stops an address_activity webhook
// watching addresses and answers it; an address it does not watch is no
// change. The last address cannot go: a webhook that watches nothing is
// deactivated instead.
func (s *server) serveRemoveAddressesFromWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeRemoveAddressesFromWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	remove, err := s.parseAddressesChangeRequest(r, h, routeRemoveAddressesFromWebhook)
	if err != nil {
		return err
	}
	changed, err := s.changeAddresses(r, h, func(have []string) ([]string, error) {
		gone := make(map[string]bool, len(remove))
		for _, a := range remove {
			gone[a] = true
		}
		kept := slices.DeleteFunc(slices.Clone(have), func(a string) bool { return gone[a] })
		if len(kept) == 0 {
			return nil, api.BadRequest("removing these addresses would leave webhook %s watching none; "+
				"deactivate it instead (DELETE /v1/webhooks/%s)", h.ID, h.ID)
		}
		return kept, nil
	})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, webhookReply(changed))
	return nil
}
