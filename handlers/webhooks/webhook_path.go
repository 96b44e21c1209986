package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// pathWebhook reads the {id} path parameter and the webhook it names: 400
// for an ID that is no UUID, 404 for one the node does not keep.
func (s *server) pathWebhook(r *http.Request) (webhookdata.Webhook, error) {
	raw := api.PathVar(r, paramID)
	id, err := webhookdata.ParseID(raw)
	if err != nil {
		return webhookdata.Webhook{}, api.BadRequest("invalid %s '%s': %v", paramID, api.Truncate(raw), err)
	}
	h, found, err := s.hooks.Webhook(r.Context(), id)
	if err != nil {
		return webhookdata.Webhook{}, err
	}
	if !found {
		return webhookdata.Webhook{}, notFound(id)
	}
	return h, nil
}

func notFound(id webhookdata.ID) error {
	return api.NotFound("no webhook with %s '%s' on this node", paramID, id)
}
