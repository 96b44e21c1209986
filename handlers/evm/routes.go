package evm

import (
	"net/http"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// EVM operations: the transactions, transfers, balances, contracts and
// chains of every followed EVM chain, and the metrics service's NFT holders
// (whose data is the EVM index's). One file per operation, named by its
// operationId, holds its request, its parse function and its handler;
// shaper.go shapes their responses.
//
// {chainId} is any EVM chain the node follows, as its EVM chain id, its cb58
// blockchain id or, for the C-chain, c-chain (NFT holders: EVM chain id
// only); {address} is 0x + 40 hex digits.

// Route names (also the hosted API's operation IDs).
const (
	routeListTransactions         = "listTransactions"
	routeGetDeploymentTransaction = "getDeploymentTransaction"
	routeListTransfers            = "listTransfers"
	routeListErc721Balances       = "listErc721Balances"
	routeGetContractMetadata      = "getContractMetadata"
	routeListNftHolders           = "listNftHolders"
	routeSupportedChains          = "supportedChains"
	routeGetChainInfo             = "getChainInfo"
	routeGetTransaction           = "getTransaction"
	routeGetNativeBalance         = "getNativeBalance"
)

// Route names of the blocks and the latest transactions.
const (
	routeGetLatestBlocks                 = "getLatestBlocks"
	routeGetBlock                        = "getBlock"
	routeGetTransactionsForBlock         = "getTransactionsForBlock"
	routeListLatestBlocksAllChains       = "listLatestBlocksAllChains"
	routeListAllLatestBlocks             = "listAllLatestBlocks" // deprecated alias
	routeListLatestTransactions          = "listLatestTransactions"
	routeListLatestTransactionsAllChains = "listLatestTransactionsAllChains"
	routeListAllLatestTransactions       = "listAllLatestTransactions" // deprecated alias
)

// Route names of an address's typed histories.
const (
	routeListNativeTransactions   = "listNativeTransactions"
	routeListErc20Transactions    = "listErc20Transactions"
	routeListErc721Transactions   = "listErc721Transactions"
	routeListErc1155Transactions  = "listErc1155Transactions"
	routeListInternalTransactions = "listInternalTransactions"
	routeListTransactionsV2       = "listTransactionsV2"
)

// Route names of the NFT collections, deployments and address chains.
const (
	routeListTokens              = "listTokens"
	routeGetTokenDetails         = "getTokenDetails"
	routeReindexNft              = "reindexNft"
	routeListContractDeployments = "listContractDeployments"
	routeListAddressChains       = "listAddressChains"
	routeGetAddressChains        = "getAddressChains"
)

// Token balance route names (token_balances.go).
const (
	routeListErc20Balances       = "listErc20Balances"
	routeListErc1155Balances     = "listErc1155Balances"
	routeListCollectibleBalances = "listCollectibleBalances"
)

func (s *server) evmRoutes() []api.Route {
	return []api.Route{
		{Name: routeSupportedChains, Method: http.MethodGet, Path: "/v1/chains",
			Summary: "EVM chains this node follows", Handler: s.Adapt(s.serveSupportedChains)},
		{Name: routeGetChainInfo, Method: http.MethodGet, Path: "/v1/chains/{chainId}",
			Summary: "one EVM chain", Handler: s.Adapt(s.serveGetChainInfo)},
		{Name: routeListTransactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions",
			Summary: "transactions of an EVM address", Handler: s.Adapt(s.serveListTransactions)},
		{Name: routeGetTransaction, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/transactions/{txHash}",
			Summary: "one EVM transaction", Handler: s.Adapt(s.serveGetTransaction)},
		{Name: routeGetDeploymentTransaction, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment",
			Summary: "deployment transaction of a contract", Handler: s.Adapt(s.serveGetDeploymentTransaction)},
		{Name: routeListTransfers, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/tokens/{address}/transfers",
			Summary: "ERC transfers of a token contract", Handler: s.Adapt(s.serveListTransfers)},
		{Name: routeGetNativeBalance, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
			Summary: "native balance of an EVM address", Handler: s.Adapt(s.serveGetNativeBalance)},
		{Name: routeListErc721Balances, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
			Summary: "ERC-721 balances of an address", Handler: s.Adapt(s.serveListErc721Balances)},
		{Name: routeGetContractMetadata, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}",
			Summary: "contract metadata", Handler: s.Adapt(s.serveGetContractMetadata)},
		{Name: routeListNftHolders, Method: http.MethodGet,
			Path:    api.MetricsPrefix + "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders",
			Summary: "holders of an NFT contract (metrics service)", Handler: s.Adapt(s.serveListNftHolders)},
		// Blocks and the latest transactions.
		{Name: routeGetLatestBlocks, Method: http.MethodGet, Path: "/v1/chains/{chainId}/blocks",
			Summary: "latest blocks of an EVM chain", Handler: s.Adapt(s.serveGetLatestBlocks)},
		{Name: routeGetBlock, Method: http.MethodGet, Path: "/v1/chains/{chainId}/blocks/{blockId}",
			Summary: "one EVM block, by number or hash", Handler: s.Adapt(s.serveGetBlock)},
		{Name: routeGetTransactionsForBlock, Method: http.MethodGet, Path: "/v1/chains/{chainId}/blocks/{blockId}/transactions",
			Summary: "transactions of an EVM block", Handler: s.Adapt(s.serveGetTransactionsForBlock)},
		{Name: routeListLatestBlocksAllChains, Method: http.MethodGet, Path: "/v1/blocks",
			Summary: "latest blocks of every followed EVM chain", Handler: s.Adapt(s.serveListLatestBlocksAllChains(routeListLatestBlocksAllChains))},
		{Name: routeListAllLatestBlocks, Method: http.MethodGet, Path: "/v1/chains/allBlocks",
			Summary: "latest blocks of every followed EVM chain (deprecated path)", Handler: s.Adapt(s.serveListLatestBlocksAllChains(routeListAllLatestBlocks))},
		{Name: routeListLatestTransactions, Method: http.MethodGet, Path: "/v1/chains/{chainId}/transactions",
			Summary: "latest transactions of an EVM chain", Handler: s.Adapt(s.serveListLatestTransactions)},
		{Name: routeListLatestTransactionsAllChains, Method: http.MethodGet, Path: "/v1/transactions",
			Summary: "latest transactions of every followed EVM chain", Handler: s.Adapt(s.serveListLatestTransactionsAllChains(routeListLatestTransactionsAllChains))},
		{Name: routeListAllLatestTransactions, Method: http.MethodGet, Path: "/v1/chains/allTransactions",
			Summary: "latest transactions of every followed EVM chain (deprecated path)", Handler: s.Adapt(s.serveListLatestTransactionsAllChains(routeListAllLatestTransactions))},
		{Name: routeListNativeTransactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions:listNative",
			Summary: "native transactions of an EVM address", Handler: s.Adapt(s.serveListNativeTransactions)},
		{Name: routeListErc20Transactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc20",
			Summary: "ERC-20 transfers of an EVM address", Handler: s.Adapt(s.serveListErc20Transactions)},
		{Name: routeListErc721Transactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc721",
			Summary: "ERC-721 transfers of an EVM address", Handler: s.Adapt(s.serveListErc721Transactions)},
		{Name: routeListErc1155Transactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions:listErc1155",
			Summary: "ERC-1155 transfers of an EVM address", Handler: s.Adapt(s.serveListErc1155Transactions)},
		{Name: routeListInternalTransactions, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/transactions:listInternals",
			Summary: "internal transactions of an EVM address", Handler: s.Adapt(s.serveListInternalTransactions)},
		{Name: routeListTransactionsV2, Method: http.MethodGet,
			Path:    "/v2/chains/{chainId}/addresses/{address}/transactions",
			Summary: "transactions of an EVM address (v2)", Handler: s.Adapt(s.serveListTransactionsV2)},
		{Name: routeListTokens, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/nfts/collections/{address}/tokens",
			Summary: "tokens of an NFT collection", Handler: s.Adapt(s.serveListTokens)},
		{Name: routeGetTokenDetails, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}",
			Summary: "one token of an NFT collection", Handler: s.Adapt(s.serveGetTokenDetails)},
		{Name: routeReindexNft, Method: http.MethodPost,
			Path:    "/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex",
			Summary: "read an NFT's URI and metadata again (API key)", Handler: s.Adapt(s.serveReindexNft)},
		{Name: routeListContractDeployments, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/contracts/{address}/deployments",
			Summary: "contracts an address deployed", Handler: s.Adapt(s.serveListContractDeployments)},
		{Name: routeListAddressChains, Method: http.MethodGet, Path: "/v1/address/{address}/chains",
			Summary: "EVM chains where an address has activity", Handler: s.Adapt(s.serveListAddressChains)},
		{Name: routeGetAddressChains, Method: http.MethodGet, Path: "/v1/chains/address/{address}",
			Summary: "EVM chains where an address has activity (deprecated alias)", Handler: s.Adapt(s.serveListAddressChains)},
		{Name: routeListErc20Balances, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/balances:listErc20",
			Summary: "ERC-20 balances of an address at a block", Handler: s.Adapt(s.serveListErc20Balances)},
		{Name: routeListErc1155Balances, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/balances:listErc1155",
			Summary: "ERC-1155 balances of an address at a block", Handler: s.Adapt(s.serveListErc1155Balances)},
		{Name: routeListCollectibleBalances, Method: http.MethodGet,
			Path:    "/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles",
			Summary: "ERC-721 and ERC-1155 balances of an address", Handler: s.Adapt(s.serveListCollectibleBalances)},
	}
}

