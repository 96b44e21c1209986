package store

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const day = 86400

// stakeInterval is one staker as the test's own model sees it: current on
// subnet from the chain time `from` (inclusive) until `until` (exclusive),
// both written down by hand from platformvm's rules, not from the store.
type stakeInterval struct {
	subnet      ids.ID
	delegator   bool
	weight      uint64
	from, until int64
}

// modelFigures recomputes a subnet's figures at time t from the intervals.
func modelFigures(list []stakeInterval, subnet ids.ID, t int64) metricdata.StakingFigures {
	f := metricdata.StakingFigures{ValidatorWeight: new(big.Int), DelegatorWeight: new(big.Int)}
	for _, s := range list {
		if s.subnet != subnet || s.from > t || t >= s.until {
			continue
		}
		if s.delegator {
			f.DelegatorCount++
			f.DelegatorWeight.Add(f.DelegatorWeight, new(big.Int).SetUint64(s.weight))
		} else {
			f.ValidatorCount++
			f.ValidatorWeight.Add(f.ValidatorWeight, new(big.Int).SetUint64(s.weight))
		}
	}
	return f
}

// A P-chain over seven days: genesis validators; a pre-Durango validator
// pending until a Banff block advances the time past its start; a
// pre-Durango permissioned subnet validator promoted by an Apricot
// AdvanceTimeTx and expired by the chain time; from Durango on a delegator
// and a subnet validator current at acceptance, the delegator rewarded and
// the subnet validator removed; an aborted proposal that adds nobody; an
// L1's validators converted, registered, re-weighed, removed and disabled.
func TestStakingSeries(t *testing.T) {
	require := require.New(t)
	f := newFixture()
	nA, nB, nC, nD := ids.NodeID{0xA1}, ids.NodeID{0xA2}, ids.NodeID{0xA3}, ids.NodeID{0xA4}
	subS, subL := ids.ID{'S', 'S'}, ids.ID{'L', 'L'}
	staker := func(name, typ string, st pdata.Staker) *pdata.Tx {
		tx := f.tx(name, typ, nil)
		tx.Staker = &st
		return tx
	}
	g1 := staker("g1", "AddValidatorTx", pdata.Staker{NodeID: nA, Start: genesisTime, End: 30 * day, Weight: 2000})
	g2 := staker("g2", "AddValidatorTx", pdata.Staker{NodeID: nB, Start: genesisTime, End: 30 * day, Weight: 3000})
	genesis := &pdata.Block{Number: 0, ID: ids.ID{'g'}, Type: "genesis", Txs: []*pdata.Tx{g1, g2}}

	createS := f.tx("cs", "CreateSubnetTx", nil)
	createS.Subnet = subS
	createL := f.tx("cl", "CreateSubnetTx", nil)
	createL.Subnet = subL
	v := staker("v", "AddValidatorTx", pdata.Staker{NodeID: nC, Start: day + 100, End: 20 * day, Weight: 7000})
	v.Outcome = pdata.OutcomeCommit
	aborted := staker("ab", "AddValidatorTx", pdata.Staker{NodeID: nD, Start: day + 100, End: 20 * day, Weight: 9})
	aborted.Outcome = pdata.OutcomeAbort
	sv := staker("sv", "AddSubnetValidatorTx", pdata.Staker{NodeID: nA, Subnet: subS, Start: day + 500, End: 2*day + 50, Weight: 11})
	advance := f.tx("adv", "AdvanceTimeTx", nil)
	advance.Outcome = pdata.OutcomeCommit
	d := staker("d", "AddPermissionlessDelegatorTx", pdata.Staker{Delegator: true, NodeID: nA, Start: day + 900, End: 4 * day, Weight: 500})
	sv2 := staker("sv2", "AddSubnetValidatorTx", pdata.Staker{NodeID: nB, Subnet: subS, Start: 2*day + 50, End: 10 * day, Weight: 13})
	rD := f.tx("rd", "RewardValidatorTx", nil)
	rD.RewardOf, rD.NodeID, rD.Outcome = d.ID, nA, pdata.OutcomeAbort
	rm := f.tx("rm", "RemoveSubnetValidatorTx", nil)
	rm.NodeID, rm.Subnet = nB, subS
	la, lb, lc := ids.ID{'l', 1}, ids.ID{'l', 2}, ids.ID{'l', 3}
	convert := f.tx("conv", "ConvertSubnetToL1Tx", nil)
	convert.Subnet = subL
	convert.L1Validators = []pdata.L1Validator{
		{ValidationID: la, NodeID: nA, Subnet: subL, Weight: 10}, {ValidationID: lb, NodeID: nB, Subnet: subL, Weight: 20}}
	register := f.tx("reg", "RegisterL1ValidatorTx", nil)
	register.L1Validators = []pdata.L1Validator{{ValidationID: lc, NodeID: nC, Subnet: subL, Weight: 5}}
	reweigh := f.tx("rw", "SetL1ValidatorWeightTx", nil)
	reweigh.L1Validators = []pdata.L1Validator{{ValidationID: lb, Weight: 25}}
	drop := f.tx("drop", "SetL1ValidatorWeightTx", nil)
	drop.L1Validators = []pdata.L1Validator{{ValidationID: la, Weight: 0}}
	disable := f.tx("dis", "DisableL1ValidatorTx", nil)
	disable.L1Validators = []pdata.L1Validator{{ValidationID: lc}}

	blocks := []*pdata.Block{
		// day 0: v pending (pre-Durango), the aborted proposal adds nobody.
		{Number: 1, ID: ids.ID{1}, Timestamp: 5000, Type: "BanffStandardBlock", AdvancesTime: true, Txs: []*pdata.Tx{createS, createL, v}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 6000, Type: "BanffProposalBlock", AdvancesTime: true, Txs: []*pdata.Tx{aborted}},
		// day 1: the chain time passes v's start; sv pending, then an
		// Apricot AdvanceTimeTx moves the time past its start.
		{Number: 3, ID: ids.ID{3}, Timestamp: day + 200, Type: "BanffStandardBlock", AdvancesTime: true, Txs: []*pdata.Tx{sv}},
		{Number: 4, ID: ids.ID{4}, Timestamp: day + 300, Type: "ApricotProposalBlock", NextChainTime: day + 600, Txs: []*pdata.Tx{advance}},
		// day 1, Durango: d current at acceptance.
		{Number: 5, ID: ids.ID{5}, Timestamp: day + 900, Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{d}},
		// day 2: sv ends with the chain time; sv2 current at acceptance.
		{Number: 6, ID: ids.ID{6}, Timestamp: 2*day + 50, Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{sv2}},
		// day 3: nothing. Day 4: d rewarded (abort), sv2 removed.
		{Number: 7, ID: ids.ID{7}, Timestamp: 4 * day, Type: "BanffProposalBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{rD}},
		{Number: 8, ID: ids.ID{8}, Timestamp: 4*day + 10, Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{rm}},
		// day 5: the L1.
		{Number: 9, ID: ids.ID{9}, Timestamp: 5*day + 10, Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{convert, register}},
		// day 6: reweigh, remove, disable.
		{Number: 10, ID: ids.ID{10}, Timestamp: 6*day + 10, Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: []*pdata.Tx{reweigh, drop, disable}},
	}
	forever := int64(math.MaxInt64)
	model := []stakeInterval{
		{weight: 2000, from: genesisTime, until: forever},
		{weight: 3000, from: genesisTime, until: forever},
		{weight: 7000, from: day + 200, until: forever},                // promoted by block 3's time
		{subnet: subS, weight: 11, from: day + 600, until: 2*day + 50}, // AdvanceTimeTx, then its end
		{delegator: true, weight: 500, from: day + 900, until: 4 * day},
		{subnet: subS, weight: 13, from: 2*day + 50, until: 4*day + 10},
		{subnet: subL, weight: 10, from: 5*day + 10, until: 6*day + 10},
		{subnet: subL, weight: 20, from: 5*day + 10, until: 6*day + 10},
		{subnet: subL, weight: 25, from: 6*day + 10, until: forever},
		{subnet: subL, weight: 5, from: 5*day + 10, until: forever}, // disabled, still listed
	}
	// The time of each day's last block (day 3 has none: day 2's).
	lastBlock := []int64{6000, day + 900, 2*day + 50, 2*day + 50, 4*day + 10, 5*day + 10, 6*day + 10}

	for _, split := range []int{1, 4, len(blocks)} { // one transaction, or several
		s, err := Open(t.TempDir(), logging.NoLog{})
		require.NoError(err)
		s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: genesis}))
		for i := 0; i < len(blocks); i += split {
			writeP(t, s, blocks[i:min(i+split, len(blocks))])
		}
		ctx := context.Background()
		for _, subnet := range []ids.ID{ids.Empty, subS, subL} {
			got, err := s.StakingSeries(ctx, subnet, 0, 10*day, 100)
			require.NoError(err)
			require.True(got.SubnetKnown)
			require.Zero(got.CountedFrom)
			require.True(got.HasDays)
			require.Equal(int64(6*day), got.LastDay)
			firstDay := map[ids.ID]int64{ids.Empty: 0, subS: day, subL: 5 * day}[subnet]
			require.Equal(firstDay, got.FirstDay)
			var want []metricdata.StakingDay
			for dd := int64(6); dd*day >= firstDay; dd-- {
				want = append(want, metricdata.StakingDay{Day: dd * day, Figures: modelFigures(model, subnet, lastBlock[dd])})
			}
			require.Equal(len(want), len(got.Days), "subnet %s split %d", subnet, split)
			if subnet == ids.Empty {
				require.Equal(uint64(3), got.Days[5].Figures.ValidatorCount, "day 1: g1, g2 and v")
				require.Equal(uint64(1), got.Days[5].Figures.DelegatorCount, "day 1: d")
			}
			for i := range want {
				require.Equal(want[i].Day, got.Days[i].Day)
				requireFigures(t, want[i].Figures, got.Days[i].Figures, "subnet %s day %d split %d", subnet, want[i].Day, split)
			}
		}
		// A range inside the series, and a page cut.
		got, err := s.StakingSeries(ctx, ids.Empty, 2*day+5, 3*day+86399, 100)
		require.NoError(err)
		require.Len(got.Days, 2)
		require.Equal([]int64{3 * day, 2 * day}, []int64{got.Days[0].Day, got.Days[1].Day})
		got, err = s.StakingSeries(ctx, ids.Empty, 0, 10*day, 3)
		require.NoError(err)
		require.Len(got.Days, 3)
		require.Equal(int64(4*day), got.Days[2].Day)
		// Unknown subnet; a range past the newest block.
		got, err = s.StakingSeries(ctx, ids.ID{'?'}, 0, 10*day, 100)
		require.NoError(err)
		require.False(got.SubnetKnown)
		got, err = s.StakingSeries(ctx, ids.Empty, 8*day, 10*day, 100)
		require.NoError(err)
		require.Empty(got.Days)
		require.NoError(s.Close())
	}
}

