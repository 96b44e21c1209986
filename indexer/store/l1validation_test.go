package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// An L1 validator's later txs name only its validation ID; the reader
// shows the node and subnet the conversion recorded.
func TestL1ValidatorDetailsFilledIn(t *testing.T) {
	f := newFixture()
	s := openFixture(t, f)
	subnet, validation, node := ids.ID{'s'}, ids.ID{'v'}, ids.NodeID{7}
	convert := f.tx("convert", "ConvertSubnetToL1Tx", nil)
	convert.L1Validators = []pdata.L1Validator{{ValidationID: validation, NodeID: node, Subnet: subnet, Weight: 5}}
	increase := f.tx("increase", "IncreaseL1ValidatorBalanceTx", nil)
	increase.L1Validators = []pdata.L1Validator{{ValidationID: validation, BalanceChange: 9}}
	writeP(t, s, []*pdata.Block{
		{Number: 1, ID: ids.ID{1}, Timestamp: 2000, Txs: []*pdata.Tx{convert}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 2001, Txs: []*pdata.Tx{increase}},
	})
	txs, err := s.PrimaryReader(f.decode).Txs(context.Background(), netinfo.P,
		pdata.TxQuery{Types: []string{"IncreaseL1ValidatorBalanceTx"}})
	require.NoError(t, err)
	require.Len(t, txs, 1)
	got := txs[0].Tx.L1Validators
	require.Equal(t, []pdata.L1Validator{{ValidationID: validation, NodeID: node, Subnet: subnet, BalanceChange: 9}}, got)
}
