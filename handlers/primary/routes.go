package primary

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Route names: the hosted API's operation IDs. They label request metrics
// and bind page tokens to their operation, so they never change.
const (
	routeListLatestPrimaryNetworkTransactions        = "listLatestPrimaryNetworkTransactions"
	routeGetBalancesByAddresses                      = "getBalancesByAddresses"
	routeGetVertexByHeight                           = "getVertexByHeight"
	routeListPrimaryNetworkBlocksByNodeId            = "listPrimaryNetworkBlocksByNodeId"
	routeListLatestXChainVertices                    = "listLatestXChainVertices"
	routeListActivePrimaryNetworkStakingTransactions = "listActivePrimaryNetworkStakingTransactions"
	routeListHistoricalPrimaryNetworkRewards         = "listHistoricalPrimaryNetworkRewards"
	routeGetSingleValidatorDetails                   = "getSingleValidatorDetails"
	routeListDelegators                              = "listDelegators"
	routeListLatestPrimaryNetworkBlocks              = "listLatestPrimaryNetworkBlocks"
	routeGetBlockById                                = "getBlockById"
	routeGetVertexByHash                             = "getVertexByHash"
	routeListSubnets                                 = "listSubnets"
	routeGetSubnetById                               = "getSubnetById"
	routeListBlockchains                             = "listBlockchains"
	routeGetBlockchainById                           = "getBlockchainById"
	routeGetTxByHash                                 = "getTxByHash"
	routeGetAssetDetails                             = "getAssetDetails"
	routeListAssetTransactions                       = "listAssetTransactions"
	routeGetAvaxSupply                               = "getAvaxSupply"
	routeGetUtxosByAddresses                         = "getUtxosByAddresses"
	routeGetUtxosByAddressesV2                       = "getUtxosByAddressesV2"
	routeGetLastActivityTimestampByAddresses         = "getLastActivityTimestampByAddresses"
	routeGetLastActivityTimestampByAddressesV2       = "getLastActivityTimestampByAddressesV2"
	routeGetChainIdsForAddresses                     = "getChainIdsForAddresses"
	routeListValidators                              = "listValidators"
	routeListL1Validators                            = "listL1Validators"
	routeListPendingPrimaryNetworkRewards            = "listPendingPrimaryNetworkRewards"
	routeGetNetworkDetails                           = "getNetworkDetails"
)

// Query parameters of several operations.
const (
	paramL1ValidationID = "l1ValidationId"
	// paramAssetID is the {assetId} path parameter of the asset operations
	// and the assetId filter of the UTXO listings.
	paramAssetID        = "assetId"
	paramBlockTimestamp = "blockTimestamp"
	paramVertexHeight   = "vertexHeight"
	// paramSubnetID is the {subnetId} path parameter of getSubnetById and
	// the subnetId filter of the validator listings.
	paramSubnetID = "subnetId"
	// paramSortBy names the sort key of the UTXO and validator listings.
	paramSortBy = "sortBy"
)

// Chains an operation accepts as {blockchainId}: transactions, balances and
// blocks take all three chains, vertices the X-chain only, staking the
// P-chain only. Another network's chain IDs are explained by
// api.ResolveBlockchain.
func allPrimaryChains() []netinfo.Chain { return []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} }
func xChainOnly() []netinfo.Chain       { return []netinfo.Chain{netinfo.X} }
func pChainOnly() []netinfo.Chain       { return []netinfo.Chain{netinfo.P} }

// validationStatuses and delegationStatuses are the values of the
// validationStatus and delegationStatus filters (the spec's states of a
// staker).
func validationStatuses() []string { return []string{"completed", "active", "pending", "removed"} }
func delegationStatuses() []string { return []string{"completed", "active", "pending"} }

