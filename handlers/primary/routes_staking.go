package primary

import (
	"net/http"
	"strings"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Staking endpoints (spec 5, 9, 11, 12): staking transactions, rewards,
// validators and delegators of the primary network, served from the index
// (staking_txs.go, staking_rewards.go, staking_validators.go,
// staking_delegators.go) with live P-chain state for active validations.

// Route names (also the hosted API's operation IDs).
const (
	routeListStakingTxs = "listActivePrimaryNetworkStakingTransactions"
	routeListRewards    = "listHistoricalPrimaryNetworkRewards"
	routeGetValidator   = "getSingleValidatorDetails"
	routeListDelegators = "listDelegators"
)

// validationStatuses and delegationStatuses are the filter values of the
// spec (States and transitions).
func validationStatuses() []string { return []string{"completed", "active", "pending", "removed"} }
func delegationStatuses() []string { return []string{"completed", "active", "pending"} }

// pChainOnly is the {blockchainId} set of the staking endpoint.
func pChainOnly() []netinfo.Chain { return []netinfo.Chain{netinfo.P} }

func (s *server) stakingRoutes() []api.Route {
	return []api.Route{
		{Name: routeListStakingTxs, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking",
			Summary: "active staking transactions on the P-chain",
			Handler: s.Adapt(s.serveListStakingTxs)},
		{Name: routeListRewards, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/rewards",
			Summary: "historical staking rewards",
			Handler: s.Adapt(s.serveListRewards)},
		{Name: routeGetValidator, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/validators/{nodeId}",
			Summary: "validations of one node",
			Handler: s.Adapt(s.serveGetValidator)},
		{Name: routeListDelegators, Method: http.MethodGet,
			Path:    "/v1/networks/{network}/delegators",
			Summary: "delegators of the primary network",
			Handler: s.Adapt(s.serveListDelegators)},
	}
}

// listStakingTxsRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking
// (P-chain only).
type listStakingTxsRequest struct {
	Addresses []string // X/P-chain addresses as given
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	TxTypes    []string // canonical PrimaryNetworkTxType names
	Time       api.TimestampRange
	Page       api.Page
}

func (s *server) parseListStakingTxsRequest(r *http.Request, heights *api.Heights) (listStakingTxsRequest, error) {
	var req listStakingTxsRequest
	var err error
	if _, err = s.ResolvePrimaryPath(r, heights, pChainOnly()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, false); err != nil {
		return req, err
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListStakingTxs, true), strings.Join(req.Addresses, ","),
		strings.Join(req.TxTypes, ","), api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

// listRewardsRequest is the validated input of
// GET /v1/networks/{network}/rewards. At least one of Addresses and NodeIDs
// is set.
type listRewardsRequest struct {
	Addresses []string // X/P-chain addresses as given
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	NodeIDs    []ids.NodeID
	Currency   string // lower-case, default usd
	Page       api.Page
}

func (s *server) parseListRewardsRequest(r *http.Request, heights *api.Heights) (listRewardsRequest, error) {
	var req listRewardsRequest
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P) // staking data is the P-chain's
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, false); err != nil {
		return req, err
	}
	if req.NodeIDs, err = api.ParseNodeIDList(q, api.ParamNodeIDs); err != nil {
		return req, err
	}
	if len(req.Addresses) == 0 && len(req.NodeIDs) == 0 {
		return req, api.BadRequest("%s or %s is required: give at least one of them", api.ParamAddresses, api.ParamNodeIDs)
	}
	if req.Currency, err = api.ParseCurrency(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListRewards, true), strings.Join(req.Addresses, ","),
		joinNodeIDs(req.NodeIDs), req.Currency)
	return req, err
}

// getValidatorRequest is the validated input of
// GET /v1/networks/{network}/validators/{nodeId}.
type getValidatorRequest struct {
	NodeID           ids.NodeID
	ValidationStatus string // one of validationStatuses, "" for all
	Page             api.Page
}

func (s *server) parseGetValidatorRequest(r *http.Request, heights *api.Heights) (getValidatorRequest, error) {
	var req getValidatorRequest
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P) // staking data is the P-chain's
	if req.NodeID, err = api.ParseNodeID(api.ParamNodeID, api.PathVar(r, api.ParamNodeID)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.ValidationStatus, err = api.ParseEnum(q, api.ParamValidationStatus, validationStatuses()); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeGetValidator, true), req.NodeID.String(), req.ValidationStatus)
	return req, err
}

// listDelegatorsRequest is the validated input of
// GET /v1/networks/{network}/delegators.
type listDelegatorsRequest struct {
	RewardAddresses []string // X/P-chain addresses as given
	// RewardAddressIDs are the 20 bytes of RewardAddresses, in the same order.
	RewardAddressIDs []ids.ShortID
	NodeIDs          []ids.NodeID
	DelegationStatus string // one of delegationStatuses, "" for all
	Page             api.Page
}

func (s *server) parseListDelegatorsRequest(r *http.Request, heights *api.Heights) (listDelegatorsRequest, error) {
	var req listDelegatorsRequest
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P) // staking data is the P-chain's
	q := r.URL.Query()
	if req.RewardAddresses, req.RewardAddressIDs, err = s.parsePrimaryAddresses(q, api.ParamRewardAddresses, false); err != nil {
		return req, err
	}
	if req.DelegationStatus, err = api.ParseEnum(q, api.ParamDelegationStatus, delegationStatuses()); err != nil {
		return req, err
	}
	if req.NodeIDs, err = api.ParseNodeIDList(q, api.ParamNodeIDs); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListDelegators, true), strings.Join(req.RewardAddresses, ","),
		joinNodeIDs(req.NodeIDs), req.DelegationStatus)
	return req, err
}
