package primary

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/stretchr/testify/require"
)

// TestPrimaryStakingScenario checks, against the node alone, that the
// staking scenario made what the staking tests claim it did: four staking
// txs on the primary network as the scenario meant them (node, weight, end,
// reward owners, the validator's fee and BLS key), listed by
// getCurrentValidators while active (the validator with D1 and D2, the
// genesis validator with G), each staker's stake its weight then, and none
// of them current or staking any more once the node rewarded them.
func TestPrimaryStakingScenario(t *testing.T) {
	s := stakingScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	uri := env.URI(t)
	t.Logf("validator node %s, genesis validator %s; scenario took %v (rewards %v after the validator tx)",
		s.nodeID, s.genesisNode, s.took.Round(time.Millisecond), s.rewardedAfter.Round(time.Millisecond))

	for _, st := range s.stakers() {
		t.Logf("%-22s %s node %s weight %d start %d end %d potential %d; reward tx %s at %d (height %d, committed %v)",
			st.label, st.id, st.nodeID, st.weight, st.start, st.end, st.potentialReward,
			st.reward.ID, st.reward.BlockTime, st.reward.Height, st.reward.Committed)
		s.checkStakerTx(t, st)
	}

	// While active, as getCurrentValidators said then.
	delegators := map[ids.NodeID][]ids.ID{}
	for _, v := range s.activeValidators {
		require.NotNil(t, v.Delegators, "getCurrentValidators(%s) while active: no delegators list", v.NodeID)
		for _, d := range *v.Delegators {
			delegators[v.NodeID] = append(delegators[v.NodeID], d.TxID)
		}
	}
	require.ElementsMatch(t, []ids.ID{s.d1.id, s.d2.id}, delegators[s.nodeID], "delegators of %s while active", s.nodeID)
	require.Contains(t, delegators[s.genesisNode], s.g.id, "delegators of %s while active", s.genesisNode)

	// Each staker's stake: its weight while active, nothing after.
	for role, st := range map[string]*stakerTx{"S": s.validator, "D1": s.d1, "D2": s.d2, "G": s.g} {
		require.Equal(t, st.weight, s.activeBalances[role].stake, "%s's stake while active (getStake)", role)
		require.Zero(t, s.finalBalances[role].stake, "%s's stake after the rewards (getStake)", role)
	}
	require.Zero(t, s.activeBalances["F"].stake, "F staked nothing")

	// After: no staker of the scenario is current.
	require.Empty(t, nodeCurrentValidators(t, ctx, uri, s.nodeID), "getCurrentValidators(%s) after its end", s.nodeID)
	genesis := nodeCurrentValidators(t, ctx, uri, s.genesisNode)
	require.Len(t, genesis, 1, "getCurrentValidators(%s)", s.genesisNode)
	if genesis[0].Delegators != nil {
		for _, d := range *genesis[0].Delegators {
			require.NotEqual(t, s.g.id, d.TxID, "G's delegation is still current")
		}
	}
}

// checkStakerTx checks that the tx the node accepted for st (platform.getTx)
// is the staking st meant: on the primary network, for st's node, weight
// and end, the stake locked in st's weight, rewards to st's owner and, for
// the validator, the delegation fee to F, its fee and its BLS key.
func (s *stakingScenario) checkStakerTx(t *testing.T, st *stakerTx) {
	t.Helper()
	require.Equal(t, st.txType, reflect.TypeOf(st.tx.Unsigned).Elem().Name(), "%s: the tx's type", st.label)
	var (
		vdr         txs.Validator
		subnet      ids.ID
		stake       []*avax.TransferableOutput
		rewardOwner any
	)
	switch u := st.tx.Unsigned.(type) {
	case *txs.AddPermissionlessValidatorTx:
		vdr, subnet, stake, rewardOwner = u.Validator, u.Subnet, u.StakeOuts, u.ValidatorRewardsOwner
		require.Equal(t, uint32(delegationShares), u.DelegationShares, "%s: delegation shares", st.label)
		requireOwnedBy(t, u.DelegatorRewardsOwner, s.addrs["F"], st.label+": delegation fee owner")
		pop, ok := u.Signer.(*signer.ProofOfPossession)
		require.True(t, ok, "%s: signer %T", st.label, u.Signer)
		require.Equal(t, s.pop.PublicKey, pop.PublicKey, "%s: BLS key", st.label)
		require.Equal(t, s.pop.ProofOfPossession, pop.ProofOfPossession, "%s: proof of possession", st.label)
	case *txs.AddPermissionlessDelegatorTx:
		vdr, subnet, stake, rewardOwner = u.Validator, u.Subnet, u.StakeOuts, u.DelegationRewardsOwner
	default:
		t.Fatalf("%s: %T is no staking tx", st.label, u)
	}
	require.Equal(t, constants.PrimaryNetworkID, subnet, "%s: subnet", st.label)
	require.Equal(t, st.nodeID, vdr.NodeID, "%s: node", st.label)
	require.Equal(t, st.weight, vdr.Wght, "%s: weight", st.label)
	require.Equal(t, st.end, vdr.End, "%s: end", st.label)
	var staked uint64
	for _, o := range stake {
		staked += o.Out.Amount()
	}
	require.Equal(t, st.weight, staked, "%s: stake outputs", st.label)
	requireOwnedBy(t, rewardOwner, st.rewardTo, st.label+": reward owner")
}

// requireOwnedBy checks owner is addr alone.
func requireOwnedBy(t *testing.T, owner any, addr ids.ShortID, what string) {
	t.Helper()
	o, ok := owner.(*secp256k1fx.OutputOwners)
	require.True(t, ok, "%s: %T", what, owner)
	require.Equal(t, uint32(1), o.Threshold, what)
	require.Equal(t, []ids.ShortID{addr}, o.Addrs, what)
}
