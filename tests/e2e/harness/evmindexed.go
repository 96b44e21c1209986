package harness

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// WaitEVMIndexed waits until the follower of the EVM chain with
// blockchainID has indexed height, polling GET {base}/v1/status.
func WaitEVMIndexed(t *testing.T, ctx context.Context, base, blockchainID string, height uint64) {
	t.Helper()
	var last []byte
	for {
		r := GetWithRetryAfter(t, ctx, base+"/v1/status")
		require.Equal(t, http.StatusOK, r.Status, "status: %s", r.Body)
		last = r.Body
		var body struct {
			Chains []struct {
				BlockchainID  string `json:"blockchainId"`
				IndexedHeight uint64 `json:"indexedHeight"`
			} `json:"chains"`
		}
		r.Decode(t, &body)
		for _, c := range body.Chains {
			if c.BlockchainID == blockchainID && c.IndexedHeight >= height {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata did not index block %d of %s: status %s", height, blockchainID, last)
		case <-time.After(200 * time.Millisecond): // a fifth of the rate limit
		}
	}
}
