// Package aggregator gathers BLS signatures of warp messages directly from
// validators (ACP-118) into signed messages. The HTTP layer (handlers/)
// calls it to serve the Data API's signature aggregation operations,
// aggregateSignatures and getAggregatedSignatures:
//
//	POST {base_url}/v1/signatureAggregator/{network}/aggregateSignatures
//	GET  {base_url}/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}
//
// A plugin's AppSender only reaches the plugin's own chain on other nodes,
// never their P-chain or C-chain signature handlers, so the aggregator is a
// p2p node of its own inside the plugin, built on avalanchego's network
// package. One concept per file, as in icm-services' signature-aggregator:
//
//   - api.go: Request, Result and the error kinds the HTTP layer maps;
//   - aggregator.go: Aggregator, one request from message to verified
//     signed message;
//   - collect.go: asking one validator set, heaviest first, with retries,
//     until the quorum (plus buffer) signed or cannot;
//   - verdict.go: a collection's replies, checked where they arrive and
//     applied to the validator that answered;
//   - shortfall.go: why a collection fell short of its quorum (QuorumReport);
//   - quorum.go: quorum weights, building the aggregate;
//   - cache.go: verified signatures by message and signer key;
//   - inflight.go: identical requests share one collection;
//   - txmessages.go: the warp message of a committed L1 transaction (GET);
//   - validatormessages.go: those of L1 validator transactions, which
//     depend on the validator's current state;
//   - validationindex.go: where a removed L1 validator's validation ID
//     came from, through the index the VM provides;
//   - identity.go: the persistent TLS identity (NodeID);
//   - p2pnetwork.go: the p2p network and sending requests;
//   - responses.go: matching answers to requests, timeouts;
//   - connections.go: keeping validators connected from start-up;
//   - validatorsets.go: validator sets from the host's P-chain state;
//   - metrics.go, health.go: Prometheus metrics and the health check.
package aggregator
