// Package metrics serves the metrics service ({metrics_url}): the daily
// average TPS of every followed chain, from the index's TPS buckets.
//
// The L1 validator fee series (getMetricsByNodeId, getMetricsBySubnetId,
// getMetricsByValidationId, getTotalL1ValidatorMetrics: l1_fee_series.go)
// come from the P writer's fee series rows (metricdata.L1FeeSeries).
package metrics
