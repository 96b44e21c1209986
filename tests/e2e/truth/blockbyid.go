package truth

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/stretchr/testify/require"
)

// IndexedBlockByID reads one accepted block of chain from the node's index
// API by its (outer) ID, index.getContainerByID, parsed as IndexedBlocks
// parses each container.
func IndexedBlockByID(t *testing.T, ctx context.Context, uri, chain string, id ids.ID) IndexedBlock {
	t.Helper()
	var reply struct {
		ID    ids.ID `json:"id"`
		Bytes string `json:"bytes"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/index/"+chain+"/block", "index.getContainerByID",
		map[string]any{"id": id, "encoding": "hex"}, &reply), "%s container %s", chain, id)
	b, err := formatting.Decode(formatting.Hex, reply.Bytes)
	require.NoError(t, err)
	return parseIndexedBlock(t, chain, reply.ID, b)
}
