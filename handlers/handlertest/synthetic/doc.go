// Package synthetic fills a real Badger store with synthetic EVM traffic
// for the HTTP layer's benchmarks (the evm routes' BenchmarkServe, the
// explorer's page benchmark), and answers the node's live-state reads
// with constants, so that a benchmark over millions of transactions needs
// no node. The traffic is deterministic: two stores filled with the same
// count hold the same rows.
package synthetic
