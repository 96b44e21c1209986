package primary

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/avadata/avadata/handlers/api"

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

func (s *server) primaryRoutes() []api.Route {
	const base = "/v1/networks/{network}/blockchains/{blockchainId}"
	return []api.Route{
		{Name: routeListPrimaryTxs, Method: http.MethodGet, Path: base + "/transactions",
			Summary: "latest transactions of the P, X or C chain",
			Handler: s.Adapt(s.serveListPrimaryTxs)},
		{Name: routeGetPrimaryBalances, Method: http.MethodGet, Path: base + "/balances",
			Summary: "balances of addresses on the P, X or C chain",
			Handler: s.Adapt(s.serveGetPrimaryBalances)},
		{Name: routeListVerticesByHeight, Method: http.MethodGet, Path: base + "/vertices:listByHeight",
			Summary: "X-chain vertices at a DAG height",
			Handler: s.Adapt(s.serveListVerticesByHeight)},
		{Name: routeListBlocksByNode, Method: http.MethodGet, Path: base + "/nodes/{nodeId}/blocks",
			Summary: "blocks proposed by a node",
			Handler: s.Adapt(s.serveListBlocksByNode)},
		{Name: routeListLatestVertices, Method: http.MethodGet, Path: base + "/vertices",
			Summary: "latest X-chain vertices",
			Handler: s.Adapt(s.serveListLatestVertices)},
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
	items, err := api.ParseList(q, name, api.MaxListEntries, func(item string) error {
		if !strings.HasPrefix(item, "0x") && !strings.HasPrefix(item, "0X") {
			b, err := api.ParsePrimaryAddress(item, hrp)
			if err != nil {
				return err
			}
			decoded[item], err = ids.ToShortID(b)
			return err
		}
		if !allowEVM {
			return errors.New("is an EVM address; only C-chain atomic lookups accept those, here give X/P-chain addresses")
		}
		if err := api.ValidateEVMAddress(item); err != nil {
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
	Time              api.TimestampRange
	Page              api.Page
}

func (s *server) parseListPrimaryTxsRequest(r *http.Request, heights *api.Heights) (listPrimaryTxsRequest, error) {
	var req listPrimaryTxsRequest
	var err error
	if req.Chain, err = s.ResolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, req.Chain == netinfo.C); err != nil {
		return req, err
	}
	if raw := q.Get(paramL1ValidationID); raw != "" {
		if req.Chain != netinfo.P {
			return req, api.BadRequest("%s is only supported on the P-chain; this request is for the %s",
				paramL1ValidationID, req.Chain.DataAPIAlias())
		}
		if req.L1ValidationID, err = api.ParseHexOrCB58ID(paramL1ValidationID, raw); err != nil {
			return req, err
		}
		req.HasL1ValidationID = true
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	// Spec rule: txTypes and timestamps filter an address listing (or, on
	// the P-chain, an L1 validation's transactions), never the whole chain.
	if len(req.Addresses) == 0 && !req.HasL1ValidationID {
		var name string
		switch {
		case len(req.TxTypes) > 0:
			name = api.ParamTxTypes
		case req.Time.Start.Set:
			name = api.ParamStartTimestamp
		case req.Time.End.Set:
			name = api.ParamEndTimestamp
		}
		if name != "" {
			return req, api.BadRequest("%s needs an address filter: filtering by txTypes or timestamps is only supported "+
				"together with %s (or, on the P-chain, %s)", name, api.ParamAddresses, paramL1ValidationID)
		}
	}
	validation := ""
	if req.HasL1ValidationID {
		validation = req.L1ValidationID.String()
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListPrimaryTxs, true), req.Chain.String(), strings.Join(req.Addresses, ","),
		validation, strings.Join(req.TxTypes, ","), api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
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
	BlockTimestamp api.Bound[int64]
}

func (s *server) parseGetPrimaryBalancesRequest(r *http.Request, heights *api.Heights) (getPrimaryBalancesRequest, error) {
	var req getPrimaryBalancesRequest
	var err error
	if req.Chain, err = s.ResolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.BlockTimestamp, err = api.ParseTimestamp(q, paramBlockTimestamp); err != nil {
		return req, err
	}
	req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, req.Chain == netinfo.C)
	return req, err
}

// listVerticesByHeightRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight
// (X-chain only).
type listVerticesByHeightRequest struct {
	VertexHeight uint64
	Page         api.Page
}

func (s *server) parseListVerticesByHeightRequest(r *http.Request, heights *api.Heights) (listVerticesByHeightRequest, error) {
	var req listVerticesByHeightRequest
	var err error
	if _, err = s.ResolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, api.VertexStream)
	q := r.URL.Query()
	if req.VertexHeight, err = api.ParseRequiredUint(q, paramVertexHeight); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListVerticesByHeight, true), strconv.FormatUint(req.VertexHeight, 10))
	return req, err
}

// listBlocksByNodeRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks.
type listBlocksByNodeRequest struct {
	Chain  netinfo.Chain
	NodeID ids.NodeID
	Time   api.TimestampRange
	Page   api.Page
}

func (s *server) parseListBlocksByNodeRequest(r *http.Request, heights *api.Heights) (listBlocksByNodeRequest, error) {
	var req listBlocksByNodeRequest
	var err error
	if req.Chain, err = s.ResolvePrimaryPath(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	if req.NodeID, err = api.ParseNodeID(api.ParamNodeID, api.PathVar(r, api.ParamNodeID)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListBlocksByNode, false), req.Chain.String(), req.NodeID.String(),
		api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

// listLatestVerticesRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/vertices (X-chain
// only).
type listLatestVerticesRequest struct {
	Page api.Page
}

func (s *server) parseListLatestVerticesRequest(r *http.Request, heights *api.Heights) (listLatestVerticesRequest, error) {
	var req listLatestVerticesRequest
	var err error
	if _, err = s.ResolvePrimaryChain(r, xChainOnly()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, api.VertexStream)
	req.Page, err = s.ParsePage(r.Context(), heights, r.URL.Query(), api.DataPaging(routeListLatestVertices, false))
	return req, err
}
