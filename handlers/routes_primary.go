package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Primary-network chain endpoints (spec 4, 7, 13, 14, 15):
// /v1/networks/{network}/blockchains/{blockchainId}/... Transactions,
// balances, blocks and vertices are served from the index (primary_txs.go,
// primary_balances.go, primary_blocks.go, primary_vertices.go).

// Route names (also the hosted API's operation IDs).
const (
	routeListPrimaryTxs       = "listLatestPrimaryNetworkTransactions"
	routeGetPrimaryBalances   = "getBalancesByAddresses"
	routeListVerticesByHeight = "getVertexByHeight"
	routeListBlocksByNode     = "listPrimaryNetworkBlocksByNodeId"
	routeListLatestVertices   = "listLatestXChainVertices"
)

// Query parameters of these endpoints.
const (
	paramL1ValidationID = "l1ValidationId"
	paramBlockTimestamp = "blockTimestamp"
	paramVertexHeight   = "vertexHeight"
)

// Chains each endpoint accepts as {blockchainId} (spec, Common path
// parameters): transactions, balances and blocks take all three chains,
// vertices the X-chain only. Another network's chain IDs are explained by
// resolveBlockchain.
func allPrimaryChains() []netinfo.Chain { return []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} }
func xChainOnly() []netinfo.Chain       { return []netinfo.Chain{netinfo.X} }

func (s *server) primaryRoutes() []route {
	const base = "/v1/networks/{network}/blockchains/{blockchainId}"
	return []route{
		{name: routeListPrimaryTxs, method: http.MethodGet, path: base + "/transactions",
			summary: "latest transactions of the P, X or C chain",
			handler: s.adapt(s.serveListPrimaryTxs)},
		{name: routeGetPrimaryBalances, method: http.MethodGet, path: base + "/balances",
			summary: "balances of addresses on the P, X or C chain",
			handler: s.adapt(s.serveGetPrimaryBalances)},
		{name: routeListVerticesByHeight, method: http.MethodGet, path: base + "/vertices:listByHeight",
			summary: "X-chain vertices at a DAG height",
			handler: s.adapt(s.serveListVerticesByHeight)},
		{name: routeListBlocksByNode, method: http.MethodGet, path: base + "/nodes/{nodeId}/blocks",
			summary: "blocks proposed by a node",
			handler: s.adapt(s.serveListBlocksByNode)},
		{name: routeListLatestVertices, method: http.MethodGet, path: base + "/vertices",
			summary: "latest X-chain vertices",
			handler: s.adapt(s.serveListLatestVertices)},
	}
}

