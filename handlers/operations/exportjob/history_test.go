package exportjob

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// A chain indexed from block 5 (days 0-3, three blocks a day: block 5 is
// the middle of day 1): an export without firstDate starts at block 5,
// dates that may hold earlier blocks are refused.
func TestExportOfAPartialChainStartsAtItsFirstBlock(t *testing.T) {
	blocks := testChain(12)
	st := openStore(t, t.TempDir())
	ctx := context.Background()
	require.NoError(t, st.StartStream(ctx, fakenet.SubnetChain, store.StreamBlocks, 5))
	indexBlocks(t, st, blocks[4:])
	r := startRunner(t, st, Config{}, nil)
	plan := func(first, last *time.Time) Plan {
		return Plan{Chains: []netinfo.ChainInfo{subnet(t)}, Addresses: []common.Address{alice}, FirstDay: first, LastDay: last}
	}

	spec, err := r.Spec(ctx, plan(nil, nil))
	require.NoError(t, err)
	require.Equal(t, uint64(5), spec.Chains[0].From)
	require.Equal(t, uint64(12), spec.Chains[0].To)

	spec, err = r.Spec(ctx, plan(dayN(2), nil))
	require.NoError(t, err)
	require.Equal(t, uint64(7), spec.Chains[0].From)

	for _, tt := range []struct {
		first, last *time.Time
		field       string
	}{{dayN(1), nil, "firstDate"}, {dayN(0), nil, "firstDate"}, {nil, dayN(0), "lastDate"}} {
		_, err := r.Spec(ctx, plan(tt.first, tt.last))
		var apiErr *api.Error
		require.ErrorAs(t, err, &apiErr)
		require.Equal(t, http.StatusBadRequest, apiErr.Status)
		require.Contains(t, apiErr.Message, "history in this node's index starts at block 5: "+tt.field)
	}
}
