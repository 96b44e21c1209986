// Package handlers is avadata's HTTP layer: the REST Data API, the metrics
// service and a small JSON-RPC endpoint, served from the node's own HTTP
// server. New assembles it from one package per domain.
//
// # Layout
//
// A request travels serve (the request path: route names, request metrics,
// panics, rate limits, body bounds, time budgets; limits holds the limits)
// to one operation of a domain package, which reads the index through the
// narrow reader interface it declares and answers through api, the core
// every operation shares (errors, parameters, chain resolution, paging and
// page tokens, the index heights a reply reflects, replicas, the route
// type). The domain packages never import one another:
//
//	evm      transactions, transfers, balances, contracts and chains of every followed EVM chain
//	primary  P-chain, X-chain and C-chain atomic data, and staking
//	sigagg   signature aggregation (ACP-118)
//	operations  background operations: transaction exports (operations/exportjob runs them)
//	metrics  the metrics service
//
// This package adds what is the node's own (the index at GET /, the OpenAPI
// document, /v1/status and JSON-RPC) and the one route table: New
// concatenates the domains' tables, and the same table drives the router,
// the index, the request metrics' route labels and the OpenAPI document (a
// test compares the document with it). handlertest holds the fakes,
// fixtures and assertions every domain's tests share.
//
// # Operations
//
// Every served operation, named by the hosted API's operationId (the route
// name, which also labels metrics and binds page tokens), with the file that
// serves it (a test compares this table with the route table):
//
//	index                                        GET   /                                                                           index.go
//	openapi                                      GET   /openapi.json                                                               openapi.go
//	status                                       GET   /v1/status                                                                  status.go
//	rpc                                          POST  /rpc                                                                        rpc.go
//	data-health-check                            GET   /v1/health-check                                                            data_health_check.go
//	live-check                                   GET   /v1/live-check                                                              live_check.go
//	avgTps                                       GET   /metrics/v1/avg_tps/{chainId}                                               metrics/avg_tps.go
//	getEvmChainMetrics                           GET   /metrics/v2/chains/{chainId}/metrics/{metric}                               metrics/get_evm_chain_metrics.go
//	listChains                                   GET   /metrics/v2/chains                                                          metrics/list_chains.go
//	getChain                                     GET   /metrics/v2/chains/{chainId}                                                metrics/get_chain.go
//	getEvmChainRollingWindowMetrics              GET   /metrics/v2/chains/{chainId}/rollingWindowMetrics/{metric}                  metrics/get_evm_chain_rolling_window_metrics.go
//	getMetricsByNodeId                           GET   /metrics/v2/validator/{nodeId}/metrics/{metric}                             metrics/get_metrics_by_node_id.go
//	getMetricsBySubnetId                         GET   /metrics/v2/subnet/{subnetId}/metrics/{metric}                              metrics/get_metrics_by_subnet_id.go
//	getMetricsByValidationId                     GET   /metrics/v2/validation/{l1ValidationId}/metrics/{metric}                    metrics/get_metrics_by_validation_id.go
//	getTotalL1ValidatorMetrics                   GET   /metrics/v2/validators/metrics/{metric}                                     metrics/get_total_l1_validator_metrics.go
//	getStakingMetrics                            GET   /metrics/v2/networks/{network}/metrics/{metric}                             metrics/get_staking_metrics.go
//	getValidatorsByDateRange                     GET   /metrics/v2/subnets/{subnetId}/validators:getAddresses                      metrics/get_validators_by_date_range.go
//	metrics-health-check                         GET   /metrics/v2/health-check                                                    metrics/metrics_health_check.go
//	metrics-live-check                           GET   /metrics/v2/live-check                                                      metrics/metrics_live_check.go
//	aggregateSignatures                          POST  /v1/signatureAggregator/{network}/aggregateSignatures                       sigagg/aggregate_signatures.go
//	getAggregatedSignatures                      GET   /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}              sigagg/get_aggregated_signatures.go
//	supportedChains                              GET   /v1/chains                                                                  evm/supported_chains.go
//	getChainInfo                                 GET   /v1/chains/{chainId}                                                        evm/get_chain_info.go
//	listTransactions                             GET   /v1/chains/{chainId}/addresses/{address}/transactions                       evm/list_transactions.go
//	getTransaction                               GET   /v1/chains/{chainId}/transactions/{txHash}                                  evm/get_transaction.go
//	getDeploymentTransaction                     GET   /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment         evm/get_deployment_transaction.go
//	listTransfers                                GET   /v1/chains/{chainId}/tokens/{address}/transfers                             evm/list_transfers.go
//	getNativeBalance                             GET   /v1/chains/{chainId}/addresses/{address}/balances:getNative                 evm/get_native_balance.go
//	listErc721Balances                           GET   /v1/chains/{chainId}/addresses/{address}/balances:listErc721                evm/list_erc721_balances.go
//	getContractMetadata                          GET   /v1/chains/{chainId}/addresses/{address}                                    evm/get_contract_metadata.go
//	listNftHolders                               GET   /metrics/v2/chains/{chainId}/contracts/{address}/nfts:listHolders           evm/list_nft_holders.go
//	getLatestBlocks                              GET   /v1/chains/{chainId}/blocks                                                 evm/get_latest_blocks.go
//	getBlock                                     GET   /v1/chains/{chainId}/blocks/{blockId}                                       evm/get_block.go
//	getTransactionsForBlock                      GET   /v1/chains/{chainId}/blocks/{blockId}/transactions                          evm/get_transactions_for_block.go
//	listLatestBlocksAllChains                    GET   /v1/blocks                                                                  evm/list_latest_blocks_all_chains.go
//	listAllLatestBlocks                          GET   /v1/chains/allBlocks                                                        evm/list_latest_blocks_all_chains.go
//	listLatestTransactions                       GET   /v1/chains/{chainId}/transactions                                           evm/list_latest_transactions.go
//	listLatestTransactionsAllChains              GET   /v1/transactions                                                            evm/list_latest_transactions_all_chains.go
//	listAllLatestTransactions                    GET   /v1/chains/allTransactions                                                  evm/list_latest_transactions_all_chains.go
//	listNativeTransactions                       GET   /v1/chains/{chainId}/addresses/{address}/transactions:listNative            evm/list_native_transactions.go
//	listErc20Transactions                        GET   /v1/chains/{chainId}/addresses/{address}/transactions:listErc20             evm/list_erc20_transactions.go
//	listErc721Transactions                       GET   /v1/chains/{chainId}/addresses/{address}/transactions:listErc721            evm/list_erc721_transactions.go
//	listErc1155Transactions                      GET   /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155           evm/list_erc1155_transactions.go
//	listInternalTransactions                     GET   /v1/chains/{chainId}/addresses/{address}/transactions:listInternals         evm/list_internal_transactions.go
//	listTransactionsV2                           GET   /v2/chains/{chainId}/addresses/{address}/transactions                       evm/list_transactions_v2.go
//	listTokens                                   GET   /v1/chains/{chainId}/nfts/collections/{address}/tokens                      evm/list_tokens.go
//	getTokenDetails                              GET   /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}            evm/get_token_details.go
//	reindexNft                                   POST  /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex    evm/reindex_nft.go
//	listContractDeployments                      GET   /v1/chains/{chainId}/contracts/{address}/deployments                        evm/list_contract_deployments.go
//	listAddressChains                            GET   /v1/address/{address}/chains                                                evm/list_address_chains.go
//	getAddressChains                             GET   /v1/chains/address/{address}                                                evm/list_address_chains.go
//	listErc20Balances                            GET   /v1/chains/{chainId}/addresses/{address}/balances:listErc20                 evm/list_erc20_balances.go
//	listErc1155Balances                          GET   /v1/chains/{chainId}/addresses/{address}/balances:listErc1155               evm/list_erc1155_balances.go
//	listCollectibleBalances                      GET   /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles          evm/list_collectible_balances.go
//	listLatestPrimaryNetworkTransactions         GET   /v1/networks/{network}/blockchains/{blockchainId}/transactions              primary/list_latest_primary_network_transactions.go
//	getBalancesByAddresses                       GET   /v1/networks/{network}/blockchains/{blockchainId}/balances                  primary/get_balances_by_addresses.go
//	getVertexByHeight                            GET   /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight     primary/get_vertex_by_height.go
//	listPrimaryNetworkBlocksByNodeId             GET   /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks     primary/list_primary_network_blocks_by_node_id.go
//	listLatestXChainVertices                     GET   /v1/networks/{network}/blockchains/{blockchainId}/vertices                  primary/list_latest_xchain_vertices.go
//	listActivePrimaryNetworkStakingTransactions  GET   /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking  primary/list_active_primary_network_staking_transactions.go
//	listHistoricalPrimaryNetworkRewards          GET   /v1/networks/{network}/rewards                                              primary/list_historical_primary_network_rewards.go
//	getSingleValidatorDetails                    GET   /v1/networks/{network}/validators/{nodeId}                                  primary/get_single_validator_details.go
//	listDelegators                               GET   /v1/networks/{network}/delegators                                           primary/list_delegators.go
//	listLatestPrimaryNetworkBlocks               GET   /v1/networks/{network}/blockchains/{blockchainId}/blocks                    primary/list_latest_primary_network_blocks.go
//	getBlockById                                 GET   /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}          primary/get_block_by_id.go
//	getVertexByHash                              GET   /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}     primary/get_vertex_by_hash.go
//	listSubnets                                  GET   /v1/networks/{network}/subnets                                              primary/list_subnets.go
//	getSubnetById                                GET   /v1/networks/{network}/subnets/{subnetId}                                   primary/get_subnet_by_id.go
//	listBlockchains                              GET   /v1/networks/{network}/blockchains                                          primary/list_blockchains.go
//	getBlockchainById                            GET   /v1/networks/{network}/blockchains/{blockchainId}                           primary/get_blockchain_by_id.go
//	getTxByHash                                  GET   /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}     primary/get_tx_by_hash.go
//	getAssetDetails                              GET   /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}          primary/get_asset_details.go
//	listAssetTransactions                        GET   /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions  primary/list_asset_transactions.go
//	getAvaxSupply                                GET   /v1/avax/supply                                                             primary/get_avax_supply.go
//	getUtxosByAddresses                          GET   /v1/networks/{network}/blockchains/{blockchainId}/utxos                     primary/get_utxos_by_addresses.go
//	getUtxosByAddressesV2                        POST  /v1/networks/{network}/blockchains/{blockchainId}/utxos                     primary/get_utxos_by_addresses_v2.go
//	getLastActivityTimestampByAddresses          GET   /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses primary/get_last_activity_timestamp_by_addresses.go
//	getLastActivityTimestampByAddressesV2        POST  /v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses primary/get_last_activity_timestamp_by_addresses_v2.go
//	getChainIdsForAddresses                      GET   /v1/networks/{network}/addresses:listChainIds                               primary/get_chain_ids_for_addresses.go
//	listValidators                               GET   /v1/networks/{network}/validators                                           primary/list_validators.go
//	listL1Validators                             GET   /v1/networks/{network}/l1Validators                                         primary/list_l1_validators.go
//	listPendingPrimaryNetworkRewards             GET   /v1/networks/{network}/rewards:listPending                                  primary/list_pending_primary_network_rewards.go
//	getNetworkDetails                            GET   /v1/networks/{network}                                                      primary/get_network_details.go
//	postTransactionExportJob                     POST  /v1/operations/transactions:export                                          operations/post_transaction_export_job.go
//	getOperationResult                           GET   /v1/operations/{operationId}                                                operations/get_operation_result.go
//	downloadOperationResult                      GET   /v1/operations/{operationId}/download                                       operations/download_operation_result.go
//	createWebhook                                POST  /v1/webhooks                                                                webhooks/create_webhook.go
//	listWebhooks                                 GET   /v1/webhooks                                                                webhooks/list_webhooks.go
//	getWebhook                                   GET   /v1/webhooks/{id}                                                           webhooks/get_webhook.go
//	updateWebhook                                PATCH /v1/webhooks/{id}                                                           webhooks/update_webhook.go
//	deactivateWebhook                            DELETE /v1/webhooks/{id}                                                           webhooks/deactivate_webhook.go
//	generateOrRotateSharedSecret                 POST  /v1/webhooks:generateOrRotateSharedSecret                                   webhooks/generate_or_rotate_shared_secret.go
//	getSharedSecret                              GET   /v1/webhooks:getSharedSecret                                                webhooks/get_shared_secret.go
//	getAddressesFromWebhook                      GET   /v1/webhooks/{id}/addresses                                                 webhooks/get_addresses_from_webhook.go
//	addAddressesToWebhook                        PATCH /v1/webhooks/{id}/addresses                                                 webhooks/add_addresses_to_webhook.go
//	removeAddressesFromWebhook                   DELETE /v1/webhooks/{id}/addresses                                                 webhooks/remove_addresses_from_webhook.go
//
// One file per operation holds its request type, its parse function (path
// parameters first, then query parameters, then the body) and its serve
// function; response types and their shaping stay per domain (reply_types.go
// and shaper.go). A change to one operation touches that file, its test
// beside it, and the domain's shaping when the reply's shape changes; a new
// operation adds a file and one line to its domain's routes.go.
//
// # Mounting
//
// The VM returns the handler of New under its handler keys "" and
// "/{rest:(?s).*}". The node then passes every request for
// /ext/bc/<chainID or alias>[/...] with its full path; the handler strips the
// first three segments itself, because the chain segment varies. Everything
// below is relative to that base URL ({base_url}). The metrics service is
// mounted at {metrics_url} = {base_url}/metrics, so the average TPS operation
// is GET {base_url}/metrics/v1/avg_tps/{chainId}.
//
// # Replies
//
// Every reply, success or error, is JSON with Content-Type application/json.
// Errors carry the spec body {"message", "error", "statusCode"}; on the
// metrics service "message" is an array of strings. Optional fields are
// omitted, never null. Unknown query parameters are ignored; a bad value of a
// known one is a 400 that names the parameter and what it accepts. A wrong
// method on a known path is a 405 with an Allow header. Listings page with
// signed tokens (api/paging.go); the EVM listings bounded by blocks pin the
// indexed height of their first page (evm/pinned_listing.go);
// primary-network transaction listings page by position and end a page
// early at the spec's UTXO threshold. Every reply says which heights of the
// index it reflects (X-Indexed-Height, api/heights.go), so replicas behind
// one load balancer serve one consistent API (api/replicas.go).
//
// # Clients and limits
//
// API keys are optional (x-data-api-key or x-glacier-api-key). Each known
// key has its own token bucket; requests without a key get one bucket per
// client address (limits/ratelimit.go, limits/clientbuckets.go). The node
// passes the peer's address to plugins only for HTTP/2 and Upgrade
// requests, and X-Forwarded-For is believed only from trusted proxies, so
// plain HTTP/1.1 requests without a trusted proxy share one bucket
// (limits/clientaddr.go says why, with the node's code). Every route has a
// body bound (limits/bodylimit.go, 413) and a time budget
// (limits/timebudget.go, 503 even when a handler ignores its context),
// below the node's write timeout, so a slow query ends in a 503 the client
// reads. See Config for the limits.
package handlers
