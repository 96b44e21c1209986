package webhooks

import (
	"bytes"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// paramStatus is listWebhooks' status filter.
const paramStatus = "status"

// serveListWebhooks answers the node's webhooks by ID, a page at a time,
// optionally only those of one status. A page resumes after the last ID
// of the one before, so webhooks created meanwhile neither repeat nor
// shift the pages.
func (s *server) serveListWebhooks(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	if err := s.reading(r, routeListWebhooks); err != nil {
		return err
	}
	q := r.URL.Query()
	status := webhookdata.Status(q.Get(paramStatus))
	if status != "" && status != webhookdata.Active && status != webhookdata.Inactive {
		return api.BadRequest("invalid %s '%s': must be '%s' or '%s'", paramStatus, api.Truncate(string(status)),
			webhookdata.Active, webhookdata.Inactive)
	}
	pg, err := s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListWebhooks, false), string(status))
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(pg, func(b []byte) (webhookdata.ID, bool) {
		var id webhookdata.ID
		return id, copy(id[:], b) == webhookdata.IDLen && len(b) == webhookdata.IDLen
	})
	if err != nil {
		return err
	}
	all, err := s.hooks.Webhooks(r.Context())
	if err != nil {
		return err
	}
	var page []webhookdata.Webhook
	for _, h := range all {
		if (status == "" || h.Status == status) && (after == nil || bytes.Compare(h.ID[:], after[:]) > 0) {
			page = append(page, h)
		}
	}
	page, more := api.TrimPage(page, pg.Size)
	out := listWebhooksResponse{Webhooks: make([]webhookResponse, 0, len(page))}
	for _, h := range page {
		out.Webhooks = append(out.Webhooks, webhookReply(h))
	}
	if more {
		last := page[len(page)-1].ID
		if out.NextPageToken, err = s.NextPageToken(pg, 0, last[:]); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, out)
	return nil
}