// routes lists the primary network's operations: the chain data first,
// then staking.
func (s *server) routes() []api.Route {
	const base = "/v1/networks/{network}/blockchains/{blockchainId}"
	return []api.Route{
		{Name: routeListLatestPrimaryNetworkTransactions, Method: http.MethodGet, Path: base + "/transactions",
			Summary: "latest transactions of the P, X or C chain",
			Handler: s.Adapt(s.serveListLatestPrimaryNetworkTransactions)},
		{Name: routeGetBalancesByAddresses, Method: http.MethodGet, Path: base + "/balances",
			Summary: "balances of addresses on the P, X or C chain",
			Handler: s.Adapt(s.serveGetBalancesByAddresses)},
		{Name: routeGetVertexByHeight, Method: http.MethodGet, Path: base + "/vertices:listByHeight",
			Summary: "X-chain vertices at a DAG height",
			Handler: s.Adapt(s.serveGetVertexByHeight)},
		{Name: routeListPrimaryNetworkBlocksByNodeId, Method: http.MethodGet, Path: base + "/nodes/{nodeId}/blocks",
			Summary: "blocks proposed by a node",
			Handler: s.Adapt(s.serveListPrimaryNetworkBlocksByNodeId)},
		{Name: routeListLatestXChainVertices, Method: http.MethodGet, Path: base + "/vertices",
			Summary: "latest X-chain vertices",
			Handler: s.Adapt(s.serveListLatestXChainVertices)},
		{Name: routeListActivePrimaryNetworkStakingTransactions, Method: http.MethodGet,
			Path:    base + "/transactions:listStaking",
			Summary: "active staking transactions on the P-chain",
			Handler: s.Adapt(s.serveListActivePrimaryNetworkStakingTransactions)},
		{Name: routeListHistoricalPrimaryNetworkRewards, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/rewards",
			Summary: "historical staking rewards",
			Handler: s.Adapt(s.serveListHistoricalPrimaryNetworkRewards)},
		{Name: routeGetSingleValidatorDetails, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/validators/{nodeId}",
			Summary: "validations of one node",
			Handler: s.Adapt(s.serveGetSingleValidatorDetails)},
		{Name: routeListDelegators, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/delegators",
			Summary: "delegators of the primary network",
			Handler: s.Adapt(s.serveListDelegators)},
		{Name: routeListLatestPrimaryNetworkBlocks, Method: http.MethodGet, Path: base + "/blocks",
			Summary: "latest blocks of the P or X chain",
			Handler: s.Adapt(s.serveListLatestPrimaryNetworkBlocks)},
		{Name: routeGetBlockById, Method: http.MethodGet, Path: base + "/blocks/{blockId}",
			Summary: "a P- or X-chain block by height or ID",
			Handler: s.Adapt(s.serveGetBlockById)},
		{Name: routeGetVertexByHash, Method: http.MethodGet, Path: base + "/vertices/{vertexHash}",
			Summary: "an X-chain vertex by ID",
			Handler: s.Adapt(s.serveGetVertexByHash)},
		{Name: routeListSubnets, Method: http.MethodGet, Path: "/v1/networks/{network}/subnets",
			Summary: "subnets and L1s with their owners and blockchains",
			Handler: s.Adapt(s.serveListSubnets)},
		{Name: routeGetSubnetById, Method: http.MethodGet, Path: "/v1/networks/{network}/subnets/{subnetId}",
			Summary: "one subnet or L1 with its owner and blockchains",
			Handler: s.Adapt(s.serveGetSubnetByID)},
		{Name: routeListBlockchains, Method: http.MethodGet, Path: "/v1/networks/{network}/blockchains",
			Summary: "blockchains of every subnet",
			Handler: s.Adapt(s.serveListBlockchains)},
		{Name: routeGetBlockchainById, Method: http.MethodGet, Path: base,
			Summary: "one blockchain",
			Handler: s.Adapt(s.serveGetBlockchainByID)},
		{Name: routeGetTxByHash, Method: http.MethodGet, Path: base + "/transactions/{txHash}",
			Summary: "one transaction of the P, X or C chain",
			Handler: s.Adapt(s.serveGetTxByHash)},
		{Name: routeGetAssetDetails, Method: http.MethodGet, Path: base + "/assets/{assetId}",
			Summary: "an X-chain asset",
			Handler: s.Adapt(s.serveGetAssetDetails)},
		{Name: routeListAssetTransactions, Method: http.MethodGet, Path: base + "/assets/{assetId}/transactions",
			Summary: "transactions of an X-chain asset",
			Handler: s.Adapt(s.serveListAssetTransactions)},
		{Name: routeGetAvaxSupply, Method: http.MethodGet, Path: "/v1/avax/supply",
			Summary: "AVAX supply, staked and burned",
			Handler: s.Adapt(s.serveGetAvaxSupply)},
		{Name: routeGetUtxosByAddresses, Method: http.MethodGet, Path: base + "/utxos",
			Summary: "UTXOs of addresses on the P, X or C chain",
			Handler: s.Adapt(s.serveGetUtxosByAddresses)},
		{Name: routeGetUtxosByAddressesV2, Method: http.MethodPost, Path: base + "/utxos",
			Summary: "UTXOs of addresses given in the body",
			Handler: s.Adapt(s.serveGetUtxosByAddressesV2)},
		{Name: routeGetLastActivityTimestampByAddresses, Method: http.MethodGet,
			Path:    base + "/lastActivityTimestampByAddresses",
			Summary: "newest activity of addresses on a chain",
			Handler: s.Adapt(s.serveGetLastActivityTimestampByAddresses)},
		{Name: routeGetLastActivityTimestampByAddressesV2, Method: http.MethodPost,
			Path:    base + "/lastActivityTimestampByAddresses",
			Summary: "newest activity of addresses given in the body",
			Handler: s.Adapt(s.serveGetLastActivityTimestampByAddressesV2)},
		{Name: routeGetChainIdsForAddresses, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/addresses:listChainIds",
			Summary: "primary chains each address has activity on",
			Handler: s.Adapt(s.serveGetChainIdsForAddresses)},
		{Name: routeListValidators, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/validators",
			Summary: "validations of every node, filtered and sorted",
			Handler: s.Adapt(s.serveListValidators)},
		{Name: routeListL1Validators, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/l1Validators",
			Summary: "L1 validators",
			Handler: s.Adapt(s.serveListL1Validators)},
		{Name: routeListPendingPrimaryNetworkRewards, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/rewards:listPending",
			Summary: "potential rewards of active stakers",
			Handler: s.Adapt(s.serveListPendingPrimaryNetworkRewards)},
		{Name: routeGetNetworkDetails, Method: http.MethodGet,
			Path:    "/v1/networks/{network}",
			Summary: "validator and delegator counts and stake",
			Handler: s.Adapt(s.serveGetNetworkDetails)},
	}
}
