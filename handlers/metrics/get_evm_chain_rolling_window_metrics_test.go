package metrics

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// rollingBlocks are synthetic blocks over about 14 months: quiet stretches
// of hours to days, bursts of several blocks in one second or one hour, a
// few addresses shared between blocks so distinct counts differ from sums.
func rollingBlocks(seed uint64, start int64, n int) []handlertest.MetricBlock {
	rng := rand.New(rand.NewPCG(seed, 7))
	addr := func() string { return fmt.Sprintf("0x%02d", rng.IntN(60)) }
	var out []handlertest.MetricBlock
	ts := start
	for range n {
		switch rng.IntN(4) {
		case 0:
			ts += int64(rng.IntN(3)) // same second or close
		case 1:
			ts += int64(rng.IntN(3600))
		case 2:
			ts += int64(rng.IntN(6 * 3600))
		default:
			ts += int64(rng.IntN(3 * 86400))
		}
		b := handlertest.MetricBlock{Ts: ts}
		txs := rng.IntN(5)
		for range txs {
			gas := uint64(21000 + rng.IntN(100000))
			b.GasPrices = append(b.GasPrices, int64(25e9+rng.IntN(1e9)))
			b.GasUsedOf = append(b.GasUsedOf, gas)
			b.GasUsed += gas
			from := addr()
			b.Senders = append(b.Senders, from)
			b.Active = append(b.Active, from, addr())
			if rng.IntN(6) == 0 {
				b.Deployers = append(b.Deployers, from)
				b.Contracts += uint64(1 + rng.IntN(2))
			}
		}
		out = append(out, b)
	}
	return out
}

// expectedWindows recomputes a metric's windows from the blocks alone:
// blocks[counted:] are counted (the chain's metrics count from there);
// blocks before are not (a partial chain's first counted block is
// blocks[counted], so the windows reaching its hour are not served).
func expectedWindows(t *testing.T, blocks []handlertest.MetricBlock, counted int, metric string) map[string]*big.Rat {
	t.Helper()
	out := map[string]*big.Rat{}
	if len(blocks) == 0 {
		return out
	}
	newest := blocks[len(blocks)-1].Ts
	h := metricdata.Hour.Start(newest)
	firstHour := metricdata.Hour.Start(blocks[counted].Ts)
	for _, w := range rollingWindows() {
		lo := 0
		if w.hours > 0 {
			first := h - (w.hours-1)*3600
			if counted > 0 && first <= firstHour {
				continue
			}
			for lo < len(blocks) && blocks[lo].Ts < first {
				lo++
			}
		} else if counted > 0 {
			continue
		}
		out[w.name] = windowFigure(blocks, lo, metric)
	}
	return out
}

// windowFigure is metric over blocks[lo:], by its definition.
func windowFigure(blocks []handlertest.MetricBlock, lo int, metric string) *big.Rat {
	win := blocks[lo:]
	var txs, gas, contracts uint64
	fees, priceSum, maxPrice := new(big.Int), new(big.Int), new(big.Int)
	maxTps, maxGps := new(big.Rat), new(big.Rat)
	sets := map[string]map[string]bool{"activeAddresses": {}, "activeSenders": {}, "deployers": {}}
	for i, b := range win {
		txs += uint64(len(b.GasPrices))
		gas += b.GasUsed
		contracts += b.Contracts
		for j, p := range b.GasPrices {
			priceSum.Add(priceSum, big.NewInt(p))
			fees.Add(fees, new(big.Int).Mul(big.NewInt(p), new(big.Int).SetUint64(b.GasUsedOf[j])))
			if big.NewInt(p).Cmp(maxPrice) > 0 {
				maxPrice.SetInt64(p)
			}
		}
		for _, a := range b.Active {
			sets["activeAddresses"][a] = true
		}
		for _, a := range b.Senders {
			sets["activeSenders"][a] = true
		}
		for _, a := range b.Deployers {
			sets["deployers"][a] = true
		}
		if lo+i > 0 {
			secs := max(b.Ts-blocks[lo+i-1].Ts, 1)
			if r := big.NewRat(int64(len(b.GasPrices)), secs); r.Cmp(maxTps) > 0 {
				maxTps = r
			}
			if r := big.NewRat(int64(b.GasUsed), secs); r.Cmp(maxGps) > 0 {
				maxGps = r
			}
		}
	}
	span := int64(0)
	if len(win) > 0 {
		prev := win[0].Ts
		if lo > 0 {
			prev = blocks[lo-1].Ts
		}
		span = win[len(win)-1].Ts - prev
	}
	span = max(span, 1)
	n := func(v uint64) *big.Rat { return new(big.Rat).SetUint64(v) }
	switch metric {
	case "txCount":
		return n(txs)
	case "gasUsed":
		return n(gas)
	case "contracts":
		return n(contracts)
	case "feesPaid":
		return new(big.Rat).SetInt(fees)
	case "maxGasPrice":
		return new(big.Rat).SetInt(maxPrice)
	case "avgGasPrice":
		if txs == 0 {
			return new(big.Rat)
		}
		return new(big.Rat).SetFrac(priceSum, new(big.Int).SetUint64(txs))
	case "avgTps":
		return big.NewRat(int64(txs), span)
	case "avgGps":
		return big.NewRat(int64(gas), span)
	case "maxTps":
		return maxTps
	case "maxGps":
		return maxGps
	default:
		return n(uint64(len(sets[metric])))
	}
}

