package metrics

import (
	"encoding/json"
	"math/big"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/metricdata"
)

// The OpenAPI document's ChainMetric enum is the table's, in its order.
func TestChainMetricEnumInOpenAPI(t *testing.T) {
	raw, err := os.ReadFile("../openapi.json")
	require.NoError(t, err)
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, chainMetricNames(), doc.Components.Schemas["ChainMetric"].Enum)
	var names []string
	for _, g := range metricdata.Granularities() {
		names = append(names, g.String())
	}
	require.Equal(t, names, doc.Components.Schemas["TimeIntervalGranularity"].Enum)
}

// Chains combine by the metric's rule: sums, the highest, the sum of the
// averages, Σ prices / Σ transactions; integers in all their digits.
func TestChainMetricCombine(t *testing.T) {
	metric := func(name string) chainMetric {
		m, ok := lookupChainMetric(name)
		require.True(t, ok, name)
		return m
	}
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	a := metricdata.ChainBucket{Txs: 3, GasUsed: 10, FeesPaid: huge, GasPriceSum: big.NewInt(30), MaxGasPrice: big.NewInt(12),
		FirstBlockTs: 100, LastBlockTs: 110, PrevBlockTs: 90, MaxTps: metricdata.Rate{Count: 3, Seconds: 2}}
	b := metricdata.ChainBucket{Txs: 1, GasUsed: 5, FeesPaid: big.NewInt(1), GasPriceSum: big.NewInt(50), MaxGasPrice: big.NewInt(50),
		FirstBlockTs: 200, LastBlockTs: 200, MaxTps: metricdata.Rate{Count: 1, Seconds: 1}}
	both := func(name string) json.Number {
		m := metric(name)
		return m.value(m.figure(&a), m.figure(&b))
	}
	require.Equal(t, json.Number("4"), both("txCount"))
	require.Equal(t, json.Number("123456789012345678901234567891"), both("feesPaid"))
	require.Equal(t, json.Number("50"), both("maxGasPrice"))
	require.Equal(t, json.Number("20"), both("avgGasPrice"), "(30+50)/(3+1)")
	require.Equal(t, json.Number("1.5"), both("maxTps"), "3/2 > 1/1")
	require.Equal(t, json.Number("1.15"), both("avgTps"), "3/20 + 1/max(1, 200-200)")
	require.Equal(t, json.Number("10"), metric("avgGasPrice").value(metric("avgGasPrice").figure(&a)))
	require.Equal(t, json.Number("0"), metric("avgGasPrice").value(metric("avgGasPrice").emptyFigure()), "no transactions")
	require.Equal(t, json.Number("0"), metric("maxTps").value(metric("maxTps").figure(&metricdata.ChainBucket{})), "no rate")
	require.Equal(t, json.Number("0"), metric("txCount").value(), "no chain")
	require.Equal(t, json.Number("0.3333333333333333"), metric("avgTps").value(ratioFigure(big.NewInt(1), 3)))
}

// Merged buckets are one bucket over all their blocks; distinct counts are
// left to the caller.
func TestMergeChainBuckets(t *testing.T) {
	h := metricdata.Hour
	buckets := []metricdata.ChainBucket{
		{Granularity: h, Start: 7200, Blocks: 2, Txs: 5, GasUsed: 50, FeesPaid: big.NewInt(7), GasPriceSum: big.NewInt(9),
			MaxGasPrice: big.NewInt(4), FirstBlockTs: 7201, LastBlockTs: 7300, PrevBlockTs: 3700,
			MaxTps: metricdata.Rate{Count: 5, Seconds: 10}, MaxGps: metricdata.Rate{Count: 50, Seconds: 1}, Contracts: 1,
			ActiveAddresses: 3, CumulativeTxs: 20, CumulativeAddresses: 9, CumulativeContracts: 4, CumulativeDeployers: 2},
		{Granularity: h, Start: 0, Blocks: 1, Txs: 2, GasUsed: 20, FeesPaid: big.NewInt(3), GasPriceSum: big.NewInt(1),
			MaxGasPrice: big.NewInt(6), FirstBlockTs: 10, LastBlockTs: 10, PrevBlockTs: 0,
			MaxTps: metricdata.Rate{Count: 2, Seconds: 1}, MaxGps: metricdata.Rate{Count: 20, Seconds: 1}, Contracts: 2,
			ActiveAddresses: 2, CumulativeTxs: 15, CumulativeAddresses: 7, CumulativeContracts: 3, CumulativeDeployers: 1},
	}
	m := mergeChainBuckets(buckets)
	require.Equal(t, metricdata.ChainBucket{
		Granularity: h, Start: 0, Blocks: 3, Txs: 7, GasUsed: 70, FeesPaid: big.NewInt(10), GasPriceSum: big.NewInt(10),
		MaxGasPrice: big.NewInt(6), FirstBlockTs: 10, LastBlockTs: 7300, PrevBlockTs: 0,
		MaxTps: metricdata.Rate{Count: 2, Seconds: 1}, MaxGps: metricdata.Rate{Count: 50, Seconds: 1}, Contracts: 3,
		CumulativeTxs: 20, CumulativeAddresses: 9, CumulativeContracts: 4, CumulativeDeployers: 2,
	}, m)
	avg, _ := lookupChainMetric("avgTps")
	require.Equal(t, json.Number("0.0009602194787379973"), avg.value(avg.figure(&m)), "7 / (7300 - 10)")
	require.Equal(t, metricdata.ChainBucket{}, mergeChainBuckets(nil))
}