// evmTarget is the path part shared by the EVM endpoints about an address.
type evmTarget struct {
	Chain   netinfo.ChainInfo
	Address common.Address
	// Stream is the chain's stream name (api.Core.EVMChainStream).
	Stream string
}

// resolveEVMPath resolves the EVM {chainId} and the 0x {address} of r; the
// request reads that chain's index.
func (s *server) resolveEVMPath(r *http.Request, heights *api.Heights) (evmTarget, error) {
	chain, err := api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network())
	if err != nil {
		return evmTarget{}, err
	}
	stream := s.EVMChainStream(chain)
	s.ReadsStream(heights, stream)
	if _, err := s.history(r.Context(), chain, heights); err != nil {
		return evmTarget{}, err
	}
	address, err := api.ParseEVMAddress(api.ParamAddress, api.PathVar(r, api.ParamAddress))
	return evmTarget{Chain: chain, Address: address, Stream: stream}, err
}

// filterValues are the target's normalized values for a page token's
// filter hash: the chain's stream name (the same on every replica, unlike
// its store number) and the address.
func (t evmTarget) filterValues() []string {
	return []string{t.Stream, strings.ToLower(t.Address.Hex())}
}

// evmBlocks turns the startBlock/endBlock filter into the reader's range.
// empty reports a range that selects nothing (endBlock=0: endBlock is
// exclusive), which the reader's "To 0 means no bound" cannot express.
func evmBlocks(br api.BlockRange) (r evmdata.BlockRange, empty bool) {
	if br.End.Set && br.End.Value == 0 {
		return evmdata.BlockRange{}, true
	}
	return evmdata.BlockRange{From: br.Start.Value, To: br.End.Value}, false
}
