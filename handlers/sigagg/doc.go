// Package sigagg serves signature aggregation: it validates a request for a
// warp message (or a committed P-chain L1 transaction), hands it to the
// aggregator, and maps the aggregator's outcome to the spec's reply.
package sigagg
