// Package aggregator will gather BLS signatures for warp messages directly
// from validators over the p2p network (ACP-118) and serve the signature
// aggregation endpoints of the Data API:
//
//	POST {base_url}/v1/signatureAggregator/{network}/aggregateSignatures
//	GET  {base_url}/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}
//
// The HTTP layer already validates both requests (handlers/routes_sigagg.go);
// the VM already tracks connected peers (vm/peers.go), which this package
// will ask for signatures through the VM's AppSender. The design is in
// shared/reference/sigagg.md: api / aggregator / cache / metrics split, as in
// icm-services' signature-aggregator.
package aggregator