// getRolling fetches a rolling window reply and decodes its result.
func getRolling(t *testing.T, srv *handlertest.API, chainID, metric string) (map[string]json.Number, http.Header) {
	t.Helper()
	rec := srv.Get(t, "/ext/bc/data/metrics/v2/chains/"+chainID+"/rollingWindowMetrics/"+metric)
	var body struct {
		Result map[string]json.Number `json:"result"`
	}
	dec := json.NewDecoder(rec.Body)
	dec.UseNumber()
	require.Equal(t, http.StatusOK, rec.Code, "body: %s", rec.Body.String())
	require.NoError(t, dec.Decode(&body))
	require.NotNil(t, body.Result, "result is always present")
	return body.Result, rec.Header()
}

// requireWindows compares a reply with the recomputed figures: integers
// exactly, ratios to the float nearest them.
func requireWindows(t *testing.T, want map[string]*big.Rat, got map[string]json.Number, integer bool, what string) {
	t.Helper()
	require.Len(t, got, len(want), "%s: windows %v, want %v", what, got, want)
	for name, w := range want {
		g, ok := got[name]
		require.True(t, ok, "%s: %s missing", what, name)
		if integer {
			require.True(t, w.IsInt(), "%s %s", what, name)
			require.Equal(t, w.Num().String(), g.String(), "%s %s", what, name)
			continue
		}
		f, _ := w.Float64()
		v, err := strconv.ParseFloat(g.String(), 64)
		require.NoError(t, err)
		require.InEpsilon(t, f+1e-300, v+1e-300, 1e-12, "%s %s", what, name)
	}
}

func TestRollingWindowsMatchTheBlocks(t *testing.T) {
	fakes := handlertest.NewFakes()
	start := int64(1_700_000_000)
	blocks := rollingBlocks(1, start, 1500)
	fakes.AddMetricBlocks(netinfo.C, blocks...)
	srv := newTestAPI(t, handlertest.Config(), fakes)
	for _, metric := range rollingMetricNames() {
		m, _ := lookupChainMetric(metric)
		fakes.ChainBucketCalls() // forget the earlier reads
		got, hdr := getRolling(t, srv, "43112", metric)
		requireWindows(t, expectedWindows(t, blocks, 0, metric), got, m.integer, metric)
		require.Empty(t, hdr.Get(api.HeaderHistoryFrom))
		// A year is tiled with a few dozen reads, not 8760.
		require.Less(t, len(fakes.ChainBucketCalls()), 40, metric)
	}
	// Every form of the chain's id answers the same.
	a, _ := getRolling(t, srv, "c-chain", "txCount")
	b, _ := getRolling(t, srv, fakenet.CChainID.String(), "txCount")
	require.Equal(t, a, b)
}

func TestRollingWindowsAggregate(t *testing.T) {
	fakes := handlertest.NewFakes()
	cBlocks := rollingBlocks(2, 1_700_000_000, 600)
	dBlocks := rollingBlocks(3, 1_700_050_000, 700)
	fakes.AddMetricBlocks(netinfo.C, cBlocks...)
	fakes.AddMetricBlocks(fakenet.SubnetChain, dBlocks...)
	srv := newTestAPI(t, handlertest.Config(), fakes)
	for _, metric := range rollingMetricNames() {
		m, _ := lookupChainMetric(metric)
		wc, wd := expectedWindows(t, cBlocks, 0, metric), expectedWindows(t, dBlocks, 0, metric)
		want := map[string]*big.Rat{}
		for name, c := range wc {
			d := wd[name]
			switch {
			case m.combine == combineMax:
				want[name] = c
				if d.Cmp(c) > 0 {
					want[name] = d
				}
			case metric == "avgGasPrice":
				want[name] = nil // checked below
			default:
				want[name] = new(big.Rat).Add(c, d)
			}
		}
		if metric == "avgGasPrice" {
			sum, txs := expectedWindows(t, cBlocks, 0, "avgGasPrice"), expectedWindows(t, cBlocks, 0, "txCount")
			sum2, txs2 := expectedWindows(t, dBlocks, 0, "avgGasPrice"), expectedWindows(t, dBlocks, 0, "txCount")
			for name := range want {
				num := new(big.Rat).Add(new(big.Rat).Mul(sum[name], txs[name]), new(big.Rat).Mul(sum2[name], txs2[name]))
				den := new(big.Rat).Add(txs[name], txs2[name])
				want[name] = new(big.Rat)
				if den.Sign() != 0 {
					want[name] = new(big.Rat).Quo(num, den)
				}
			}
		}
		for _, id := range []string{"total", "testnet", "TOTAL"} {
			got, _ := getRolling(t, srv, id, metric)
			requireWindows(t, want, got, m.integer, id+" "+metric)
		}
	}
	handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/mainnet/rollingWindowMetrics/txCount"),
		http.StatusBadRequest, "mainnet", "local")
}

