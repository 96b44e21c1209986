package truth

import (
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"
)

func utc(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.Unix()
}

func TestMetricsGranularityBoundaries(t *testing.T) {
	ts := utc("2026-11-27T13:45:10Z") // a Friday
	require.Equal(t, utc("2026-11-27T13:00:00Z"), MetricsHour.Start(ts))
	require.Equal(t, utc("2026-11-27T00:00:00Z"), MetricsDay.Start(ts))
	require.Equal(t, utc("2026-11-23T00:00:00Z"), MetricsWeek.Start(ts))
	require.Equal(t, utc("2026-11-01T00:00:00Z"), MetricsMonth.Start(ts))
	require.Equal(t, utc("2026-12-01T00:00:00Z"), MetricsMonth.Next(MetricsMonth.Start(ts)))
	require.Equal(t, utc("2026-11-30T00:00:00Z"), MetricsWeek.Next(MetricsWeek.Start(ts)))
	require.Equal(t, utc("2026-11-23T00:00:00Z"), MetricsWeek.Start(utc("2026-11-23T00:00:00Z")), "a Monday starts its week")
	require.Equal(t, utc("2026-11-23T00:00:00Z"), MetricsWeek.Start(utc("2026-11-29T23:59:59Z")), "a Sunday ends it")
}

// synthetic makes a chain of blocks at the given times, each with txs
// transactions from sender to a fresh address at gas price 1 wei.
func synthetic(times []int64, txs []uint64, senders []common.Address) *ChainMetrics {
	m := &ChainMetrics{}
	for i, ts := range times {
		b := &metricsBlock{
			number: uint64(i + 1), ts: uint64(ts), txs: txs[i], gasUsed: 21000 * txs[i],
			fees: big.NewInt(int64(21000 * txs[i])), gasPriceSum: big.NewInt(int64(txs[i])), maxGasPrice: big.NewInt(1),
			active: map[common.Address]bool{senders[i]: true}, senders: map[common.Address]bool{senders[i]: true},
			deployers: map[common.Address]bool{},
		}
		m.blocks = append(m.blocks, b)
	}
	return m
}

func TestMetricsSeriesRules(t *testing.T) {
	a, b := common.HexToAddress("0xa"), common.HexToAddress("0xb")
	t0 := utc("2026-11-29T22:59:50Z") // a Sunday, just before an hour, a day and a week end
	m := synthetic(
		[]int64{t0, t0 + 5, t0 + 20, t0 + 3*3600 + 1},
		[]uint64{2, 4, 1, 3},
		[]common.Address{a, b, a, a})
	chains := []*ChainMetrics{m}

	hours, err := Series("txCount", MetricsHour, chains, nil, nil)
	require.NoError(t, err)
	require.Len(t, hours, 4, "dense: 22h, 23h, 00h (empty), 01h; newest first")
	require.Equal(t, "3", hours[0].Value.String())
	require.Equal(t, "0", hours[1].Value.String())
	require.Equal(t, "1", hours[2].Value.String())
	require.Equal(t, "6", hours[3].Value.String())

	cum, err := Series("cumulativeTxCount", MetricsHour, chains, nil, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"10", "7", "7", "6"}, []string{cum[0].Value.String(), cum[1].Value.String(), cum[2].Value.String(), cum[3].Value.String()})

	// avgTps of the first hour: the chain's first block has no predecessor,
	// so the span runs from its own time: 6 txs over 5 s.
	avg, err := Series("avgTps", MetricsHour, chains, nil, nil)
	require.NoError(t, err)
	require.Equal(t, "1.2", avg[3].Value.String())
	// The second hour: 1 tx over (t0+20) - (t0+5) = 15 s.
	require.True(t, avg[2].Value.Matches("0.06666666666666667"), avg[2].Value.String())
	maxTps, err := Series("maxTps", MetricsHour, chains, nil, nil)
	require.NoError(t, err)
	require.Equal(t, "0.8", maxTps[3].Value.String(), "4 txs 5 s after the block before; the first block has no rate")

	weeks, err := Series("activeSenders", MetricsWeek, chains, nil, nil)
	require.NoError(t, err)
	require.Len(t, weeks, 2, "the last block is in the next week")
	require.Equal(t, "1", weeks[0].Value.String())
	require.Equal(t, "2", weeks[1].Value.String())

	last := m.LastTs()
	one, err := Series("txCount", MetricsDay, chains, &last, &last)
	require.NoError(t, err)
	require.Len(t, one, 1)
	none, err := Series("txCount", MetricsDay, chains, nil, ptr(t0-86400))
	require.NoError(t, err)
	require.Empty(t, none)

	r, err := Rolling("txCount", chains)
	require.NoError(t, err)
	require.Equal(t, "3", r["lastHour"].String())
	require.Equal(t, "10", r["lastDay"].String())
	require.Equal(t, "10", r["allTime"].String())
	total, err := Rolling("avgTps", []*ChainMetrics{m, m})
	require.NoError(t, err)
	require.True(t, total["lastHour"].Summed)
}

func ptr[T any](v T) *T { return &v }
