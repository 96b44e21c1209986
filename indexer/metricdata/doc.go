// Package metricdata holds the figures of the Metrics API as the store keeps
// them and the handlers read them: time buckets of an EVM chain's activity
// (chainbucket.go) at each granularity (granularity.go), and the roles whose
// distinct addresses are counted (role.go).
package metricdata
