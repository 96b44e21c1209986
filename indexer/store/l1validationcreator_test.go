package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// The tx that created an L1 validation is found by validation ID, among
// txs that only name it (weight changes, top-ups) and other creations;
// the index answers "none" for a validation it does not hold.
func TestL1ValidationCreator(t *testing.T) {
	f := newFixture()
	s := openFixture(t, f)
	subnet, node := ids.ID{'s'}, ids.NodeID{7}
	converted0, converted1, registered := subnet.Append(0), subnet.Append(1), ids.ID{'r'}

	convert := f.tx("convert", "ConvertSubnetToL1Tx", nil)
	convert.L1Validators = []pdata.L1Validator{
		{ValidationID: converted0, NodeID: node, Subnet: subnet, Weight: 5},
		{ValidationID: converted1, NodeID: ids.NodeID{8}, Subnet: subnet, Weight: 5},
	}
	register := f.tx("register", "RegisterL1ValidatorTx", nil)
	register.ValidationID = registered
	register.L1Validators = []pdata.L1Validator{{ValidationID: registered, NodeID: ids.NodeID{9}, Subnet: subnet, Weight: 3}}
	// Later txs name the validation too: none of them created it.
	reweight := f.tx("reweight", "SetL1ValidatorWeightTx", nil)
	reweight.ValidationID = registered
	reweight.L1Validators = []pdata.L1Validator{{ValidationID: registered, Weight: 4}}
	remove := f.tx("remove", "SetL1ValidatorWeightTx", nil)
	remove.ValidationID = registered
	remove.L1Validators = []pdata.L1Validator{{ValidationID: registered}}
	writeP(t, s, []*pdata.Block{
		{Number: 1, ID: ids.ID{1}, Timestamp: 2000, Txs: []*pdata.Tx{convert}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 2001, Txs: []*pdata.Tx{register, reweight}},
		{Number: 3, ID: ids.ID{3}, Timestamp: 2002, Txs: []*pdata.Tx{remove}},
	})

	r := s.PrimaryReader(f.decode)
	ctx := context.Background()
	got, found, err := r.L1ValidationCreator(ctx, registered)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, L1ValidationCreator{TxID: register.ID, Type: "RegisterL1ValidatorTx",
		Pos: pdata.TxPos{Height: 2, Index: 0}, Bytes: register.Bytes}, got)

	got, found, err = r.L1ValidationCreator(ctx, converted1)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, L1ValidationCreator{TxID: convert.ID, Type: "ConvertSubnetToL1Tx",
		Pos: pdata.TxPos{Height: 1, Index: 0}, Bytes: convert.Bytes}, got)

	_, found, err = r.L1ValidationCreator(ctx, subnet.Append(2))
	require.NoError(t, err)
	require.False(t, found, "a validation the index does not hold")
}
