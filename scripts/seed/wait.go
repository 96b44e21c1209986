package seed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/follower"
)

// pollInterval spaces the requests of WaitServed: a few per second, well
// under the anonymous rate limit of a default install.
const pollInterval = 200 * time.Millisecond

// requestTimeout bounds one request to avadata.
const requestTimeout = 10 * time.Second

// WaitServed returns once avadata at baseURL has indexed s (its followers
// of P, X and C have reached s.Heights, per GET /v1/status) and answers
// every example of s with data. Some data comes a little after the block
// that holds it (contract metadata is read from the node in the
// background), hence the second wait.
func WaitServed(ctx context.Context, baseURL string, s *Sample) error {
	client := &http.Client{Timeout: requestTimeout}
	if err := waitIndexed(ctx, client, baseURL, s.Heights); err != nil {
		return err
	}
	for _, ex := range Examples(baseURL, s) {
		if err := waitData(ctx, client, ex); err != nil {
			return err
		}
	}
	return nil
}

// waitIndexed polls GET /v1/status until every chain of heights (by its
// status name: P, X, C) is indexed at least that far.
func waitIndexed(ctx context.Context, client *http.Client, baseURL string, heights map[string]uint64) error {
	var last string
	for {
		body, status, err := get(ctx, client, baseURL+"/v1/status")
		if err == nil && status == http.StatusOK {
			// The per-chain part of the reply (handlers.StatusResponse).
			var st struct {
				Chains []follower.Status `json:"chains"`
			}
			if err := json.Unmarshal(body, &st); err != nil {
				return fmt.Errorf("seed: decoding /v1/status: %w", err)
			}
			indexed := map[string]uint64{}
			for _, c := range st.Chains {
				indexed[c.ChainName] = c.IndexedHeight
			}
			done := true
			for chain, h := range heights {
				if indexed[chain] < h {
					done = false
				}
			}
			if done {
				return nil
			}
			last = fmt.Sprintf("indexed %v, want %v", indexed, heights)
		} else {
			last = describe(status, body, err)
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("seed: avadata did not index the sample (%s): %w", last, err)
		}
	}
}

// waitData polls ex until it answers 200 with data.
func waitData(ctx context.Context, client *http.Client, ex Example) error {
	var last string
	for {
		body, status, err := do(ctx, client, ex.Method(), ex.URL, ex.Body)
		if err == nil && status == http.StatusOK {
			ok, derr := HasData(body, ex.DataPath)
			if derr != nil {
				return fmt.Errorf("seed: example %s: %w", ex.Name, derr)
			}
			if ok {
				return nil
			}
			last = fmt.Sprintf("no data at %s: %.300s", ex.DataPath, body)
		} else {
			last = describe(status, body, err)
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("seed: example %s (%s %s) never answered with data (%s): %w", ex.Name, ex.Method(), ex.URL, last, err)
		}
	}
}

// get does one GET and reads the body (see do).
func get(ctx context.Context, client *http.Client, url string) ([]byte, int, error) {
	return do(ctx, client, http.MethodGet, url, "")
}

// do sends one request, with body as JSON when set, and reads the reply's
// body. A 429 waits out its Retry-After before returning, so the caller's
// next try is allowed.
func do(ctx context.Context, client *http.Client, method, url, body string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	reply, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, resp.StatusCode, err
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		if secs, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && secs > 0 {
			if err := sleep(ctx, time.Duration(secs)*time.Second); err != nil {
				return reply, resp.StatusCode, err
			}
		}
	}
	return reply, resp.StatusCode, nil
}

func describe(status int, body []byte, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d %.300s", status, body)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
