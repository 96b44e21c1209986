package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// PageThrough follows nextPageToken to the end of a list and returns its
// items in order.
func PageThrough(t *testing.T, ctx context.Context, list, key string, pageSize int) []json.RawMessage {
	t.Helper()
	var items []json.RawMessage
	token := ""
	for {
		q := url.Values{"pageSize": {fmt.Sprint(pageSize)}}
		if token != "" {
			q.Set("pageToken", token)
		}
		r := Get(t, ctx, list+"?"+q.Encode())
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", list, r.Body)
		var page map[string]json.RawMessage
		r.Decode(t, &page)
		var got []json.RawMessage
		require.NoError(t, json.Unmarshal(page[key], &got), "%s: %s", list, r.Body)
		items = append(items, got...)
		if raw, ok := page["nextPageToken"]; !ok || json.Unmarshal(raw, &token) != nil || token == "" {
			return items
		}
	}
}

// GetWithRetryAfter is Get that waits out a 429 (its Retry-After): a 429
// is the server asking to come back later, not a failure of the endpoint
// under test. The e2e nodes' rate limits (ChainConfig) make it rare.
func GetWithRetryAfter(t *testing.T, ctx context.Context, u string) Reply {
	t.Helper()
	for {
		r := Get(t, ctx, u)
		if r.Status != http.StatusTooManyRequests {
			return r
		}
		wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
		require.NoError(t, err, "GET %s: 429 without a Retry-After in seconds: %v", u, r.Header)
		select {
		case <-ctx.Done():
			t.Fatalf("GET %s: still rate limited: %s", u, r.Body)
		case <-time.After(time.Duration(max(wait, 1)) * time.Second):
		}
	}
}

// GetOK fetches u, requires 200 with a JSON body without nulls, and
// decodes it into v.
func GetOK(t *testing.T, ctx context.Context, u string, v any) {
	t.Helper()
	r := GetWithRetryAfter(t, ctx, u)
	require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
	require.Contains(t, r.Header.Get("Content-Type"), "application/json", "GET %s", u)
	RequireNoNulls(t, r.Body, u)
	require.NoError(t, json.Unmarshal(r.Body, v), "GET %s: %s", u, r.Body)
}

// RequireNoNulls checks no member of a JSON document is null: optional
// fields are omitted, never null.
func RequireNoNulls(t *testing.T, body []byte, what string) {
	t.Helper()
	var doc any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc), "%s: %s", what, body)
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case nil:
			t.Errorf("%s: %s is null in %s", what, path, body)
		case map[string]any:
			for k, el := range x {
				walk(el, path+"."+k)
			}
		case []any:
			for i, el := range x {
				walk(el, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	walk(doc, "$")
}

// ListPage is one page of a list endpoint: its items under key and its
// next page token.
func ListPage[T any](t *testing.T, ctx context.Context, u, key string) ([]T, string) {
	t.Helper()
	var body map[string]json.RawMessage
	GetOK(t, ctx, u, &body)
	raw, ok := body[key]
	require.True(t, ok, "GET %s: no %q in the body", u, key)
	var items []T
	require.NoError(t, json.Unmarshal(raw, &items), "GET %s: %s", u, raw)
	require.NotNil(t, items, "GET %s: %q must be an array, even when empty", u, key)
	var next string
	if tok, ok := body["nextPageToken"]; ok {
		require.NoError(t, json.Unmarshal(tok, &next), "GET %s: nextPageToken %s", u, tok)
		require.NotEmpty(t, strings.TrimSpace(next), "GET %s: an empty nextPageToken must be omitted", u)
	}
	return items, next
}

// ListAll follows nextPageToken from u to the end and returns every item,
// checking each page has at most pageSize items and only the last is short.
func ListAll[T any](t *testing.T, ctx context.Context, u, key string, pageSize int) []T {
	t.Helper()
	var all []T
	seen := map[string]bool{}
	next := ""
	for page := 0; ; page++ {
		require.Less(t, page, 1000, "GET %s: paging does not end", u)
		pageURL := u
		if next != "" {
			pageURL = WithQuery(u, "pageToken", next)
		}
		items, tok := ListPage[T](t, ctx, pageURL, key)
		require.LessOrEqual(t, len(items), pageSize, "GET %s: page %d", pageURL, page)
		all = append(all, items...)
		if tok == "" {
			return all
		}
		require.Len(t, items, pageSize, "GET %s: a page before the last must be full", pageURL)
		require.False(t, seen[tok], "GET %s: page token repeated", pageURL)
		seen[tok] = true
		next = tok
	}
}

// WithQuery returns u with one more (or replaced) query parameter.
func WithQuery(u, key, value string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		panic(err) // the tests build these URLs themselves
	}
	q := parsed.Query()
	q.Set(key, value)
	parsed.RawQuery = q.Encode()
	return parsed.String()
}
