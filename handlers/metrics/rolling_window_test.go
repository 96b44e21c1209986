package metrics

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TestCoverWindowTilesExactly holds coverWindow to its promise on a chain
// with one block of one transaction in every hour: every window, whatever
// hour, weekday or month boundary it starts or ends at, is tiled by
// buckets that add up to exactly its hours, with few bucket reads.
func TestCoverWindowTilesExactly(t *testing.T) {
	fakes := handlertest.NewFakes()
	// 2023-12-30 (a Saturday, across a year, months and weeks) to some
	// 400 days later.
	start := time.Date(2023, 12, 30, 5, 0, 0, 0, time.UTC).Unix()
	const hours = 400 * 24
	blocks := make([]handlertest.MetricBlock, hours)
	for i := range blocks {
		blocks[i] = handlertest.MetricBlock{Ts: start + int64(i)*3600 + 17, GasPrices: []int64{1}, GasUsedOf: []uint64{1}, GasUsed: 1}
	}
	fakes.AddMetricBlocks(netinfo.C, blocks...)
	ctx := context.Background()
	for _, end := range []int64{start + 3600*(hours-1), start + 3600*(hours-1-7*24-5), start + 3600*(hours-1-31*24-13)} {
		for _, n := range []int64{1, 2, 23, 24, 25, 24 * 7, 24 * 30, 24 * 90, 24 * 365} {
			from := end - (n-1)*3600
			fakes.ChainBucketCalls() // forget the earlier reads
			buckets, err := coverWindow(ctx, fakes, netinfo.C, from, end+3600)
			require.NoError(t, err)
			calls := len(fakes.ChainBucketCalls())
			merged := mergeChainBuckets(buckets)
			require.Equal(t, uint64(n), merged.Blocks, "%d hours ending %d", n, end)
			require.Equal(t, from+17, merged.FirstBlockTs)
			require.Equal(t, end+17, merged.LastBlockTs)
			require.Equal(t, from+17-3600, merged.PrevBlockTs)
			require.LessOrEqual(t, calls, 15, "range reads for %d hours", n)
			require.LessOrEqual(t, len(buckets), 12+2*4+2*6+2*23, "buckets for %d hours", n)
			for _, b := range buckets {
				require.GreaterOrEqual(t, b.Start, from)
				require.LessOrEqual(t, b.Granularity.Next(b.Start), end+3600)
			}
		}
	}
	// The week buckets start on Monday.
	require.Equal(t, time.Monday, time.Unix(metricdata.Week.Start(start), 0).UTC().Weekday())
}

// The OpenAPI document's rolling metric enum is the table's non-cumulative
// metrics (the SDK's ChainRollingWindowMetric), and its windows are ours.
func TestRollingMetricEnumInOpenAPI(t *testing.T) {
	raw, err := os.ReadFile("../openapi.json")
	require.NoError(t, err)
	var doc struct {
		Paths map[string]struct {
			Get struct {
				Parameters []struct {
					Name   string `json:"name"`
					Schema struct {
						Enum []string `json:"enum"`
					} `json:"schema"`
				} `json:"parameters"`
			} `json:"get"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	var enum []string
	for _, p := range doc.Paths["/metrics/v2/chains/{chainId}/rollingWindowMetrics/{metric}"].Get.Parameters {
		if p.Name == paramMetric {
			enum = p.Schema.Enum
		}
	}
	require.ElementsMatch(t, rollingMetricNames(), enum)
	require.Len(t, enum, 13)
	var windows []string
	for _, w := range rollingWindows() {
		windows = append(windows, w.name)
	}
	var documented []string
	for name := range doc.Components.Schemas["ChainRollingWindowMetricsValue"].Properties {
		documented = append(documented, name)
	}
	require.ElementsMatch(t, windows, documented)
}

// commitDuringCount is a reader whose chain gets a block of the next hour,
// with a new address, while the first distinct count runs: as the
// follower committing between the handler's reads.
type commitDuringCount struct {
	*handlertest.Fakes
	next      handlertest.MetricBlock
	committed bool
}

func (r *commitDuringCount) ActiveSince(ctx context.Context, chain netinfo.Chain, role metricdata.Role, hour int64) (uint64, error) {
	if !r.committed {
		r.committed = true
		r.AddMetricBlocks(chain, r.next)
	}
	return r.Fakes.ActiveSince(ctx, chain, role, hour)
}

// A distinct count over a window is of the window the handler answers
// about: a block of a later hour committed between reading the newest hour
// and counting does not add its addresses to lastHour.
func TestRollingDistinctCountOfOneSnapshot(t *testing.T) {
	fakes := handlertest.NewFakes()
	h := time.Date(2024, 5, 6, 10, 0, 0, 0, time.UTC).Unix()
	fakes.AddMetricBlocks(netinfo.C, handlertest.MetricBlock{Ts: h + 10, Active: []string{"a", "b"}})
	r := &commitDuringCount{Fakes: fakes, next: handlertest.MetricBlock{Ts: h + 3600 + 5, Active: []string{"c"}}}
	m, ok := lookupChainMetric("activeAddresses")
	require.True(t, ok)
	got, err := chainWindows(context.Background(), r, netinfo.C, m, false)
	require.NoError(t, err)
	require.NotNil(t, got[0])
	// Either hour's lastHour is right (h: a, b; h+1: c), never both.
	require.Equal(t, "1", m.value(*got[0]).String(), "lastHour of the newest hour, h+1 (c)")
	require.Equal(t, "3", m.value(*got[1]).String(), "lastDay")
}
