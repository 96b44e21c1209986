package handlers

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// EVM endpoints: the spec's 3, 6, 8, 10 and 16, the referenced chain,
// transaction and native balance endpoints, and the NFT holders endpoint of
// the metrics service (17). One file per query (evm_*.go) holds its request,
// its parse function and its handler; evm_shape.go shapes their responses.
//
// {chainId} is any EVM chain the node follows, as its EVM chain id, its cb58
// blockchain id or, for the C-chain, c-chain (NFT holders: EVM chain id
// only); {address} is 0x + 40 hex digits.

// Route names (also the hosted API's operation IDs).
const (
	routeListEVMAddressTxs   = "listTransactions"
	routeGetDeployment       = "getDeploymentTransaction"
	routeListTokenTransfers  = "listTransfers"
	routeListErc721Balances  = "listErc721Balances"
	routeGetContractMetadata = "getContractMetadata"
	routeListNFTHolders      = "listNftHolders"
	routeListChains          = "supportedChains"
	routeGetChain            = "getChainInfo"
	routeGetTransaction      = "getTransaction"
	routeGetNativeBalance    = "getNativeBalance"
)

func (s *server) evmRoutes() []route {
	return []route{
		{name: routeListChains, method: http.MethodGet, path: "/v1/chains",
			summary: "EVM chains this node follows", handler: s.adapt(s.serveListChains)},
		{name: routeGetChain, method: http.MethodGet, path: "/v1/chains/{chainId}",
			summary: "one EVM chain", handler: s.adapt(s.serveGetChain)},
		{name: routeListEVMAddressTxs, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}/transactions",
			summary: "transactions of an EVM address", handler: s.adapt(s.serveListEVMAddressTxs)},
		{name: routeGetTransaction, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/transactions/{txHash}",
			summary: "one EVM transaction", handler: s.adapt(s.serveGetTransaction)},
		{name: routeGetDeployment, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment",
			summary: "deployment transaction of a contract", handler: s.adapt(s.serveGetDeployment)},
		{name: routeListTokenTransfers, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/tokens/{address}/transfers",
			summary: "ERC transfers of a token contract", handler: s.adapt(s.serveListTokenTransfers)},
		{name: routeGetNativeBalance, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}/balances:getNative",
			summary: "native balance of an EVM address", handler: s.adapt(s.serveGetNativeBalance)},
		{name: routeListErc721Balances, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
			summary: "ERC-721 balances of an address", handler: s.adapt(s.serveListErc721Balances)},
		{name: routeGetContractMetadata, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}",
			summary: "contract metadata", handler: s.adapt(s.serveGetContractMetadata)},
		{name: routeListNFTHolders, method: http.MethodGet,
			path:    metricsPrefix + "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders",
			summary: "holders of an NFT contract (metrics service)", handler: s.adapt(s.serveListNFTHolders)},
	}
}

// evmTarget is the path part shared by the EVM endpoints about an address.
type evmTarget struct {
	Chain   netinfo.ChainInfo
	Address common.Address
}

// resolveEVMPath resolves the EVM {chainId} and the 0x {address} of r; the
// request reads that chain's index.
func (s *server) resolveEVMPath(r *http.Request, heights *indexedView) (evmTarget, error) {
	chain, err := resolveEVMChain(pathVar(r, paramChainID), s.Network())
	if err != nil {
		return evmTarget{}, err
	}
	s.readsStream(heights, evmChainStream(chain))
	address, err := parseEVMAddress(paramAddress, pathVar(r, paramAddress))
	return evmTarget{Chain: chain, Address: address}, err
}

// filterValues are the target's normalized values for a page token's
// filter hash: the chain's stream name (the same on every replica, unlike
// its store number) and the address.
func (t evmTarget) filterValues() []string {
	return []string{evmChainStream(t.Chain), strings.ToLower(t.Address.Hex())}
}

// parseEVMAddress checks a 0x-prefixed 20-byte hex address, any case.
func parseEVMAddress(param, s string) (common.Address, error) {
	if err := validateEVMAddress(s); err != nil {
		return common.Address{}, badRequest("invalid %s '%s': %v", param, truncate(s), err)
	}
	return common.HexToAddress(s), nil
}

// parseOptionalEVMAddress reads an optional address query parameter.
func parseOptionalEVMAddress(q url.Values, param string) (*common.Address, error) {
	raw := q.Get(param)
	if raw == "" {
		return nil, nil
	}
	addr, err := parseEVMAddress(param, raw)
	if err != nil {
		return nil, err
	}
	return &addr, nil
}

// evmBlocks turns the startBlock/endBlock filter into the reader's range.
// empty reports a range that selects nothing (endBlock=0: endBlock is
// exclusive), which the reader's "To 0 means no bound" cannot express.
func evmBlocks(br blockRange) (r evmdata.BlockRange, empty bool) {
	if br.End.Set && br.End.Value == 0 {
		return evmdata.BlockRange{}, true
	}
	return evmdata.BlockRange{From: br.Start.Value, To: br.End.Value}, false
}
