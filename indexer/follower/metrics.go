package follower

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the followers' Prometheus metrics, labelled by chain. They are
// registered through the node's metrics, so they appear in /ext/metrics.
type Metrics struct {
	indexedHeight *prometheus.GaugeVec
	nodeHeight    *prometheus.GaugeVec
	lag           *prometheus.GaugeVec
	blocksPerSec  *prometheus.GaugeVec
	blocks        *prometheus.CounterVec
	txs           *prometheus.CounterVec
	errors        *prometheus.CounterVec
	batchSeconds  *prometheus.HistogramVec
}

// NewMetrics registers the follower metrics on reg.
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	// Not "chain": the node labels every VM metric with its own chain label.
	label := []string{"indexed_chain"}
	m := &Metrics{
		indexedHeight: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "follower_indexed_height", Help: "Height of the last indexed block"}, label),
		nodeHeight:    prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "follower_node_height", Help: "Height of the node's last accepted block"}, label),
		lag:           prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "follower_lag_blocks", Help: "Blocks accepted by the node but not yet indexed"}, label),
		blocksPerSec:  prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "follower_blocks_per_second", Help: "Recent indexing rate"}, label),
		blocks:        prometheus.NewCounterVec(prometheus.CounterOpts{Name: "follower_blocks_total", Help: "Blocks indexed"}, label),
		txs:           prometheus.NewCounterVec(prometheus.CounterOpts{Name: "follower_txs_total", Help: "Transactions in indexed blocks"}, label),
		errors:        prometheus.NewCounterVec(prometheus.CounterOpts{Name: "follower_errors_total", Help: "Failed fetches or writes"}, label),
		batchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "follower_batch_seconds", Help: "Time to fetch and write one batch",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 8),
		}, label),
	}
	return m, errors.Join(
		reg.Register(m.indexedHeight), reg.Register(m.nodeHeight), reg.Register(m.lag),
		reg.Register(m.blocksPerSec), reg.Register(m.blocks), reg.Register(m.txs),
		reg.Register(m.errors), reg.Register(m.batchSeconds),
	)
}

// chainMetrics are the metrics of one chain's follower.
type chainMetrics struct {
	indexedHeight, nodeHeight, lag, blocksPerSec prometheus.Gauge
	blocks, txs, errors                          prometheus.Counter
	batchSeconds                                 prometheus.Observer
}

func (m *Metrics) forChain(name string) chainMetrics {
	l := prometheus.Labels{"indexed_chain": name}
	return chainMetrics{
		indexedHeight: m.indexedHeight.With(l),
		nodeHeight:    m.nodeHeight.With(l),
		lag:           m.lag.With(l),
		blocksPerSec:  m.blocksPerSec.With(l),
		blocks:        m.blocks.With(l),
		txs:           m.txs.With(l),
		errors:        m.errors.With(l),
		batchSeconds:  m.batchSeconds.With(l),
	}
}
