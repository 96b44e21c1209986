package handlers

import (
	"net/http"
	"strings"

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

func (s *server) stakingRoutes() []route {
	return []route{
		{name: routeListStakingTxs, method: http.MethodGet,
			path:    "/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking",
			summary: "active staking transactions on the P-chain",
			handler: s.adapt(s.serveListStakingTxs)},
		{name: routeListRewards, method: http.MethodGet,
			path:    "/v1/networks/{network}/rewards",
			summary: "historical staking rewards",
			handler: s.adapt(s.serveListRewards)},
		{name: routeGetValidator, method: http.MethodGet,
			path:    "/v1/networks/{network}/validators/{nodeId}",
			summary: "validations of one node",
			handler: s.adapt(s.serveGetValidator)},
		{name: routeListDelegators, method: http.MethodGet,
			path:    "/v1/networks/{network}/delegators",
			summary: "delegators of the primary network",
			handler: s.adapt(s.serveListDelegators)},
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
	Time       timestampRange
	Page       page
}

func (s *server) parseListStakingTxsRequest(r *http.Request, heights *indexedView) (listStakingTxsRequest, error) {
	var req listStakingTxsRequest
	var err error
	if _, err = s.resolvePrimaryPath(r, heights, pChainOnly()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, paramAddresses, false); err != nil {
		return req, err
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = parseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListStakingTxs, true), strings.Join(req.Addresses, ","),
		strings.Join(req.TxTypes, ","), formatBound(req.Time.Start), formatBound(req.Time.End))
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
	Page       page
}

func (s *server) parseListRewardsRequest(r *http.Request, heights *indexedView) (listRewardsRequest, error) {
	var req listRewardsRequest
	var err error
	if err = resolveNetwork(pathVar(r, paramNetwork), s.Network()); err != nil {
		return req, err
	}
	s.readsChain(heights, netinfo.P) // staking data is the P-chain's
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, paramAddresses, false); err != nil {
		return req, err
	}
	if req.NodeIDs, err = parseNodeIDList(q, paramNodeIDs); err != nil {
		return req, err
	}
	if len(req.Addresses) == 0 && len(req.NodeIDs) == 0 {
		return req, badRequest("%s or %s is required: give at least one of them", paramAddresses, paramNodeIDs)
	}
	if req.Currency, err = parseCurrency(q); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListRewards, true), strings.Join(req.Addresses, ","),
		joinNodeIDs(req.NodeIDs), req.Currency)
	return req, err
}

// getValidatorRequest is the validated input of
// GET /v1/networks/{network}/validators/{nodeId}.
type getValidatorRequest struct {
	NodeID           ids.NodeID
	ValidationStatus string // one of validationStatuses, "" for all
	Page             page
}

func (s *server) parseGetValidatorRequest(r *http.Request, heights *indexedView) (getValidatorRequest, error) {
	var req getValidatorRequest
	var err error
	if err = resolveNetwork(pathVar(r, paramNetwork), s.Network()); err != nil {
		return req, err
	}
	s.readsChain(heights, netinfo.P) // staking data is the P-chain's
	if req.NodeID, err = parseNodeID(paramNodeID, pathVar(r, paramNodeID)); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.ValidationStatus, err = parseEnum(q, paramValidationStatus, validationStatuses()); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeGetValidator, true), req.NodeID.String(), req.ValidationStatus)
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
	Page             page
}

func (s *server) parseListDelegatorsRequest(r *http.Request, heights *indexedView) (listDelegatorsRequest, error) {
	var req listDelegatorsRequest
	var err error
	if err = resolveNetwork(pathVar(r, paramNetwork), s.Network()); err != nil {
		return req, err
	}
	s.readsChain(heights, netinfo.P) // staking data is the P-chain's
	q := r.URL.Query()
	if req.RewardAddresses, req.RewardAddressIDs, err = s.parsePrimaryAddresses(q, paramRewardAddresses, false); err != nil {
		return req, err
	}
	if req.DelegationStatus, err = parseEnum(q, paramDelegationStatus, delegationStatuses()); err != nil {
		return req, err
	}
	if req.NodeIDs, err = parseNodeIDList(q, paramNodeIDs); err != nil {
		return req, err
	}
	req.Page, err = s.parsePage(r.Context(), heights, q, dataPaging(routeListDelegators, true), strings.Join(req.RewardAddresses, ","),
		joinNodeIDs(req.NodeIDs), req.DelegationStatus)
	return req, err
}
