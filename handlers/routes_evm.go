package handlers

import (
	"net/http"
	"strconv"

	"github.com/avadata/avadata/indexer/netinfo"
)

// EVM endpoints (spec 3, 6, 8, 10, 16) and the NFT holders endpoint of the
// metrics service (spec 17). {chainId} is the C-chain, as its EVM chain id or
// blockchain id (NFT holders: EVM chain id only); {address} is 0x + 40 hex
// digits.

// Route names (also the hosted API's operation IDs).
const (
	routeListEVMAddressTxs   = "listTransactions"
	routeGetDeployment       = "getDeploymentTransaction"
	routeListTokenTransfers  = "listTransfers"
	routeListErc721Balances  = "listErc721Balances"
	routeGetContractMetadata = "getContractMetadata"
	routeListNFTHolders      = "listNftHolders"
)

// paramContractAddress filters the ERC-721 balances to one contract.
const paramContractAddress = "contractAddress"

func (s *server) evmRoutes() []route {
	return []route{
		{name: routeListEVMAddressTxs, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}/transactions",
			summary: "transactions of an EVM address (not served yet)",
			handler: stub(s, s.parseListEVMAddressTxsRequest)},
		{name: routeGetDeployment, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment",
			summary: "deployment transaction of a contract (not served yet)",
			handler: stub(s, s.parseGetDeploymentRequest)},
		{name: routeListTokenTransfers, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/tokens/{address}/transfers",
			summary: "ERC transfers of a token contract (not served yet)",
			handler: stub(s, s.parseListTokenTransfersRequest)},
		{name: routeListErc721Balances, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}/balances:listErc721",
			summary: "ERC-721 balances of an address (not served yet)",
			handler: stub(s, s.parseListErc721BalancesRequest)},
		{name: routeGetContractMetadata, method: http.MethodGet,
			path:    "/v1/chains/{chainId}/addresses/{address}",
			summary: "contract metadata (not served yet)",
			handler: stub(s, s.parseGetContractMetadataRequest)},
		{name: routeListNFTHolders, method: http.MethodGet,
			path:    metricsPrefix + "/v2/chains/{chainId}/contracts/{address}/nfts:listHolders",
			summary: "holders of an NFT contract (metrics service; not served yet)",
			handler: stub(s, s.parseListNFTHoldersRequest)},
	}
}

// listEVMAddressTxsRequest is the validated input of
// GET /v1/chains/{chainId}/addresses/{address}/transactions.
type listEVMAddressTxsRequest struct {
	Chain     netinfo.Chain
	Address   string // lower-case 0x hex
	Blocks    blockRange
	PageSize  int
	SortOrder sortOrder
	Page      PageToken
}

func (s *server) parseListEVMAddressTxsRequest(r *http.Request) (listEVMAddressTxsRequest, error) {
	var req listEVMAddressTxsRequest
	var err error
	if req.Chain, req.Address, err = s.resolveEVMPath(r); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.PageSize, err = parsePageSize(q, standardPageSize()); err != nil {
		return req, err
	}
	if req.Blocks, err = parseBlockRange(q); err != nil {
		return req, err
	}
	if req.SortOrder, err = parseSortOrder(q); err != nil {
		return req, err
	}
	req.Page, err = s.pageFrom(q, routeListEVMAddressTxs, req.Chain.String(), req.Address,
		formatBound(req.Blocks.Start), formatBound(req.Blocks.End), string(req.SortOrder))
	return req, err
}

// getDeploymentRequest is the validated input of
// GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment.
type getDeploymentRequest struct {
	Chain    netinfo.Chain
	Address  string // lower-case 0x hex
	Currency string // lower-case, default usd
}

func (s *server) parseGetDeploymentRequest(r *http.Request) (getDeploymentRequest, error) {
	var req getDeploymentRequest
	var err error
	if req.Chain, req.Address, err = s.resolveEVMPath(r); err != nil {
		return req, err
	}
	req.Currency, err = parseCurrency(r.URL.Query())
	return req, err
}

