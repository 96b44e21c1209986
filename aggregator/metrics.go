package aggregator

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Reply results, the values of the replies_total "result" label.
const (
	replyValid            = "valid"
	replyInvalidSignature = "invalid_signature"
	replyEmpty            = "empty"
	replyAppError         = "app_error"
	replyTimeout          = "timeout"
	replyNotSent          = "not_sent"
	replyMalformed        = "malformed"
)

// Request outcomes, the values of the "outcome" label.
const (
	outcomeSuccess  = "success"
	outcomeInternal = "internal_error"
)

// metrics are the aggregator's Prometheus metrics (namespace
// avadata_sigagg once the VM registers them). Latency is a histogram, not
// icm-services' last-value gauge, and failures are counted by kind.
type metrics struct {
	requests          *prometheus.CounterVec
	duration          *prometheus.HistogramVec
	inflight          prometheus.Gauge
	signaturesAsked   prometheus.Counter
	replies           *prometheus.CounterVec
	appErrors         *prometheus.CounterVec
	cacheHits         prometheus.Counter
	cacheMessages     prometheus.GaugeFunc
	connectedStake    *prometheus.GaugeVec
	connectedPeers    prometheus.Gauge
	connects          prometheus.Counter
	disconnects       prometheus.Counter
	unexpectedReplies prometheus.Counter
	sharedRequests    prometheus.Counter
}

func newMetrics(reg prometheus.Registerer, cacheLen func() int) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "requests_total",
			Help: "aggregation requests by outcome: success, invalid request, not found, refused, unavailable, busy, internal error",
		}, []string{"outcome"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "request_duration_seconds",
			Help:    "time to answer an aggregation request, by outcome",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20},
		}, []string{"outcome"}),
		inflight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "inflight_requests",
			Help: "aggregation requests being served",
		}),
		signaturesAsked: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signatures_requested_total",
			Help: "ACP-118 signature requests sent, one per validator node asked",
		}),
		replies: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "replies_total",
			Help: "what asked validators answered: valid, invalid_signature, empty, app_error, timeout, not_sent, malformed",
		}, []string{"result"}),
		appErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "app_errors_total",
			Help: "refusals by the validators' AppError code",
		}, []string{"code"}),
		cacheHits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "signature_cache_hits_total",
			Help: "validator signatures taken from the cache instead of asked for",
		}),
		cacheMessages: prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "signature_cache_messages",
			Help: "messages with cached signatures",
		}, func() float64 { return float64(cacheLen()) }),
		connectedStake: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "connected_stake_ratio",
			Help: "portion (0..1) of a subnet's current weight the aggregator is connected to",
		}, []string{"subnet"}),
		connectedPeers: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "connected_peers",
			Help: "peers the aggregator's p2p network is connected to",
		}),
		connects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "peer_connects_total",
			Help: "connections to peers established (one per peer and subnet it validates)",
		}),
		disconnects: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "peer_disconnects_total",
			Help: "connections to peers lost",
		}),
		unexpectedReplies: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "unexpected_replies_total",
			Help: "answers to no pending request (after it expired, or duplicates); handled and dropped",
		}),
		sharedRequests: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "shared_requests_total",
			Help: "requests answered by an identical request's collection already running",
		}),
	}
	var errs []error
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.inflight, m.signaturesAsked, m.replies,
		m.appErrors, m.cacheHits, m.cacheMessages, m.connectedStake, m.connectedPeers, m.connects,
		m.disconnects, m.unexpectedReplies, m.sharedRequests} {
		errs = append(errs, reg.Register(c))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("registering the aggregator's metrics: %w", err)
	}
	return m, nil
}

// outcome names how a request ended, for the "outcome" label.
func outcome(err error) string {
	if err == nil {
		return outcomeSuccess
	}
	switch KindOf(err) {
	case KindInvalidRequest:
		return "invalid_request"
	case KindNotFound:
		return "not_found"
	case KindRefused:
		return "refused"
	case KindUnavailable:
		return "unavailable"
	case KindBusy:
		return "busy"
	default:
		return outcomeInternal
	}
}
