// Package handlers is avadata's HTTP layer: the REST Data API, the metrics
// service and a small JSON-RPC endpoint, served from the node's own HTTP
// server.
//
// # Mounting
//
// The VM returns the handler of New under its handler keys "" and
// "/{rest:(?s).*}". The node then passes every request for
// /ext/bc/<chainID or alias>[/...] with its full path; the handler strips the
// first three segments itself, because the chain segment varies. Everything
// below is relative to that base URL ({base_url}). The metrics service is
// mounted at {metrics_url} = {base_url}/metrics, so the average TPS endpoint
// is GET {base_url}/metrics/v1/avg_tps/{chainId}.
//
// # Replies
//
// Every reply, success or error, is JSON with Content-Type application/json.
// Errors carry the spec body {"message", "error", "statusCode"}; on the
// metrics service "message" is an array of strings. Optional fields are
// omitted, never null. Unknown query parameters are ignored; a bad value of a
// known one is a 400 that names the parameter and what it accepts.
//
// # Data API endpoints
//
// Every endpoint of the spec's Data API is routed (routes_*.go, one file per
// domain). Each has a request struct and a parse function that validates its
// input in a fixed order: path parameters ({network}, then {blockchainId} or
// {chainId}, then {address}, {nodeId} or {txHash}), then query parameters,
// then the body. Endpoints this version does not serve yet are stubs: bad
// input gets the 400 the real endpoint will give, valid input a 404 whose
// message says the endpoint is recognised but not served yet, so clients can
// tell it from a mistyped URL. A wrong method on a known path is a 405 with
// an Allow header.
//
// # EVM endpoints
//
// The EVM endpoints (spec 3, 6, 8, 10, 16, 17 and the referenced chain,
// transaction and native balance endpoints) are served from the index for
// every EVM chain the node follows: {chainId} is a chain's EVM chain id, its
// blockchain id, or c-chain. Each query has its own file (evm_*.go: request,
// parse, handler); evm_shape.go alone turns evmdata values into the
// OpenAPI's shapes. Listings page with signed tokens (paging.go); the ones
// bounded by blocks pin the indexed height of their first page
// (evm_listing.go). Every request runs under Config.RequestTimeout, below
// the node's write timeout, so a slow query ends in a 503 the client reads.
//
// # Primary-network endpoints
//
// Transactions, balances and blocks by proposer (spec 4, 7, 14) are served
// from the index through Backend.Primary (primary_txs.go,
// primary_balances.go, primary_blocks.go); primary_shape.go and
// primary_txshape.go alone turn pdata values into the OpenAPI's P-, X- and
// C-chain shapes (primary_json.go). Tx listings page by position (the token
// carries the last tx read) and end a page early at a UTXO threshold (rule 3).
//
// # Clients and limits
//
// API keys are optional (x-data-api-key or x-glacier-api-key). Each known
// key has its own token bucket; requests without a key get one bucket per
// client address (ratelimit.go, clientbuckets.go). The node passes the
// peer's address to plugins only for HTTP/2 and Upgrade requests, and
// X-Forwarded-For is believed only from trusted proxies, so plain HTTP/1.1
// requests without a trusted proxy share one bucket (clientaddr.go says
// why, with the node's code). Every route has a body bound (bodylimit.go,
// 413) and a time budget (timebudget.go, 503 even when a handler ignores
// its context). See Config for the limits.
package handlers