// listTokenTransfersRequest is the validated input of
// GET /v1/chains/{chainId}/tokens/{address}/transfers.
type listTokenTransfersRequest struct {
	Chain    netinfo.Chain
	Address  string // lower-case 0x hex of the token contract
	Blocks   blockRange
	PageSize int
	Page     PageToken
}

func (s *server) parseListTokenTransfersRequest(r *http.Request) (listTokenTransfersRequest, error) {
	var req listTokenTransfersRequest
	var err error
	if req.Chain, req.Address, err = s.resolveEVMPath(r); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.PageSize, err = parsePageSize(q, standardPageSize()); err != nil {
		return req, err
	}
	if req.Blocks, err = parseBlockRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.pageFrom(q, routeListTokenTransfers, req.Chain.String(), req.Address,
		formatBound(req.Blocks.Start), formatBound(req.Blocks.End))
	return req, err
}

// listErc721BalancesRequest is the validated input of
// GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721.
type listErc721BalancesRequest struct {
	Chain           netinfo.Chain
	Address         string // lower-case 0x hex
	ContractAddress string // lower-case 0x hex, "" for all contracts
	PageSize        int    // 1..500
	Page            PageToken
}

func (s *server) parseListErc721BalancesRequest(r *http.Request) (listErc721BalancesRequest, error) {
	var req listErc721BalancesRequest
	var err error
	if req.Chain, req.Address, err = s.resolveEVMPath(r); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.PageSize, err = parsePageSize(q, erc721PageSize()); err != nil {
		return req, err
	}
	if raw := q.Get(paramContractAddress); raw != "" {
		if req.ContractAddress, err = parseEVMAddress(paramContractAddress, raw); err != nil {
			return req, err
		}
	}
	req.Page, err = s.pageFrom(q, routeListErc721Balances, req.Chain.String(), req.Address, req.ContractAddress)
	return req, err
}

// getContractMetadataRequest is the validated input of
// GET /v1/chains/{chainId}/addresses/{address}.
type getContractMetadataRequest struct {
	Chain   netinfo.Chain
	Address string // lower-case 0x hex
}

func (s *server) parseGetContractMetadataRequest(r *http.Request) (getContractMetadataRequest, error) {
	var req getContractMetadataRequest
	var err error
	req.Chain, req.Address, err = s.resolveEVMPath(r)
	return req, err
}

// listNFTHoldersRequest is the validated input of
// GET {metrics_url}/v2/chains/{chainId}/contracts/{address}/nfts:listHolders.
type listNFTHoldersRequest struct {
	Chain    netinfo.Chain
	Address  string // lower-case 0x hex of the NFT contract
	PageSize int    // 1..5000, default 1000
	Page     PageToken
}

// parseListNFTHoldersRequest differs from the data-service EVM endpoints in
// two ways: {chainId} must be the EVM chain id number (the spec rules out
// blockchain ids here), and page tokens expire like all metrics tokens.
func (s *server) parseListNFTHoldersRequest(r *http.Request) (listNFTHoldersRequest, error) {
	var req listNFTHoldersRequest
	node := s.backend.Network()
	segment := pathVar(r, paramChainID)
	if _, err := strconv.ParseUint(segment, 10, 64); err != nil {
		return req, badRequest("invalid %s '%s': must be an EVM chain id number (this node's C-chain is %d), not a blockchain id",
			paramChainID, truncate(segment), node.EVMChainID)
	}
	var err error
	if req.Chain, err = resolveEVMChain(segment, node); err != nil {
		return req, err
	}
	if req.Address, err = parseEVMAddress(paramAddress, pathVar(r, paramAddress)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.PageSize, err = parsePageSize(q, nftHolderPageSize()); err != nil {
		return req, err
	}
	filters := NewFilterHash(routeListNFTHolders, req.Chain.String(), req.Address)
	req.Page, err = s.resumeFrom(q.Get(paramPageToken), routeListNFTHolders, filters, MetricsPageTokenLifetime)
	return req, err
}
