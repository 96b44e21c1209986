package handlertest

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TxBlocks lists the block numbers of a transactions page.
func TxBlocks(t *testing.T, body map[string]any) []string {
	t.Helper()
	var blocks []string
	for _, entry := range body["transactions"].([]any) {
		blocks = append(blocks, entry.(map[string]any)["nativeTransaction"].(map[string]any)["blockNumber"].(string))
	}
	return blocks
}

// TxHeights lists the block heights of a page (blockNumber or blockHeight).
func TxHeights(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, tx := range Objects(t, body["transactions"]) {
		if n, ok := tx["blockNumber"].(string); ok {
			out = append(out, n)
		} else {
			out = append(out, strconv.FormatFloat(tx["blockHeight"].(float64), 'f', -1, 64))
		}
	}
	return out
}

// Objects reads a JSON list of objects.
func Objects(t *testing.T, v any) []map[string]any {
	t.Helper()
	list, ok := v.([]any)
	require.True(t, ok, "not a list: %v", v)
	out := make([]map[string]any, len(list))
	for i, item := range list {
		out[i] = item.(map[string]any)
	}
	return out
}
