package serve

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestPanicAfterWriteKeepsResponse(t *testing.T) {
	rec := &statusRecorder{ResponseWriter: httptest.NewRecorder(), status: http.StatusOK}
	h := recoverPanics(logging.NoLog{}, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		api.WriteJSON(w, http.StatusOK, map[string]int{"a": 1})
		panic("late")
	}))
	require.NotPanics(t, func() { h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil)) })
	require.Equal(t, http.StatusOK, rec.status)
}

func TestAbortHandlerPanicPropagates(t *testing.T) {
	h := recoverPanics(logging.NoLog{}, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic(http.ErrAbortHandler)
	}))
	require.PanicsWithValue(t, http.ErrAbortHandler, func() { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil)) })
}
