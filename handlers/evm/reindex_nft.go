package evm

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// POST /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex
// (reindexNft): has the node read a token's URI and metadata again (a
// contract whose tokenURI changed, a metadata document that moved). It
// answers 201 {} once the token is queued; the background reader that reads
// newly minted tokens reads it at the latest state, in its batches, and
// metadataLastUpdatedTimestamp tells when it did.
//
// It makes the node work on a client's behalf, so it is bounded:
//   - it needs an API key the operator configured (401 otherwise);
//   - only a token the index holds now can be queued (404 otherwise);
//   - a token is queued at most once per cooldown (an hour, as the hosted
//     API allows), kept in the index across restarts: a sooner request is a
//     429 with Retry-After;
//   - a chain's queue holds a bounded number of tokens (newly minted ones
//     included): when it is full the request is a 503 with Retry-After,
//     and the queue does not grow.
//
// Together with the rate limit of the key, the node reads at most one
// token per request and never the same token more than once an hour.

// Defaults of Config.NFTReindex.
const (
	DefaultReindexCooldown = time.Hour
	DefaultReindexQueue    = 1000
	// queueFullRetryAfter is when to try again once the queue was full:
	// the reader drains it in batches, every poll interval.
	queueFullRetryAfter = 30 * time.Second
)

// reindexNftRequest is the validated input of the endpoint.
type reindexNftRequest struct {
	getTokenDetailsRequest
}

func (s *server) parseReindexNftRequest(r *http.Request, heights *api.Heights) (reindexNftRequest, error) {
	if err := api.RequireAPIKey(r, routeReindexNft); err != nil {
		return reindexNftRequest{}, err
	}
	req, _, err := s.parseGetTokenDetailsRequest(r, heights)
	return reindexNftRequest{getTokenDetailsRequest: req}, err
}

// reindexLimits are the configured bounds with their defaults.
func (s *server) reindexLimits() evmdata.ReindexLimits {
	limits := s.cfg.NFTReindex
	if limits.Cooldown <= 0 {
		limits.Cooldown = DefaultReindexCooldown
	}
	if limits.MaxQueued <= 0 {
		limits.MaxQueued = DefaultReindexQueue
	}
	return limits
}

func (s *server) serveReindexNft(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseReindexNftRequest(r, heights)
	if err != nil {
		return err
	}
	token, err := s.heldToken(r.Context(), req.getTokenDetailsRequest)
	if err != nil {
		return err
	}
	ref := evmdata.TokenRef{Contract: req.Address, TokenID: req.TokenID, Kind: token.Kind}
	limits := s.reindexLimits()
	out, err := s.reader.RequestNFTReindex(r.Context(), req.Chain.Chain, ref, s.Now(), limits)
	if err != nil {
		return fmt.Errorf("queueing token %s #%s to reindex: %w", req.Address, req.TokenID, err)
	}
	switch {
	case out.QueueFull:
		setRetryAfter(w, queueFullRetryAfter)
		return api.NewError(http.StatusServiceUnavailable, "the queue of tokens to reindex on chain %d holds %d tokens "+
			"already; try again later", req.Chain.EVMChainID, limits.MaxQueued)
	case !out.Queued:
		setRetryAfter(w, out.RetryAfter)
		return api.NewError(http.StatusTooManyRequests, "token %s of %s can be reindexed once every %s; try again in %s",
			req.TokenID, req.Address.Hex(), limits.Cooldown, out.RetryAfter.Round(time.Second))
	}
	api.WriteJSON(w, http.StatusCreated, struct{}{})
	return nil
}

// setRetryAfter tells the client how many whole seconds to wait.
func setRetryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
}
