package primary

import (
	"context"
	"math/big"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/validators/{nodeId} (getSingleValidatorDetails): every
// validation of one node the index holds, newest start first by default,
// each in the variant of its status now.
//
// Which validations: those of the primary network and of subnets alike.
// The hosted API shows primary-network validations, but only permissioned
// subnet validators can be removed (RemoveSubnetValidatorTx), so without
// them the "removed" status could never be served; their subnetId tells
// them apart.
//
// The index holds what the txs say; an active validation also needs live
// P-chain state (uptime, connection, potential rewards, current
// delegations), read from the node (Backend.Platform) for the primary
// network only, which is all getCurrentValidators covers. When the node
// cannot answer, or for an active subnet validation, the reply degrades
// instead of failing: required numbers are 0, optional live-only members
// are left out, and delegatorCount and amountDelegated come from the index.
// The rest of the active variant:
//   - stakePercentage: the validator's own stake over the total stake
//     (validators' and delegators') of the current primary validators, in
//     percent;
//   - validatorHealth: reachabilityPercent is 100 when the node is
//     connected to the validator, else 0; the benched percentages are not
//     known to a node's API and are 0;
//   - geolocation: null (no source); avalancheGoVersion: left out
//     (optional, no source here); delegationCapacity: see
//     delegationCapacity (current_validators.go), left out without the
//     node's entry;
//   - potentialRewards: the node's potential reward for the validation, and
//     as delegation reward the fees accrued so far plus the fees of the
//     current delegations' potential rewards.

// getSingleValidatorDetailsRequest is the validated input of
// GET /v1/networks/{network}/validators/{nodeId}.
type getSingleValidatorDetailsRequest struct {
	NodeID           ids.NodeID
	ValidationStatus string // one of validationStatuses, "" for all
	Page             api.Page
}

func (s *server) parseGetSingleValidatorDetailsRequest(r *http.Request, heights *api.Heights) (getSingleValidatorDetailsRequest, error) {
	var req getSingleValidatorDetailsRequest
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
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeGetSingleValidatorDetails, true), req.NodeID.String(), req.ValidationStatus)
	return req, err
}

