package handlers

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

func TestBodyLimitOnEveryRoute(t *testing.T) {
	cfg := handlertest.Config()
	cfg.MaxBodyBytes = 1000
	srv := newTestAPI(t, cfg, handlertest.NewFakes(), nil)
	big := strings.Repeat("x", 1001)
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/v1/status"},
		{http.MethodPost, "/rpc"},
		{http.MethodPost, "/v1/signatureAggregator/local/aggregateSignatures"},
		{http.MethodGet, "/v1/no-such-route"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			rec := srv.Request(t, tc.method, "/ext/bc/data"+tc.path, big)
			handlertest.RequireDataError(t, rec, http.StatusRequestEntityTooLarge, "request body too large: the limit is 1000 bytes")
		})
	}
	t.Run("metrics service", func(t *testing.T) {
		rec := srv.Request(t, http.MethodGet, "/ext/bc/data/metrics/v1/avg_tps/p-chain", big)
		handlertest.RequireMetricsError(t, rec, http.StatusRequestEntityTooLarge, "too large")
	})
	t.Run("streamed body", func(t *testing.T) {
		// No Content-Length (HTTP/2 through the node): caught while reading,
		// at the smaller of the route's bound and the global one.
		body := `{"message":"` + strings.Repeat("ab", 600) + `"}`
		req := httptest.NewRequest(http.MethodPost, "http://node/ext/bc/data/v1/signatureAggregator/local/aggregateSignatures",
			strings.NewReader(body))
		req.ContentLength = -1
		handlertest.RequireDataError(t, srv.Serve(req), http.StatusRequestEntityTooLarge, "1000 bytes")
	})
	t.Run("at the limit", func(t *testing.T) {
		request := `{"jsonrpc":"2.0","method":"avadata.status","id":1}`
		body := request + strings.Repeat(" ", 1000-len(request))
		require.Len(t, body, 1000)
		reply := callRPC(t, srv, body)
		require.Nil(t, reply.Error)
	})
}

func TestByteCount(t *testing.T) {
	require.Equal(t, "1000 bytes", api.ByteCount(1000))
	require.Equal(t, "2048 bytes (2 KiB)", api.ByteCount(2048))
	require.Equal(t, "1048576 bytes (1 MiB)", api.ByteCount(1<<20))
}
