package explorer

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// healthAPI answers the health checks as the API does: 503 with the
// verdict's body when something is down.
type healthAPI struct {
	fakeAPI
	data, metrics string
	down          bool
}

func (h healthAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := ""
	switch r.URL.Path {
	case "/v1/health-check":
		body = h.data
	case "/metrics/v2/health-check":
		body = h.metrics
	default:
		h.fakeAPI.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if h.down {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_, _ = w.Write([]byte(body))
}

func TestStatusSaysWhatIsDownAndWhy(t *testing.T) {
	down := `{"status":"error","info":{"P":{"status":"up"}},"error":{"C":{"status":"down","message":"follower C is <stuck>"}},
		"details":{"P":{"status":"up"},"C":{"status":"down","message":"follower C is <stuck>"}}}`
	h := newTestExplorer(t, Config{}, healthAPI{fakeAPI: homeAPI(t), data: down, metrics: down, down: true}, nil)
	rec := getPage(t, h, "/status")
	require.Equal(t, http.StatusOK, rec.Code, "the page itself is fine: it shows the verdict")
	body := rec.Body.String()
	require.Contains(t, body, `id="data-health" data-status="error"`)
	require.Contains(t, body, `id="metrics-health" data-status="error"`)
	require.Contains(t, body, "not healthy")
	require.Contains(t, body, `<li data-indicator="C"><strong>C</strong>: follower C is &lt;stuck&gt;</li>`)
	require.Contains(t, body, "up: P")
	// Every follower, with its state.
	for _, chain := range []string{"P", "X", "C", "dispatch"} {
		require.Contains(t, body, `<tr data-chain="`+chain+`">`)
	}
	require.Contains(t, body, `<td class="num" data-field="blocksPerSecond">2.5</td>`)
	require.Contains(t, body, `<td data-field="lastApplied">2026-11-27 16:14:00 UTC</td>`)
	require.Contains(t, body, `<td data-field="lastApplied">never</td>`)
	require.Contains(t, body, "&lt;b&gt;boom&lt;/b&gt;")

	up := `{"status":"ok","info":{},"error":{},"details":{"P":{"status":"up"},"C":{"status":"up"}}}`
	h = newTestExplorer(t, Config{}, healthAPI{fakeAPI: homeAPI(t), data: up, metrics: up}, nil)
	body = getPage(t, h, "/status").Body.String()
	require.Contains(t, body, `id="data-health" data-status="ok"`)
	require.Contains(t, body, "healthy")
	require.Contains(t, body, "up: C, P")
}

func TestStatusReadsEachEndpointOnceAndAtOnce(t *testing.T) {
	up := `{"status":"ok","info":{},"error":{},"details":{"P":{"status":"up"}}}`
	reads := newBarrierAPI(healthAPI{fakeAPI: homeAPI(t), data: up, metrics: up}, "/v1/status", "/v1/health-check", "/metrics/v2/health-check")
	h := newTestExplorer(t, Config{}, reads, nil)
	body := pageBody(t, h, "/status", http.StatusOK)
	require.True(t, reads.together.Load(), "the three reads run at once")
	require.Equal(t, map[string]int{"/v1/status": 1, "/v1/health-check": 1, "/metrics/v2/health-check": 1}, reads.asked)
	// The links to the JSON, made by apiLink.
	require.Contains(t, body, `href="/ext/bc/data/v1/status">/v1/status</a>`)
	require.Contains(t, body, `href="/ext/bc/data/v1/health-check">`)
	require.Contains(t, body, `href="/ext/bc/data/metrics/v2/health-check">`)
	require.Contains(t, body, `href="/ext/bc/data/">the API</a>`)
}

func TestFollowerProgress(t *testing.T) {
	var st statusReply
	require.NoError(t, json.Unmarshal([]byte(homeStatus), &st))
	fs := st.followers()
	require.Len(t, fs, 4)
	require.Equal(t, "catching up", fs[0].State)
	require.Equal(t, uint64(90), fs[0].Done)
	require.Equal(t, uint64(100), fs[0].Todo)
	require.Equal(t, "caught up", fs[1].State)
	require.Equal(t, "ok", fs[1].StateClass)
	require.Equal(t, uint64(43112), fs[2].EVMChainID)
	require.Equal(t, uint64(10), fs[2].BackfillDone, "blocks 41..50 of 1..50")
	require.Equal(t, uint64(50), fs[2].BackfillTodo)
	require.Equal(t, "20.0", fs[2].BackfillPercent)
	require.Equal(t, "paused", fs[3].State)
	require.Equal(t, uint64(779672), fs[3].EVMChainID)
}
