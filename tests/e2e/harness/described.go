package harness

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// Comparing two indexes of the same blocks (after a kill -9, or one
// back-filled against one built from genesis) must wait for what the
// background readers add (a contract's metadata, a token's URI) and leave
// out when they read it.

// WaitDescribed polls contract metadata until its name has been read.
func WaitDescribed(t *testing.T, ctx context.Context, contractURL string) {
	t.Helper()
	for {
		r := Get(t, ctx, contractURL)
		var c struct {
			Name string `json:"name"`
		}
		if r.Status == http.StatusOK && json.Unmarshal(r.Body, &c) == nil && c.Name != "" {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never described: %d %s", contractURL, r.Status, r.Body)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// WaitTokensRead polls a collection's tokens until every token's URI has
// been read.
func WaitTokensRead(t *testing.T, ctx context.Context, tokensURL string) {
	t.Helper()
	for {
		tokens := PageThrough(t, ctx, tokensURL, "tokens", 100)
		read := len(tokens) > 0
		for _, raw := range tokens {
			var tok struct {
				TokenURI string `json:"tokenUri"`
			}
			read = read && json.Unmarshal(raw, &tok) == nil && tok.TokenURI != ""
		}
		if read {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the tokens of %s were never read", tokensURL)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// readTime is when an NFT's metadata was read, which differs between two
// indexes of the same blocks.
var readTime = regexp.MustCompile(`,?"metadataLastUpdatedTimestamp":[0-9]+`)

// WithoutReadTimes is items without the times their metadata was read.
func WithoutReadTimes(items []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, raw := range items {
		out[i] = readTime.ReplaceAll(raw, nil)
	}
	return out
}