func TestRollingWindowsPartialChain(t *testing.T) {
	fakes := handlertest.NewFakes()
	blocks := rollingBlocks(4, 1_700_000_000, 1200)
	// The chain's metrics count from its 1001st block (block 1001 of the
	// chain, say): the blocks before are not counted.
	const counted = 1000
	fakes.AddMetricBlocks(netinfo.C, blocks[counted:]...)
	fakes.EVM.SetHistoryFrom(netinfo.C, 1001)
	srv := newTestAPI(t, handlertest.Config(), fakes)
	for _, metric := range rollingMetricNames() {
		m, _ := lookupChainMetric(metric)
		want := expectedWindows(t, blocks, counted, metric)
		require.NotContains(t, want, "allTime")
		got, hdr := getRolling(t, srv, "43112", metric)
		requireWindows(t, want, got, m.integer, metric)
		require.Equal(t, "1001", hdr.Get(api.HeaderHistoryFrom))
	}
	// Some windows are served, the long ones not.
	got, _ := getRolling(t, srv, "43112", "txCount")
	require.Contains(t, got, "lastHour")
	require.NotContains(t, got, "lastYear")

	// The aggregate serves a window only where every chain does.
	got, _ = getRolling(t, srv, "total", "txCount")
	require.NotContains(t, got, "allTime")
	require.NotContains(t, got, "lastYear")

	// While a back-fill re-derives the metrics nothing is known.
	fakes.EVM.SetRunningState(netinfo.C, 1001, false)
	handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/43112/rollingWindowMetrics/txCount"),
		http.StatusServiceUnavailable, "re-deriving")
	handlertest.RequireMetricsError(t, srv.Get(t, "/ext/bc/data/metrics/v2/chains/total/rollingWindowMetrics/txCount"),
		http.StatusServiceUnavailable, "re-deriving")
}

func TestRollingWindowsEmptyChain(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes())
	got, _ := getRolling(t, srv, "43112", "txCount")
	require.Equal(t, map[string]json.Number{"lastHour": "0", "lastDay": "0", "lastWeek": "0", "lastMonth": "0",
		"last90Days": "0", "lastYear": "0", "allTime": "0"}, got)
	got, _ = getRolling(t, srv, "total", "avgGasPrice")
	require.Equal(t, json.Number("0"), got["allTime"])
}

func TestRollingWindowsBadInput(t *testing.T) {
	fakes := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), fakes)
	base := "/ext/bc/data/metrics/v2/chains/"
	handlertest.RequireMetricsError(t, srv.Get(t, base+"43112/rollingWindowMetrics/nope"), http.StatusBadRequest,
		"metric", "'gasUsed'", "'activeSenders'")
	msg := handlertest.RequireMetricsError(t, srv.Get(t, base+"43112/rollingWindowMetrics/cumulativeTxCount"), http.StatusBadRequest, "metric")
	require.Equal(t, 1, strings.Count(msg, "cumulative"), "the running totals are not rolling metrics: %s", msg)
	handlertest.RequireMetricsError(t, srv.Get(t, base+"99/rollingWindowMetrics/txCount"), http.StatusBadRequest, "chainId")
	handlertest.RequireMetricsError(t, srv.Get(t, base+"p-chain/rollingWindowMetrics/txCount"), http.StatusBadRequest, "chainId")
	fakes.ChainMetrics = &handlertest.ChainMetrics{Err: fmt.Errorf("disk on fire")}
	handlertest.RequireMetricsError(t, srv.Get(t, base+"43112/rollingWindowMetrics/txCount"), http.StatusInternalServerError)
}
