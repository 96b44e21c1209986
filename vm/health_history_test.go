package vm

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers"
	"github.com/avadata/avadata/indexer/follower"
)

// The node's health check says in words where a partial history starts.
func TestNodeHealthDetailsSayWhereHistoryStarts(t *testing.T) {
	partial := handlers.HealthIndicator{Name: "C", Details: follower.Status{ChainName: "C", HistoryFrom: 812, Running: true}}
	raw, err := json.Marshal(nodeHealthDetails(partial))
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(raw, &got))
	require.InDelta(t, 812, got["historyFrom"], 0)
	require.Equal(t, "C", got["chain"], "the follower's status, flattened")
	require.Contains(t, got["history"], "history from block 812: earlier blocks are not indexed")

	whole := handlers.HealthIndicator{Name: "P", Details: follower.Status{ChainName: "P", HistoryFrom: 1}}
	require.Equal(t, whole.Details, nodeHealthDetails(whole))
}