func (s *server) serveGetSingleValidatorDetails(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetSingleValidatorDetailsRequest(r, heights)
	if err != nil {
		return err
	}
	ctx := r.Context()
	now := s.Now().Unix()
	stakers, token, err := s.listStakers(ctx, pdata.StakerQuery{
		NodeIDs: []ids.NodeID{req.NodeID}, Status: req.ValidationStatus, Now: now,
	}, req.Page)
	if err != nil {
		return err
	}
	live := s.liveValidations(ctx, stakers, now)
	shapes := &shaper{node: s.Network(), chain: netinfo.P}
	resp := listValidatorsResponse{Validators: make([]any, 0, len(stakers)), NextPageToken: token}
	for i := range stakers {
		resp.Validators = append(resp.Validators, shapes.validatorDetails(&stakers[i], now, live))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// validatorDetails shapes a validation in the variant of its status at now.
func (v *shaper) validatorDetails(st *pdata.IndexedStaker, now int64, live liveValidators) any {
	status := st.Status(now)
	base := validatorBase{
		TxHash:           st.TxID.String(),
		NodeID:           st.Staker.NodeID.String(),
		SubnetID:         st.Staker.Subnet.String(),
		AmountStaked:     api.FormatUint(st.Staker.Weight),
		StartTimestamp:   st.Staker.Start,
		EndTimestamp:     st.Staker.End,
		BLSCredentials:   stakerBLS(&st.Staker),
		ValidationStatus: status,
	}
	if takesDelegations(st.Type, &st.Staker) {
		base.DelegationFee = delegationFeePercent(st.Staker.DelegationShares)
	}
	switch status {
	case pdata.StatusRemoved:
		return removedValidator{validatorBase: base, RemoveTxHash: st.RemoveTx.String(), RemoveTimestamp: st.RemoveTime}
	case pdata.StatusCompleted:
		return v.completedValidator(base, st)
	case pdata.StatusActive:
		return v.activeValidator(base, st, live)
	default:
		return base // pending: nothing more is known before the start
	}
}

// completedValidator adds what the reward tx paid. The delegation reward
// is the validator's fee from its delegators, which the chain pays in
// either of two ways: by the validator's own reward tx (fees accrued by
// validators that started after Cortina) or by each delegator's reward tx
// (earlier validators). IndexedStaker.DelegationFees sums both.
func (v *shaper) completedValidator(base validatorBase, st *pdata.IndexedStaker) completedValidator {
	out := completedValidator{
		validatorBase:   base,
		DelegatorCount:  st.DelegatorCount,
		AmountDelegated: api.FormatUint(st.AmountDelegated),
		Rewards: stakingRewards{
			ValidationRewardAmount: api.FormatUint(st.Rewards[pdata.RewardValidator]),
			DelegationRewardAmount: api.FormatUint(st.DelegationFees),
			RewardAddresses:        v.optionalAddresses(st.Staker.RewardsOwner),
		},
	}
	if st.RewardTx != ids.Empty {
		out.Rewards.RewardTxHash = st.RewardTx.String()
	}
	return out
}

// optionalAddresses shows an owner's addresses, nil (left out) when there
// are none.
func (v *shaper) optionalAddresses(o *pdata.Owners) []string {
	if o == nil || len(o.Addrs) == 0 {
		return nil
	}
	return v.addresses(o.Addrs)
}

func (v *shaper) activeValidator(base validatorBase, st *pdata.IndexedStaker, live liveValidators) activeValidator {
	out := activeValidator{
		validatorBase:   base,
		DelegatorCount:  uint64(st.DelegatorCount),
		AmountDelegated: api.FormatUint(st.AmountDelegated),
		PotentialRewards: stakingRewards{
			ValidationRewardAmount: "0",
			DelegationRewardAmount: "0",
			RewardAddresses:        v.optionalAddresses(st.Staker.RewardsOwner),
		},
	}
	lv, ok := live.byTx[st.TxID]
	if !ok {
		return out
	}
	if lv.DelegatorCount != nil {
		out.DelegatorCount = *lv.DelegatorCount
	}
	if lv.DelegatorWeight != nil {
		out.AmountDelegated = api.FormatUint(*lv.DelegatorWeight)
	}
	if lv.Uptime != nil {
		out.UptimePerformance = ptr(shortFloat(*lv.Uptime))
	}
	if takesDelegations(st.Type, &st.Staker) {
		out.DelegationCapacity = api.FormatUint(delegationCapacity(v.node.NetworkID, lv))
	}
	if lv.Connected != nil && *lv.Connected {
		out.ValidatorHealth.ReachabilityPercent = 100
	}
	if lv.PotentialReward != nil {
		out.PotentialRewards.ValidationRewardAmount = api.FormatUint(*lv.PotentialReward)
	}
	fees := new(big.Int)
	if lv.AccruedDelegateeReward != nil {
		fees.SetUint64(*lv.AccruedDelegateeReward)
	}
	for _, d := range lv.Delegators {
		if d.PotentialReward != nil {
			fee, _ := delegationFeeOf(*d.PotentialReward, st.Staker.DelegationShares)
			fees.Add(fees, new(big.Int).SetUint64(fee))
		}
	}
	out.PotentialRewards.DelegationRewardAmount = api.Decimal(fees)
	if live.totalStake > 0 {
		out.StakePercentage = ptr(float64(st.Staker.Weight) / float64(live.totalStake) * 100)
	}
	return out
}

// shortFloat widens a float32 of the node's API to the float64 with the
// same shortest decimal form (99.9, not 99.90000152587891).
func shortFloat(f float32) float64 {
	out, err := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'f', -1, 32), 64)
	if err != nil {
		return float64(f)
	}
	return out
}

// liveValidators is the node's view of a page's active primary-network
// validations (empty when none is on the page or the node did not answer).
type liveValidators struct {
	byTx       map[ids.ID]platformvm.ClientPermissionlessValidator
	totalStake uint64 // 0 when unknown
}

// totalStakeTTL is how long the total stake is reused: reading it lists
// every current validator (thousands on mainnet, each with an uptime to
// compute), and a minute's staleness hardly moves a percentage.
const totalStakeTTL = time.Minute

// totalStakeCache keeps the current primary validators' total stake.
type totalStakeCache struct {
	// mu is held while the node is read, so that concurrent requests wait
	// for one read instead of each starting its own.
	mu    sync.Mutex
	at    time.Time
	total uint64
}

func (c *totalStakeCache) get(ctx context.Context, s *server) (uint64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := s.Now()
	if !c.at.IsZero() && now.Sub(c.at) < totalStakeTTL {
		return c.total, nil
	}
	vals, err := s.platform.CurrentValidators(ctx, nil)
	if err != nil {
		return 0, err
	}
	var total uint64 // at most the AVAX supply: far below 2^64 nAVAX
	for _, v := range vals {
		total += v.Weight
		if v.DelegatorWeight != nil {
			total += *v.DelegatorWeight
		}
	}
	c.total, c.at = total, now
	return total, nil
}
