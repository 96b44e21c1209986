package handlers

import (
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// apiMetrics are the Prometheus collectors of the HTTP layer. The node
// prefixes everything a VM registers with the chain's namespace, so the names
// here stay short.
type apiMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newAPIMetrics creates the collectors and registers them on reg. A nil reg
// keeps them private (handy in tests that build several routers).
func newAPIMetrics(reg prometheus.Registerer) (*apiMetrics, error) {
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
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("registering API metrics: %w", err)
		}
	}
	return m, nil
}

// observe records one finished request.
func (m *apiMetrics) observe(route string, status int, elapsed time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(elapsed.Seconds())
}
