package primary

import (
	"context"
	"net/http"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/delegators (listDelegators): delegations the index
// holds, optionally of some nodes, paying some reward addresses, of one
// status; newest start first by default, each in the variant of its status
// now. delegationFee is the fee of the validator delegated to.
//
// Rewards:
//   - completed: netReward is what the delegator's reward tx paid it
//     (DELEGATOR), grossReward that plus the validator's fee. The fee is a
//     VALIDATOR_FEE of the same reward tx when the validator started before
//     Cortina; later validators accrue it instead, and it is then worked
//     back from the net reward and the fee rate (see grossOfNet). An
//     aborted delegation earned 0.
//   - active: the node's potential reward for the delegation is the
//     estimated gross reward, less the validator's fee the estimated net
//     one. The node lists a validator's delegators only when asked for
//     that one validator, so the page costs one read per node of its
//     active primary-network delegations; any it cannot answer degrade to 0.
//   - pending: 0 (the chain computes the potential reward at the start).

// maxLiveReads bounds the node reads one page runs at once.
const maxLiveReads = 4

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

func (s *server) serveListDelegators(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListDelegatorsRequest(r, heights)
	if err != nil {
		return err
	}
	ctx := r.Context()
	now := s.Now().Unix()
	stakers, token, err := s.listStakers(ctx, pdata.StakerQuery{
		Delegators: true, NodeIDs: req.NodeIDs, RewardAddrs: req.RewardAddressIDs,
		Status: req.DelegationStatus, Now: now,
	}, req.Page)
	if err != nil {
		return err
	}
	potential := s.potentialRewards(ctx, stakers, now)
	shapes := &shaper{node: s.Network(), chain: netinfo.P}
	resp := listDelegatorsResponse{Delegators: make([]any, 0, len(stakers)), NextPageToken: token}
	for i := range stakers {
		resp.Delegators = append(resp.Delegators, shapes.delegatorDetails(&stakers[i], now, potential))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// delegatorDetails shapes a delegation in the variant of its status at now;
// potential holds the node's potential rewards of active ones by tx.
func (v *shaper) delegatorDetails(st *pdata.IndexedStaker, now int64, potential map[ids.ID]uint64) any {
	status := st.Status(now)
	if status == pdata.StatusRemoved {
		status = pdata.StatusCompleted // only subnet validators are removed; keeps the closed enum
	}
	base := delegatorBase{
		TxHash:           st.TxID.String(),
		NodeID:           st.Staker.NodeID.String(),
		RewardAddresses:  v.stakerAddresses(&st.Staker),
		AmountDelegated:  api.FormatUint(st.Staker.Weight),
		DelegationFee:    delegationFeePercent(st.DelegationShares),
		StartTimestamp:   st.Staker.Start,
		EndTimestamp:     st.Staker.End,
		DelegationStatus: status,
	}
	if status == pdata.StatusCompleted {
		gross, net := completedDelegation(st)
		return completedDelegator{delegatorBase: base, GrossReward: api.FormatUint(gross), NetReward: api.FormatUint(net)}
	}
	gross := potential[st.TxID] // 0 when unknown
	_, net := delegationFeeOf(gross, st.DelegationShares)
	return estimatedDelegator{delegatorBase: base, EstimatedGrossReward: api.FormatUint(gross), EstimatedNetReward: api.FormatUint(net)}
}

// completedDelegation is what a completed delegation earned: before and
// after the validator's fee.
func completedDelegation(st *pdata.IndexedStaker) (gross, net uint64) {
	net = st.Rewards[pdata.RewardDelegator]
	if fee, paid := st.Rewards[pdata.RewardValidatorFee]; paid {
		return net + fee, net
	}
	return grossOfNet(net, st.DelegationShares), net
}

// potentialRewards reads the node's potential rewards of the page's active
// primary-network delegations, by staking tx: one read per node, a few at
// a time (currentOfNodes). Nodes the node cannot answer for are left out.
func (s *server) potentialRewards(ctx context.Context, stakers []pdata.IndexedStaker, now int64) map[ids.ID]uint64 {
	out := map[ids.ID]uint64{}
	for _, v := range s.currentOfNodes(ctx, activeNodesOf(stakers, now)) {
		for _, d := range v.Delegators {
			if d.PotentialReward != nil {
				out[d.TxID] = *d.PotentialReward
			}
		}
	}
	return out
}
