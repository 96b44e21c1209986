package primary

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/rewards:listPending
// (listPendingPrimaryNetworkRewards): the rewards the active primary-network
// stakers (validators and delegators) will earn if their staking period
// ends well, one PendingReward per staker: those whose rewards owner holds
// any of addresses, or those of any of nodeIds (exactly one of the two is
// required). Newest start first by default (sortOrder).
//
//   - estimatedReward: the node's potential reward of the staker
//     (platform.getCurrentValidators of its node, which lists the node's
//     delegators too); for a delegator the part left after its
//     validator's fee, as platformvm splits it. When the node cannot
//     answer, the potential reward the index computed when the staker
//     became current stands in, and 0 when neither is known.
//   - rewardType: VALIDATOR for a validation, DELEGATOR for a delegation.
//   - progress: the share of the staking period elapsed, in percent.
//   - addresses: the staker's rewards owner.
//
// Paging: the token carries the last staker's place (start time, staking
// tx), as the other staker listings do.

// pendingReward is the OpenAPI's PendingReward.
type pendingReward struct {
	Addresses       []string    `json:"addresses"`
	TxHash          string      `json:"txHash"`
	AmountStaked    string      `json:"amountStaked"`
	NodeID          string      `json:"nodeId"`
	StartTimestamp  int64       `json:"startTimestamp"`
	EndTimestamp    int64       `json:"endTimestamp"`
	RewardType      string      `json:"rewardType"`
	Progress        float64     `json:"progress"`
	EstimatedReward assetAmount `json:"estimatedReward"`
}

// listPendingRewardsResponse is the OpenAPI's ListPendingRewardsResponse.
type listPendingRewardsResponse struct {
	PendingRewards []pendingReward `json:"pendingRewards"`
	NextPageToken  string          `json:"nextPageToken,omitempty"`
}

// listPendingPrimaryNetworkRewardsRequest is the validated input of
// GET /v1/networks/{network}/rewards:listPending: exactly one of Addresses
// and NodeIDs is set.
type listPendingPrimaryNetworkRewardsRequest struct {
	rewardSelection
	Page api.Page
}

func (s *server) parseListPendingPrimaryNetworkRewardsRequest(r *http.Request, heights *api.Heights) (listPendingPrimaryNetworkRewardsRequest, error) {
	var req listPendingPrimaryNetworkRewardsRequest
	var err error
	if req.rewardSelection, err = s.parseRewardSelection(r, heights); err != nil {
		return req, err
	}
	if len(req.Addresses) > 0 && len(req.NodeIDs) > 0 {
		return req, api.BadRequest("give %s or %s, not both", api.ParamAddresses, api.ParamNodeIDs)
	}
	q := r.URL.Query()
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListPendingPrimaryNetworkRewards, true),
		strings.Join(req.Addresses, ","), joinNodeIDs(req.NodeIDs))
	return req, err
}

