package evmchain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/nodeapi"
)

// BenchmarkParseBlock decodes the fixture block's node answers (block,
// receipts, traces) and parses them, as the catch-up does for every block.
func BenchmarkParseBlock(b *testing.B) {
	raw := map[string][]byte{}
	for _, name := range []string{"block.json", "receipts.json", "traces.json"} {
		v, err := os.ReadFile(filepath.Join("testdata", name))
		require.NoError(b, err)
		raw[name] = v
	}
	b.ReportAllocs()
	for b.Loop() {
		var data nodeapi.EVMBlockData
		var traces []nodeapi.EVMTxTrace
		require.NoError(b, json.Unmarshal(raw["block.json"], &data.Block))
		require.NoError(b, json.Unmarshal(raw["receipts.json"], &data.Receipts))
		require.NoError(b, json.Unmarshal(raw["traces.json"], &traces))
		if _, err := ParseBlock(data, traces, true); err != nil {
			b.Fatal(err)
		}
	}
}
