package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// serveCreateWebhook creates a webhook and answers 201 with it. Its events
// begin with the first block its chain accepts after now: nothing from
// before is ever sent.
func (s *server) serveCreateWebhook(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	if err := s.managing(r, routeCreateWebhook); err != nil {
		return err
	}
	h, err := s.parseCreateWebhookRequest(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.checkTarget(ctx, h.URL); err != nil {
		return err
	}
	// The secret exists before the first event does, so the owner can
	// read it before any delivery arrives.
	if _, err := s.hooks.WebhookSecret(ctx); err != nil {
		return err
	}
	if h.ID, err = webhookdata.NewID(); err != nil {
		return err
	}
	h.Status, h.CreatedAtMs = webhookdata.Active, s.Now().UnixMilli()
	if h.FromHeight, err = s.nextHeight(ctx, h.Chain, h.ChainID); err != nil {
		return err
	}
	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	if err := s.checkQuota(ctx, true); err != nil {
		return err
	}
	created, err := s.hooks.CreateWebhook(ctx, h)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusCreated, webhookReply(created))
	return nil
}