func (s *server) serveListPendingPrimaryNetworkRewards(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListPendingPrimaryNetworkRewardsRequest(r, heights)
	if err != nil {
		return err
	}
	ctx := r.Context()
	now := s.Now().Unix()
	stakers, token, err := s.listActiveStakers(ctx, &req, now)
	if err != nil {
		return err
	}
	current := s.currentOfNodes(ctx, activeNodesOf(stakers, now))
	shapes, err := s.newShaper(ctx, netinfo.P, []ids.ID{s.Network().AVAXAssetID})
	if err != nil {
		return err
	}
	resp := listPendingRewardsResponse{PendingRewards: make([]pendingReward, 0, len(stakers)), NextPageToken: token}
	for i := range stakers {
		resp.PendingRewards = append(resp.PendingRewards, shapes.pendingReward(&stakers[i], current, now))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// listActiveStakers reads one page of the request's active primary-network
// stakers, validators and delegators merged in the page's order.
func (s *server) listActiveStakers(ctx context.Context, req *listPendingPrimaryNetworkRewardsRequest, now int64) ([]pdata.IndexedStaker, string, error) {
	reader, err := s.stakingReader()
	if err != nil {
		return nil, "", err
	}
	after, err := api.ResumeAfter(req.Page, decodeStakerPos)
	if err != nil {
		return nil, "", err
	}
	desc := req.Page.Order == api.SortDesc
	var all []pdata.IndexedStaker
	for _, delegators := range []bool{false, true} {
		// Subnet stakers earn no reward: the listing reads past them.
		// Reading page+1 of each kind after the position is enough for
		// one page of both.
		from, kept := after, 0
		for {
			got, err := reader.Stakers(ctx, pdata.StakerQuery{
				Delegators: delegators, NodeIDs: req.NodeIDs, RewardAddrs: req.AddressIDs,
				Status: pdata.StatusActive, Now: now, Desc: desc, After: from, Limit: req.Page.Size + 1,
			})
			if err != nil {
				return nil, "", fmt.Errorf("listing active stakers: %w", err)
			}
			for i := range got {
				if got[i].Staker.Subnet == ids.Empty {
					all = append(all, got[i])
					kept++
				}
			}
			if len(got) <= req.Page.Size || kept > req.Page.Size {
				break
			}
			last := &got[len(got)-1]
			from = &pdata.StakerPos{Start: last.Staker.Start, TxID: last.TxID}
		}
	}
	slices.SortFunc(all, func(a, b pdata.IndexedStaker) int {
		c := compareStakerPos(a.Staker.Start, a.TxID, b.Staker.Start, b.TxID)
		if desc {
			return -c
		}
		return c
	})
	all, more := api.TrimPage(all, req.Page.Size)
	if !more {
		return all, "", nil
	}
	last := &all[len(all)-1]
	token, err := s.NextPageToken(req.Page, last.Staker.Start, encodeTimeID(last.Staker.Start, last.TxID))
	return all, token, err
}

// compareStakerPos orders stakers as the index lists them: by start time,
// then staking tx ID.
func compareStakerPos(startA int64, a ids.ID, startB int64, b ids.ID) int {
	switch {
	case startA < startB:
		return -1
	case startA > startB:
		return 1
	}
	return a.Compare(b)
}

// pendingReward shapes an active staker's potential reward; current holds
// the node's current validators of the page's nodes, with their
// delegators.
func (v *shaper) pendingReward(st *pdata.IndexedStaker, current map[ids.ID]platformvm.ClientPermissionlessValidator, now int64) pendingReward {
	out := pendingReward{
		Addresses:      v.stakerAddresses(&st.Staker),
		TxHash:         st.TxID.String(),
		AmountStaked:   api.FormatUint(st.Staker.Weight),
		NodeID:         st.Staker.NodeID.String(),
		StartTimestamp: st.Staker.Start,
		EndTimestamp:   st.Staker.End,
		RewardType:     pdata.RewardValidator,
	}
	if span := st.Staker.End - st.Staker.Start; span > 0 {
		out.Progress = min(100, max(0, float64(now-st.Staker.Start)/float64(span)*100))
	}
	var reward uint64
	gross, known := nodePotentialReward(st, current)
	if !known && st.PotentialReward != nil {
		gross, known = *st.PotentialReward, true
	}
	if known {
		reward = gross
	}
	if st.Staker.Delegator {
		out.RewardType = pdata.RewardDelegator
		_, reward = delegationFeeOf(gross, delegationSharesOf(st, current))
	}
	out.EstimatedReward = v.assetAmount(v.node.AVAXAssetID, new(big.Int).SetUint64(reward), false)
	return out
}

// nodePotentialReward finds the node's potential reward of a staker among
// current (a delegator's under its validator).
func nodePotentialReward(st *pdata.IndexedStaker, current map[ids.ID]platformvm.ClientPermissionlessValidator) (uint64, bool) {
	if !st.Staker.Delegator {
		if v, ok := current[st.TxID]; ok && v.PotentialReward != nil {
			return *v.PotentialReward, true
		}
		return 0, false
	}
	for _, v := range current {
		for _, d := range v.Delegators {
			if d.TxID == st.TxID && d.PotentialReward != nil {
				return *d.PotentialReward, true
			}
		}
	}
	return 0, false
}

// delegationSharesOf is the fee of a delegator's validator: the index's,
// else the node's (its percent back in parts per million).
func delegationSharesOf(st *pdata.IndexedStaker, current map[ids.ID]platformvm.ClientPermissionlessValidator) uint32 {
	if st.ValidatorTx != ids.Empty {
		return st.DelegationShares
	}
	for _, v := range current {
		if slices.ContainsFunc(v.Delegators, func(d platformvm.ClientDelegator) bool { return d.TxID == st.TxID }) {
			return uint32(float64(v.DelegationFee)*10_000 + 0.5)
		}
	}
	return 0
}
