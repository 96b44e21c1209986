package delivery

import (
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics count the deliveries, so an operator sees failing receivers
// without reading logs.
type metrics struct {
	delivered, failed prometheus.Counter
	// seconds is the time of one attempt, from the request to the end of
	// the answer.
	seconds     prometheus.Histogram
	deactivated prometheus.Counter
}

// newMetrics registers the metrics with reg; nil keeps them unregistered.
func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	attempts := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "webhook_deliveries_total",
		Help: "Webhook delivery attempts, by result (delivered: the receiver answered 2xx)"}, []string{"result"})
	m := &metrics{
		delivered: attempts.WithLabelValues("delivered"),
		failed:    attempts.WithLabelValues("failed"),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "webhook_delivery_seconds",
			Help: "Time of one webhook delivery attempt", Buckets: prometheus.ExponentialBuckets(0.001, 4, 8)}),
		deactivated: prometheus.NewCounter(prometheus.CounterOpts{Name: "webhooks_deactivated_total",
			Help: "Webhooks made inactive because their deliveries failed for longer than the maximum age"}),
	}
	if reg == nil {
		return m, nil
	}
	return m, errors.Join(reg.Register(attempts), reg.Register(m.seconds), reg.Register(m.deactivated))
}

// attempt records one delivery attempt that began at began.
func (m *metrics) attempt(began time.Time, err error) {
	m.seconds.Observe(time.Since(began).Seconds())
	if err == nil {
		m.delivered.Inc()
	} else {
		m.failed.Inc()
	}
}
