package pchain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// The supply the P writer tracks, over the scenario's platformvm-built
// chain (source_test.go) from a genesis with one validator, against the
// platformvm rules applied by hand in this test with avalanchego's reward
// calculator (mainnet's config).
func TestSupplyFollowsPlatformVMRules(t *testing.T) {
	for _, split := range []bool{false, true} {
		t.Run(map[bool]string{false: "one batch", true: "carried over batches"}[split], func(t *testing.T) {
			testSupply(t, split)
		})
	}
}

func testSupply(t *testing.T, split bool) {
	s := newScenario(t)
	w := newTestWallet(t)
	calc := reward.NewCalculator(genesis.GetStakingConfig(constants.MainnetID).RewardConfig)
	const initial = 360_000_000 * units.Avax
	genesisAt := time.Date(2020, 9, 10, 0, 0, 0, 0, time.UTC)

	// The genesis: one validator for a year, current from its start.
	gTx := w.sign(w.builder.NewAddValidatorTx(&txs.Validator{
		NodeID: ids.GenerateTestNodeID(), Start: uint64(genesisAt.Unix()),
		End: uint64(genesisAt.Add(365 * 24 * time.Hour).Unix()), Wght: 2000 * units.Avax,
	}, ownerOf(w.keys[2]), 20_000))
	gv, err := DecodeTx(gTx.Bytes())
	require.NoError(t, err)
	gen := &pdata.Block{Chain: netinfo.P, ID: ids.Empty.Prefix(998), Type: "ApricotCommitBlock", Txs: []*pdata.Tx{gv}}

	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(store.PrimaryNetwork{
		Genesis:     map[netinfo.Chain]*pdata.Block{netinfo.P: gen},
		GenesisTime: genesisAt.Unix(),
		Supply:      &store.SupplyRules{InitialSupply: initial, Rewards: calc},
	})
	blocks, err := s.source().Fetch(t.Context(), 1, 16)
	require.NoError(t, err)
	require.Len(t, blocks, 16)
	writer := st.PrimaryWriter(netinfo.P)
	if split {
		// Blocks 1-11, then 12-16: the supply and the pending staker
		// carry over through the store.
		require.NoError(t, writer.Apply(t.Context(), blocks[:11], time.Now()))
		require.NoError(t, writer.Apply(t.Context(), blocks[11:], time.Now()))
	} else {
		require.NoError(t, writer.Apply(t.Context(), blocks, time.Now()))
	}

	// platformvm's steps (supply.go lists where each is in its code).
	supply := uint64(initial)
	add := func(d time.Duration, weight uint64) uint64 {
		r := calc.Calculate(d, weight, supply)
		supply += r
		return r
	}
	want := map[uint64]uint64{}
	gReward := add(365*24*time.Hour, 2000*units.Avax) // syncGenesis
	for h := uint64(0); h <= 10; h++ {
		want[h] = supply // the Apricot delegator (block 8) is pending
	}
	del := s.apricotDelegator.Unsigned.(*txs.AddDelegatorTx)
	val := s.banffValidator.Unsigned.(*txs.AddPermissionlessValidatorTx)
	// 11: the Banff block advances to banffAt and promotes the delegator;
	// the pre-Durango validator it adds waits.
	dReward := add(del.EndTime().Sub(del.StartTime()), del.Wght)
	want[11] = supply
	// 12: advancing to durangoAt promotes the validator, then the
	// post-Durango delegator is current at once, from the block time.
	vReward := add(val.EndTime().Sub(val.StartTime()), val.Wght)
	ddReward := add(delRewardAt.Sub(durangoAt), 25*units.Avax)
	want[12], want[13], want[14] = supply, supply, supply // committed: kept
	want[15], want[16] = supply-ddReward, supply-ddReward // aborted: taken back

	reader := st.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return DecodeTx(b) })
	for h := uint64(0); h <= 16; h++ {
		b, ok, err := reader.Block(t.Context(), netinfo.P, h)
		require.NoError(t, err)
		require.True(t, ok, "block %d", h)
		require.NotNil(t, b.CurrentSupply, "block %d", h)
		require.Equal(t, want[h], *b.CurrentSupply, "supply after block %d", h)
	}

	potential := map[ids.ID]uint64{gTx.ID(): gReward, s.apricotDelegator.ID(): dReward,
		s.banffValidator.ID(): vReward, s.durangoDelegator.ID(): ddReward}
	for _, delegators := range []bool{false, true} {
		stakers, err := reader.Stakers(t.Context(), pdata.StakerQuery{Delegators: delegators})
		require.NoError(t, err)
		for _, sk := range stakers {
			require.NotNil(t, sk.PotentialReward, "staker %s", sk.TxID)
			require.Equal(t, potential[sk.TxID], *sk.PotentialReward, "staker %s", sk.TxID)
			delete(potential, sk.TxID)
		}
	}
	require.Empty(t, potential, "stakers not listed")
}

// A node with another genesis than the built-in one, or an unknown network:
// no supply, and the staking txs carry no potential reward.
func TestSupplyUnknownWithoutRules(t *testing.T) {
	s := newScenario(t)
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(store.PrimaryNetwork{GenesisTime: time.Date(2020, 9, 10, 0, 0, 0, 0, time.UTC).Unix()})
	blocks, err := s.source().Fetch(t.Context(), 1, 16)
	require.NoError(t, err)
	require.NoError(t, st.PrimaryWriter(netinfo.P).Apply(t.Context(), blocks, time.Now()))
	reader := st.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return DecodeTx(b) })
	for h := uint64(1); h <= 16; h++ {
		b, ok, err := reader.Block(t.Context(), netinfo.P, h)
		require.NoError(t, err)
		require.True(t, ok)
		require.Nil(t, b.CurrentSupply, "block %d", h)
	}
	stakers, err := reader.Stakers(t.Context(), pdata.StakerQuery{})
	require.NoError(t, err)
	for _, sk := range stakers {
		require.Nil(t, sk.PotentialReward)
	}
}

func TestSupplyRulesBuiltIn(t *testing.T) {
	calc, initial, err := SupplyRules(constants.MainnetID)
	require.NoError(t, err)
	// Mainnet's genesis allocations, a little under 360M AVAX.
	require.Equal(t, uint64(359_999_999_999_990_210), initial)
	require.NotNil(t, calc)
	_, _, err = SupplyRules(9999)
	require.Error(t, err)
}

// The pending priority is platformvm's, and the block flags follow the
// upgrades.
func TestDecodeSupplyFacts(t *testing.T) {
	s := newScenario(t)
	blocks, err := s.source().Fetch(t.Context(), 1, 16)
	require.NoError(t, err)
	require.Equal(t, uint8(txs.PrimaryNetworkDelegatorApricotPendingPriority), blocks[7].Txs[0].Staker.PendingPriority)
	require.Equal(t, uint8(txs.PrimaryNetworkValidatorPendingPriority), blocks[10].Txs[0].Staker.PendingPriority)
	require.Equal(t, uint8(txs.PrimaryNetworkDelegatorBanffPendingPriority), blocks[11].Txs[0].Staker.PendingPriority)
	for i, b := range blocks {
		banffNonOption := b.Type == "BanffStandardBlock" || b.Type == "BanffProposalBlock"
		require.Equal(t, banffNonOption, b.AdvancesTime, "block %d", i+1)
		require.Equal(t, b.Number >= 12, b.Durango, "block %d", i+1)
	}
}
