package replies

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeAPI serves a listing whose page tokens differ on every call (as
// avadata's do: they carry their issue time) and a status whose rate and
// poll time differ too. changed alters one item, as a regression would.
type fakeAPI struct {
	issued  atomic.Int64
	changed atomic.Bool
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Indexed-Height", "P=7")
	switch strings.TrimPrefix(r.URL.Path, "/ext/bc/data") {
	case "/v1/items":
		f.serveItems(w, r)
	case "/v1/status":
		n := f.issued.Add(1)
		fmt.Fprintf(w, `{"chains":[{"chain":"P","indexedHeight":7,"blocksPerSecond":%d.5,"lastProgress":%q}]}`,
			n, time.Now().Format(time.RFC3339Nano))
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"message":"no route for %s"}`, r.URL.Path)
	}
}

func (f *fakeAPI) serveItems(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	size, _ := strconv.Atoi(q.Get("pageSize"))
	offset := 0
	if raw := q.Get("pageToken"); raw != "" {
		// A token is "<offset>.<serial>"; the serial makes its bytes new
		// every time.
		pos, _, ok := strings.Cut(raw, ".")
		n, err := strconv.Atoi(pos)
		if !ok || err != nil {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"message":"invalid pageToken"}`)
			return
		}
		offset = n
	}
	items := []string{"a", "b", "c", "d", "e"}
	if f.changed.Load() {
		items[3] = "D"
	}
	end := min(offset+size, len(items))
	page := map[string]any{"items": items[offset:end]}
	if end < len(items) {
		page["nextPageToken"] = fmt.Sprintf("%d.%d", end, f.issued.Add(1))
	}
	_ = json.NewEncoder(w).Encode(page)
}

const testRequestSet = `
route items
GET /v1/items?pageSize=2 follow=5 label=itemsPage
GET /v1/items?pageSize=2&pageToken=${pageToken}
  token-from itemsPage
  token-edit tamper
route status
GET /v1/status normalise=status
route notFound
GET /nothing/${name}
POST /v1/items
  header Content-Type: application/json
  body-repeat 3
  body {}
`