func requireFigures(t *testing.T, want, got metricdata.StakingFigures, msg string, args ...any) {
	t.Helper()
	require.Equal(t, want.ValidatorCount, got.ValidatorCount, msg, args)
	require.Equal(t, want.ValidatorWeight.String(), got.ValidatorWeight.String(), msg, args)
	require.Equal(t, want.DelegatorCount, got.DelegatorCount, msg, args)
	require.Equal(t, want.DelegatorWeight.String(), got.DelegatorWeight.String(), msg, args)
}

// The model itself is not trivial: the figures the test expects move.
func TestStakingSeriesModelMoves(t *testing.T) {
	f := modelFigures([]stakeInterval{{weight: 5, from: 1, until: 3}, {delegator: true, weight: 2, from: 2, until: 9}}, ids.Empty, 2)
	require.Equal(t, uint64(1), f.ValidatorCount)
	require.Equal(t, uint64(1), f.DelegatorCount)
	require.Zero(t, modelFigures([]stakeInterval{{weight: 5, from: 1, until: 3}}, ids.Empty, 3).ValidatorCount)
}

// A store that did not count from genesis (here: no P-chain genesis known,
// as for an index written before the staking rows) says from which block
// it counts, so readers refuse its figures.
func TestStakingSeriesCountedFrom(t *testing.T) {
	f := newFixture()
	s, err := Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{}))
	create := f.tx("cs", "CreateSubnetTx", nil)
	create.Subnet = ids.ID{'S'}
	v := f.tx("v", "AddSubnetValidatorTx", nil)
	v.Staker = &pdata.Staker{NodeID: ids.NodeID{1}, Subnet: ids.ID{'S'}, Start: 5000, End: 9000, Weight: 3}
	writeP(t, s, []*pdata.Block{{Number: 1, ID: ids.ID{1}, Timestamp: 5000, Durango: true, Txs: []*pdata.Tx{create, v}}})
	got, err := s.StakingSeries(context.Background(), ids.ID{'S'}, 0, day, 10)
	require.NoError(t, err)
	require.True(t, got.SubnetKnown)
	require.Equal(t, uint64(1), got.CountedFrom)
	require.Len(t, got.Days, 1)
	require.Equal(t, uint64(1), got.Days[0].Figures.ValidatorCount)
}
