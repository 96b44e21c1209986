package webhooks

import (
	"context"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// checkQuota refuses a webhook becoming active past maxWebhooks, and a new
// record past the record bound (newRecord). Callers hold limitMu until
// their write is done. A full node is a 400, not a 429: waiting does not
// help, deactivating or reusing a webhook does.
func (s *server) checkQuota(ctx context.Context, newRecord bool) error {
	all, err := s.hooks.Webhooks(ctx)
	if err != nil {
		return err
	}
	active := 0
	for _, h := range all {
		if h.Status == webhookdata.Active {
			active++
		}
	}
	if active >= s.cfg.MaxWebhooks {
		return api.BadRequest("this node has %d active webhooks, the most it runs (webhooks.maxWebhooks); "+
			"deactivate one first", active)
	}
	if newRecord && len(all) >= s.cfg.maxRecords() {
		return api.BadRequest("this node keeps %d webhooks, the most it stores (%d times webhooks.maxWebhooks); "+
			"reuse an inactive one instead (PATCH its url, name and status)", len(all), recordsPerActive)
	}
	return nil
}
