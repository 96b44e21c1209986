package primary

import (
	"fmt"
	"math/big"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network} (getNetworkDetails): the primary network's
// current validators and delegations, counted and summed from the node's
// current validators (platform.getCurrentValidators, read as listValidators
// reads it, cached for liveSetTTL).
//
//   - validatorDetails.validatorCount and totalAmountStaked: the current
//     validators and their own stake; delegatorDetails: the count and
//     weight of their current delegations (the node's delegatorCount and
//     delegatorWeight of each validator).
//   - estimatedAnnualStakingReward: the potential rewards of the current
//     validations (the node's) plus those of the current delegations (the
//     index's, computed as platformvm does when each became current; a
//     delegation whose reward the index could not compute adds nothing).
//   - stakingRatio: all of that stake over the node's current supply
//     (platform.getCurrentSupply), as a decimal fraction.
//   - stakingDistributionByVersion: [] (a validator's software version is
//     not known to the P-chain; avadata does not invent one).
//
// The node's state is the whole answer: when it cannot be read the reply is
// a 503, not a guess.

// getNetworkDetailsResponse is the OpenAPI's GetNetworkDetailsResponse.
type getNetworkDetailsResponse struct {
	ValidatorDetails validatorsDetails `json:"validatorDetails"`
	DelegatorDetails delegatorsDetails `json:"delegatorDetails"`
}

// validatorsDetails is the OpenAPI's ValidatorsDetails.
type validatorsDetails struct {
	ValidatorCount               int                   `json:"validatorCount"`
	TotalAmountStaked            string                `json:"totalAmountStaked"`
	EstimatedAnnualStakingReward string                `json:"estimatedAnnualStakingReward"`
	StakingDistributionByVersion []stakingDistribution `json:"stakingDistributionByVersion"`
	StakingRatio                 string                `json:"stakingRatio"`
}

// stakingDistribution is the OpenAPI's StakingDistribution.
type stakingDistribution struct {
	Version        string `json:"version"`
	AmountStaked   string `json:"amountStaked"`
	ValidatorCount int    `json:"validatorCount"`
}

// delegatorsDetails is the OpenAPI's DelegatorsDetails.
type delegatorsDetails struct {
	DelegatorCount    uint64 `json:"delegatorCount"`
	TotalAmountStaked string `json:"totalAmountStaked"`
}

func (s *server) serveGetNetworkDetails(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return err
	}
	s.ReadsChain(heights, netinfo.P) // the delegations' rewards are the index's
	ctx := r.Context()
	vals, err := s.liveSet.list(ctx, s)
	if err != nil {
		return api.NewError(http.StatusServiceUnavailable, "the node's current validators cannot be read: %v", err)
	}
	// liveSet.list has answered, so the node gives a P-chain reader.
	supply, err := s.platform.CurrentSupply(ctx)
	if err != nil {
		return api.NewError(http.StatusServiceUnavailable, "the node's current supply cannot be read: %v", err)
	}
	validatorStake, delegatorStake, rewards := new(big.Int), new(big.Int), new(big.Int)
	var delegators uint64
	for _, v := range vals {
		validatorStake.Add(validatorStake, new(big.Int).SetUint64(v.Weight))
		if v.DelegatorCount != nil {
			delegators += *v.DelegatorCount
		}
		if v.DelegatorWeight != nil {
			delegatorStake.Add(delegatorStake, new(big.Int).SetUint64(*v.DelegatorWeight))
		}
		if v.PotentialReward != nil {
			rewards.Add(rewards, new(big.Int).SetUint64(*v.PotentialReward))
		}
	}
	if s.staking != nil {
		active, err := s.staking.Stakers(ctx, pdata.StakerQuery{
			Delegators: true, Status: pdata.StatusActive, Now: s.Now().Unix(), Bare: true,
		})
		if err != nil {
			return fmt.Errorf("listing the active delegations: %w", err)
		}
		for i := range active {
			if st := &active[i]; st.Staker.Subnet == ids.Empty && st.PotentialReward != nil {
				rewards.Add(rewards, new(big.Int).SetUint64(*st.PotentialReward))
			}
		}
	}
	api.WriteJSON(w, http.StatusOK, getNetworkDetailsResponse{
		ValidatorDetails: validatorsDetails{
			ValidatorCount:               len(vals),
			TotalAmountStaked:            api.Decimal(validatorStake),
			EstimatedAnnualStakingReward: api.Decimal(rewards),
			StakingDistributionByVersion: []stakingDistribution{},
			StakingRatio:                 stakingRatio(new(big.Int).Add(validatorStake, delegatorStake), supply),
		},
		DelegatorDetails: delegatorsDetails{DelegatorCount: delegators, TotalAmountStaked: api.Decimal(delegatorStake)},
	})
	return nil
}

// stakingRatio is stake/supply as a decimal fraction ("0" without a
// supply).
func stakingRatio(stake *big.Int, supply uint64) string {
	if supply == 0 {
		return "0"
	}
	ratio := new(big.Rat).SetFrac(stake, new(big.Int).SetUint64(supply))
	f, _ := ratio.Float64()
	return fmt.Sprint(f)
}
