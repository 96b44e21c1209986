package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// The L1 validations as they stand: the conversion's weight, then each
// SetL1ValidatorWeightTx's (0 removes); node, subnet and the creating tx's
// details from the validation's row.
func TestL1ValidationsWeights(t *testing.T) {
	f := newFixture()
	s := openFixture(t, f)
	subnet, other := ids.ID{'s'}, ids.ID{'o'}
	a, b, c := ids.ID{'v', 1}, ids.ID{'v', 2}, ids.ID{'v', 3}
	nodeA, nodeB := ids.NodeID{7}, ids.NodeID{8}
	convert := f.tx("convert", "ConvertSubnetToL1Tx", nil)
	convert.L1Validators = []pdata.L1Validator{
		{ValidationID: a, NodeID: nodeA, Subnet: subnet, Weight: 5, RemainingBalanceOwner: owners(addrA)},
		{ValidationID: b, NodeID: nodeB, Subnet: subnet, Weight: 6},
	}
	register := f.tx("register", "RegisterL1ValidatorTx", nil)
	register.L1Validators = []pdata.L1Validator{{ValidationID: c, NodeID: nodeA, Subnet: other, Weight: 7}}
	reweigh := f.tx("reweigh", "SetL1ValidatorWeightTx", nil)
	reweigh.L1Validators = []pdata.L1Validator{{ValidationID: a, Weight: 50}}
	remove := f.tx("remove", "SetL1ValidatorWeightTx", nil)
	remove.L1Validators = []pdata.L1Validator{{ValidationID: b, Weight: 0}}
	topUp := f.tx("topup", "IncreaseL1ValidatorBalanceTx", nil)
	topUp.L1Validators = []pdata.L1Validator{{ValidationID: a, BalanceChange: 9}}
	writeP(t, s, []*pdata.Block{
		{Number: 1, ID: ids.ID{1}, Timestamp: 2000, Txs: []*pdata.Tx{convert, register}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 2001, Txs: []*pdata.Tx{reweigh, remove, topUp}},
	})
	r := s.PrimaryReader(f.decode)
	ctx := context.Background()
	set, err := r.L1Validations(ctx, pdata.L1ValidationQuery{})
	require.NoError(t, err)
	require.Equal(t, uint64(2), set.Height)
	weights := map[ids.ID]uint64{}
	for _, v := range set.Validations {
		require.True(t, v.WeightKnown)
		require.Nil(t, v.Creation, "creation details only WithTx")
		weights[v.ValidationID] = v.Weight
	}
	require.Equal(t, map[ids.ID]uint64{a: 50, b: 0, c: 7}, weights)

	set, err = r.L1Validations(ctx, pdata.L1ValidationQuery{Subnet: &subnet, NodeID: &nodeA, WithTx: true})
	require.NoError(t, err)
	require.Len(t, set.Validations, 1)
	got := set.Validations[0]
	require.Equal(t, a, got.ValidationID)
	require.Equal(t, convert.ID, got.CreatingTx)
	require.Equal(t, int64(2000), got.CreationTime)
	require.Equal(t, owners(addrA), got.Creation.RemainingBalanceOwner)

	set, err = r.L1Validations(ctx, pdata.L1ValidationQuery{IDs: []ids.ID{c, ids.ID{'x'}, c}})
	require.NoError(t, err)
	require.Len(t, set.Validations, 1, "unknown IDs left out, duplicates once")
	require.Equal(t, c, set.Validations[0].ValidationID)
}