func TestRecordThenReplay(t *testing.T) {
	api := &fakeAPI{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	ctx := context.Background()
	client := NewClient(srv.URL+"/ext/bc/data", srv.URL)

	set, err := ParseRequestSet(testRequestSet)
	require.NoError(t, err)
	rec, err := RecordReplies(ctx, client, set, map[string]string{"name": "x"})
	require.NoError(t, err)

	// Three pages of the listing, the second and third followed with the
	// token of the page before.
	require.Len(t, rec.Exchanges, 7)
	require.Equal(t, "/v1/items?pageSize=2&pageToken=${pageToken}", rec.Exchanges[1].Request.Target)
	require.Equal(t, &PageRef{Request: 0, Page: 2}, rec.Exchanges[1].Request.PageOf)
	require.Equal(t, 0, *rec.Exchanges[1].Request.TokenFrom)
	require.Equal(t, &PageRef{Request: 0, Page: 3}, rec.Exchanges[2].Request.PageOf)
	require.Equal(t, 1, *rec.Exchanges[2].Request.TokenFrom)
	require.Equal(t, "{\"items\":[\"a\",\"b\"],\"nextPageToken\":\"<page token>\"}\n", rec.Exchanges[0].Reply.Body)
	require.Equal(t, "{\"items\":[\"e\"]}\n", rec.Exchanges[2].Reply.Body)
	// The tampered token is refused; the status's rate and clock are
	// placeholders.
	require.Equal(t, http.StatusBadRequest, rec.Exchanges[3].Reply.Status)
	require.Contains(t, rec.Exchanges[4].Reply.Body, `"blocksPerSecond":"<rate>","lastProgress":"<wall clock>"`)
	require.Equal(t, "/nothing/x", rec.Exchanges[5].Request.Target)
	require.Equal(t, map[string][]string{"Content-Type": {"application/json"}, "X-Indexed-Height": {"P=7"}},
		rec.Exchanges[5].Reply.Header)
	order, counts := RouteCounts(rec)
	require.Equal(t, []string{"items", "status", "notFound"}, order)
	require.Equal(t, map[string]int{"items": 4, "status": 1, "notFound": 2}, counts)

	path := filepath.Join(t.TempDir(), "before.json")
	require.NoError(t, WriteRecord(path, rec))
	read, err := ReadRecord(path)
	require.NoError(t, err)
	require.Equal(t, rec, read)

	// Every token and rate is new, yet nothing differs.
	res, err := Replay(ctx, client, read)
	require.NoError(t, err)
	require.Equal(t, 7, res.Identical)
	require.Zero(t, res.Differ)
	require.Empty(t, res.Differences)

	// A changed item shows on the page it is on, and only there.
	api.changed.Store(true)
	res, err = Replay(ctx, client, read)
	require.NoError(t, err)
	require.Equal(t, 6, res.Identical)
	require.Equal(t, 1, res.Differ)
	require.Len(t, res.Differences, 1)
	d := res.Differences[0]
	require.Equal(t, 1, d.Exchange.Index)
	require.Equal(t, "body", d.Field)
	require.Contains(t, d.Diff, "-    \"d\"\n+    \"D\"\n")

	var report strings.Builder
	require.NoError(t, res.Report(&report))
	require.True(t, strings.HasPrefix(report.String(), "6 replies identical, 1 differ\n\n#1 GET /v1/items?pageSize=2&pageToken=${pageToken} (page 2 after #0) [items]\n"),
		report.String())
}

func TestReplayReportsAMissingPage(t *testing.T) {
	api := &fakeAPI{}
	srv := httptest.NewServer(api)
	defer srv.Close()
	ctx := context.Background()
	client := NewClient(srv.URL+"/ext/bc/data", srv.URL)
	set, err := ParseRequestSet("route items\nGET /v1/items?pageSize=4 follow=3\n")
	require.NoError(t, err)
	rec, err := RecordReplies(ctx, client, set, nil)
	require.NoError(t, err)
	require.Len(t, rec.Exchanges, 2)

	// Replayed with a page size that now fits everything: the first page
	// has no token, so the second cannot be asked for.
	rec.Exchanges[0].Request.Target = "/v1/items?pageSize=9"
	res, err := Replay(ctx, client, rec)
	require.NoError(t, err)
	require.Equal(t, 2, res.Differ)
	var missing *Difference
	for i, d := range res.Differences {
		if d.Exchange.Index == 1 && d.Field == "error" {
			missing = &res.Differences[i]
		}
	}
	require.NotNil(t, missing)
	require.Equal(t, "not sent: the reply of #0 has no nextPageToken to send", missing.After)
}

func TestParseRequestSetErrors(t *testing.T) {
	for name, text := range map[string]string{
		"no route":            "GET /a\n",
		"indented first":      "  body x\n",
		"unknown option":      "route r\nGET /a color=blue\n",
		"unknown normaliser":  "route r\nGET /a normalise=time\n",
		"unknown label":       "route r\nGET /a?pageToken=${pageToken}\n  token-from nowhere\n",
		"marker without from": "route r\nGET /a?pageToken=${pageToken}\n",
		"lower-case method":   "route r\nget /a\n",
		"bad repeat":          "route r\nPOST /a\n  body-repeat 1\n",
		"unknown detail":      "route r\nGET /a\n  cookie x\n",
	} {
		_, err := ParseRequestSet(text)
		require.Error(t, err, name)
	}
}

func TestDefaultRequestSetParses(t *testing.T) {
	set, err := ParseRequestSet(DefaultRequestSet)
	require.NoError(t, err)
	require.Greater(t, len(set), 200)
	_, err = set[0].request(map[string]string{})
	require.NoError(t, err)

	// A placeholder without a value is an error, not an empty string.
	_, err = fill("/v1/chains/${cChainEvmId}", map[string]string{})
	require.ErrorContains(t, err, "no discovered value for cChainEvmId")
}
