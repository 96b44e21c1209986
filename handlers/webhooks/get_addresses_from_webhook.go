package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// serveGetAddressesFromWebhook answers the addresses an address_activity
// webhook watches, a page at a time in the order they were added, with
// their total. A page resumes at an offset: adding addresses appends, so
// pages only shift when addresses are removed meanwhile.
func (s *server) serveGetAddressesFromWebhook(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	if err := s.reading(r, routeGetAddressesFromWebhook); err != nil {
		return err
	}
	h, err := s.pathWebhook(r)
	if err != nil {
		return err
	}
	if h.EventType != webhookdata.AddressActivity {
		return api.BadRequest("%s applies only to address_activity webhooks; webhook %s is %s (its keys are in its metadata)",
			routeGetAddressesFromWebhook, h.ID, h.EventType)
	}
	pg, err := s.ParsePage(r.Context(), heights, r.URL.Query(), api.DataPaging(routeGetAddressesFromWebhook, false), h.ID.String())
	if err != nil {
		return err
	}
	all := h.Metadata.Addresses
	from := min(int(max(pg.Token.Position, 0)), len(all))
	page, more := api.TrimPage(all[from:], pg.Size)
	out := listWebhookAddressesResponse{Addresses: nonNil(page), TotalAddresses: len(all)}
	if more {
		if out.NextPageToken, err = s.NextPageToken(pg, int64(from+len(page)), nil); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
