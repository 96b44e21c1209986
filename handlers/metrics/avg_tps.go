package metrics

import (
	"fmt"
	"net/http"

	"github.com/gorilla/mux"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// routeAvgTPS names the average TPS route in page tokens, metrics and logs.
const routeAvgTPS = "avgTps"

// averageTPS returns the average transactions per second of one daily bucket.
//
// A complete day is averaged over all of its store.BucketSeconds (86400)
// seconds: TxCount / 86400. The chain's newest bucket (the day containing its
// latest indexed block, i.e. the bucket with the largest Start) is still in
// progress on-chain, so it is averaged over the part of the day that has
// elapsed on-chain, from the bucket start through its newest block inclusive:
// TxCount / (LastBlockTs - Start + 1). Block time rather than wall-clock time
// is used so that the value depends only on indexed blocks and anyone can
// recompute it from the chain. The divisor is clamped to [1, 86400] to stay
// finite on inconsistent input.
func averageTPS(bucket store.TPSBucket, newest bool) float64 {
	seconds := int64(store.BucketSeconds)
	if newest {
		seconds = min(max(bucket.LastBlockTs-bucket.Start+1, 1), store.BucketSeconds)
	}
	return float64(bucket.TxCount) / float64(seconds)
}

// tpsPoint is one result of the average TPS endpoint.
type tpsPoint struct {
	Timestamp int64   `json:"timestamp"`
	Value     float64 `json:"value"`
}

// avgTPSResponse is the body of the average TPS operation (the spec's
// Average TPS response). NextPageToken is omitted on the last page, never null.
type avgTPSResponse struct {
	Results       []tpsPoint `json:"results"`
	Status        int        `json:"status"`
	LastRun       int64      `json:"lastRun"`
	NextPageToken string     `json:"nextPageToken,omitempty"`
}

// avgTPSPaging pages the average TPS endpoint: pageSize 1..100, default 10
// (an avadata extension), tokens valid for the metrics lifetime.
func avgTPSPaging() api.Paging {
	return api.Paging{Route: routeAvgTPS, Size: api.StandardPageSize(), MaxAge: api.MetricsPageTokenLifetime}
}

// serveAvgTPS handles GET {metrics_url}/v1/avg_tps/{chainId}: daily average
// TPS of any followed chain, newest day first, paged by pageToken.
func (s *server) serveAvgTPS(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	chain, err := api.ResolveMetricsChain(mux.Vars(r)[api.ParamChainID], s.Network())
	if err != nil {
		return err
	}
	// The chain is the only filter; its stream name makes tokens work
	// whichever alias or ID the client used, and on every replica.
	stream := api.ChainStream(s.Network(), chain)
	s.ReadsStream(heights, stream)
	pg, err := s.ParsePage(r.Context(), heights, r.URL.Query(), avgTPSPaging(), stream)
	if err != nil {
		return err
	}
	before := pg.Token.Position

	// A chain indexed from above genesis (a state-synced EVM chain) has
	// its oldest bucket counted only from its first indexed block: that
	// day's average would be wrong, so the listing ends the day after it.
	// One more bucket is read to tell whether the oldest one is on the
	// page.
	first, err := s.reader.HistoryFrom(r.Context(), chain)
	if err != nil {
		return fmt.Errorf("reading where the index of chain %s starts: %w", chain, err)
	}
	partial := first > 1
	want := pg.Size + 1 // one extra bucket tells whether another page exists
	if partial {
		want++
	}
	buckets, err := s.reader.TPSBuckets(r.Context(), chain, before, want)
	if err != nil {
		return fmt.Errorf("reading TPS buckets of chain %s before %d: %w", chain, before, err)
	}
	if partial && len(buckets) < want && len(buckets) > 0 {
		buckets = buckets[:len(buckets)-1] // the oldest, incomplete day
	}
	if partial {
		heights.NoteHistory(stream, first)
	}
	buckets, hasMore := api.TrimPage(buckets, pg.Size)

	resp := avgTPSResponse{
		Results: make([]tpsPoint, len(buckets)),
		Status:  http.StatusOK,
		LastRun: s.lastRun(chain),
	}
	for i, bucket := range buckets {
		// Only the first bucket of the first page can be the chain's newest.
		newest := before == 0 && i == 0
		resp.Results[i] = tpsPoint{Timestamp: bucket.Start, Value: averageTPS(bucket, newest)}
	}
	if hasMore {
		if resp.NextPageToken, err = s.NextPageToken(pg, buckets[len(buckets)-1].Start, nil); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// lastRun is the Unix time of the chain follower's last write to the store,
// or 0 if it has not written yet.
func (s *server) lastRun(chain netinfo.Chain) int64 {
	for _, st := range s.Statuses() {
		if st.Chain == chain && !st.LastApplied.IsZero() {
			return st.LastApplied.Unix()
		}
	}
	return 0
}