// parsePrimaryAddresses reads a list of X/P-chain addresses of the node's
// network ("avax1...", "P-avax1...", "X-fuji1..."). allowEVM also admits
// 0x addresses, which C-chain atomic lookups accept. It returns the
// addresses as given (for page token filters) and their 20 bytes, in the
// same order: the index keys X/P and EVM addresses alike by those bytes.
func (s *server) parsePrimaryAddresses(q url.Values, name string, allowEVM bool) ([]string, []ids.ShortID, error) {
	hrp := s.Network().HRP()
	decoded := make(map[string]ids.ShortID)
	items, err := parseList(q, name, maxListEntries, func(item string) error {
		if !strings.HasPrefix(item, "0x") && !strings.HasPrefix(item, "0X") {
			b, err := parsePrimaryAddress(item, hrp)
			if err != nil {
				return err
			}
			decoded[item], err = ids.ToShortID(b)
			return err
		}
		if !allowEVM {
			return errors.New("is an EVM address; only C-chain atomic lookups accept those, here give X/P-chain addresses")
		}
		if err := validateEVMAddress(item); err != nil {
			return err
		}
		decoded[item] = ids.ShortID(common.HexToAddress(item))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	addrs := make([]ids.ShortID, len(items))
	for i, item := range items {
		addrs[i] = decoded[item]
	}
	return items, addrs, nil
}

// listPrimaryTxsRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions.
type listPrimaryTxsRequest struct {
	Chain     netinfo.Chain
	Addresses []string // as given; 0x addresses only on the C-chain
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	// L1ValidationID selects the L1 validator transactions of one
	// validation (P-chain only).
	L1ValidationID    ids.ID
	HasL1ValidationID bool
	TxTypes           []string // canonical PrimaryNetworkTxType names
	Time              timestampRange
	Page              page
}

func (s *server) parseListPrimaryTxsRequest(r *http.Request, heights *indexedView) (listPrimaryTxsRequest, error) {
	var req listPrimaryTxsRequest
	var err error
	if req.Chain, err = s.resolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, paramAddresses, req.Chain == netinfo.C); err != nil {
		return req, err
	}
	if raw := q.Get(paramL1ValidationID); raw != "" {
		if req.Chain != netinfo.P {
			return req, badRequest("%s is only supported on the P-chain; this request is for the %s",
				paramL1ValidationID, req.Chain.DataAPIAlias())
		}
		if req.L1ValidationID, err = parseHexOrCB58ID(paramL1ValidationID, raw); err != nil {
			return req, err
		}
		req.HasL1ValidationID = true
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = parseTimestampRange(q); err != nil {
		return req, err
	}
	// Spec rule: txTypes and timestamps filter an address listing (or, on
	// the P-chain, an L1 validation's transactions), never the whole chain.
	if len(req.Addresses) == 0 && !req.HasL1ValidationID {
		var name string
		switch {
		case len(req.TxTypes) > 0:
			name = paramTxTypes
		case req.Time.Start.Set:
			name = paramStartTimestamp
		case req.Time.End.Set:
			name = paramEndTimestamp
		}
		if name != "" {
			return req, badRequest("%s needs an address filter: filtering by txTypes or timestamps is only supported "+
				"together with %s (or, on the P-chain, %s)", name, paramAddresses, paramL1ValidationID)
		}
	}
	validation := ""
	if req.HasL1ValidationID {
		validation = req.L1ValidationID.String()
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListPrimaryTxs, true), req.Chain.String(), strings.Join(req.Addresses, ","),
		validation, strings.Join(req.TxTypes, ","), formatBound(req.Time.Start), formatBound(req.Time.End))
	return req, err
}

// getPrimaryBalancesRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/balances.
type getPrimaryBalancesRequest struct {
	Chain     netinfo.Chain
	Addresses []string // as given; 0x addresses only on the C-chain
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	// BlockTimestamp is the time (Unix seconds) to compute balances at;
	// unset means now.
	BlockTimestamp bound[int64]
}

func (s *server) parseGetPrimaryBalancesRequest(r *http.Request, heights *indexedView) (getPrimaryBalancesRequest, error) {
	var req getPrimaryBalancesRequest
	var err error
	if req.Chain, err = s.resolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.BlockTimestamp, err = parseTimestamp(q, paramBlockTimestamp); err != nil {
		return req, err
	}
	req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, paramAddresses, req.Chain == netinfo.C)
	return req, err
}

// listVerticesByHeightRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight
// (X-chain only).
type listVerticesByHeightRequest struct {
	VertexHeight uint64
	Page         page
}

func (s *server) parseListVerticesByHeightRequest(r *http.Request, heights *indexedView) (listVerticesByHeightRequest, error) {
	var req listVerticesByHeightRequest
	var err error
	if _, err = s.resolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.readsStream(heights, vertexStream)
	q := r.URL.Query()
	if req.VertexHeight, err = parseRequiredUint(q, paramVertexHeight); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListVerticesByHeight, true), strconv.FormatUint(req.VertexHeight, 10))
	return req, err
}

// listBlocksByNodeRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks.
type listBlocksByNodeRequest struct {
	Chain  netinfo.Chain
	NodeID ids.NodeID
	Time   timestampRange
	Page   page
}

func (s *server) parseListBlocksByNodeRequest(r *http.Request, heights *indexedView) (listBlocksByNodeRequest, error) {
	var req listBlocksByNodeRequest
	var err error
	if req.Chain, err = s.resolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	if req.NodeID, err = parseNodeID(paramNodeID, pathVar(r, paramNodeID)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Time, err = parseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListBlocksByNode, false), req.Chain.String(), req.NodeID.String(),
		formatBound(req.Time.Start), formatBound(req.Time.End))
	return req, err
}

// listLatestVerticesRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices (X-chain
// only).
type listLatestVerticesRequest struct {
	Page page
}

func (s *server) parseListLatestVerticesRequest(r *http.Request, heights *indexedView) (listLatestVerticesRequest, error) {
	var req listLatestVerticesRequest
	var err error
	if _, err = s.resolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.readsStream(heights, vertexStream)
	req.Page, err = s.parsePage(r.Context(), heights, r.URL.Query(), dataPaging(routeListLatestVertices, false))
	return req, err
}
