package serve

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/avadata/avadata/handlers/api"
)

// apiMetrics are the Prometheus collectors of the HTTP layer. The node
// prefixes everything a VM registers with the chain's namespace, so the names
// here stay short.
type apiMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	clients  *prometheus.CounterVec
	buckets  prometheus.GaugeFunc
}

// newAPIMetrics creates the collectors and registers them on reg. A nil reg
// keeps them private (handy in tests that build several routers).
// clientBuckets reports how many per-address rate-limit buckets are kept.
func newAPIMetrics(reg prometheus.Registerer, clientBuckets func() int) (*apiMetrics, error) {
	m := &apiMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "api_requests_total",
			Help: "HTTP requests served by the avadata API, by route and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "api_request_duration_seconds",
			Help:    "Time spent serving avadata API requests, by route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route"}),
		// Tells an operator whether clients are told apart: "unknown_peer"
		// requests all share one rate-limit bucket (see clientaddr.go).
		clients: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "api_requests_by_client_source_total",
			Help: "avadata API requests by how the rate limiter told their client: api_key, peer (address from the node), forwarded (X-Forwarded-For of a trusted proxy) or unknown_peer (no address; one shared bucket).",
		}, []string{"source"}),
		buckets: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "api_rate_limit_client_buckets",
			Help: "Per-address rate-limit buckets kept in memory (at most rateLimit.maxClients).",
		}, func() float64 { return float64(clientBuckets()) }),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.clients, m.buckets} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("registering API metrics: %w", err)
		}
	}
	return m, nil
}

// observe records one finished request; client is empty for requests that
// never reached the rate limiter.
func (m *apiMetrics) observe(route string, status int, elapsed time.Duration, client api.ClientSource) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(elapsed.Seconds())
	if client != "" {
		m.clients.WithLabelValues(string(client)).Inc()
	}
}
