// Package metrics serves the metrics service ({metrics_url}): the daily
// average TPS of every followed chain, from the index's TPS buckets.
package metrics
