package webhooks

import (
	"context"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// nextHeight is the first height of chain whose blocks give a webhook
// created or made active now events. When the node's height is not known
// the call is refused (503, retry later) rather than bounded by the
// index's next block: while the index lags the node that would send the
// new webhook blocks the node accepted long before it existed.
func (s *server) nextHeight(ctx context.Context, chain netinfo.Chain, chainID string) (uint64, error) {
	next, known := s.hooks.NextHeight(ctx, chain)
	if !known {
		return 0, &api.RetryLaterError{
			Err: api.NewError(http.StatusServiceUnavailable,
				"the node's height of chain %s is not known yet (avadata has not read it from the node, or the node did not answer); "+
					"a webhook's events begin with the node's next block, so try again shortly", chainID),
			RetryAfterSeconds: api.DefaultRetryAfter,
		}
	}
	return next, nil
}
