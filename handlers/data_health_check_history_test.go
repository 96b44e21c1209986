package handlers

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/follower"
)

func TestDataHealthCheckSaysWhereAPartialHistoryStarts(t *testing.T) {
	c := follower.Status{ChainName: "C", IndexedHeight: 900, NodeHeight: 900, HistoryFrom: 812, Running: true}
	p := follower.Status{ChainName: "P", IndexedHeight: 50, NodeHeight: 50, HistoryFrom: 1, Running: true}
	srv := newHealthAPI(t, handlertest.NewFakes(), &fakeHealth{indicators: []HealthIndicator{
		{Name: "C", Details: c}, {Name: "P", Details: p},
	}})
	var body struct {
		Details map[string]map[string]any `json:"details"`
	}
	handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/v1/health-check"), http.StatusOK, &body)
	require.InDelta(t, 812, body.Details["C"]["historyFrom"], 0)
	require.Contains(t, body.Details["C"]["history"], "history from block 812: earlier blocks are not indexed")
	require.NotContains(t, body.Details["P"], "historyFrom", "a chain indexed from genesis says nothing")
	require.NotContains(t, body.Details["P"], "history")
}
