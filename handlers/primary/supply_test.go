package primary

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// currentSupply and estimatedReward are shown when the index derived them,
// and left out otherwise.
func TestSupplyFieldsShape(t *testing.T) {
	v := &shaper{chain: netinfo.P}
	supply := uint64(365_000_000_123_456_789)
	require.Equal(t, "365000000123456789", v.block(&pdata.IndexedBlock{CurrentSupply: &supply}).CurrentSupply)
	require.Empty(t, v.block(&pdata.IndexedBlock{}).CurrentSupply)

	reward := uint64(4_242)
	staked, pending := ids.ID{1}, ids.ID{2}
	v.stakers = map[ids.ID]*pdata.IndexedStaker{
		staked:  {TxID: staked, PotentialReward: &reward, RewardTx: ids.ID{3}},
		pending: {TxID: pending},
	}
	for id, want := range map[ids.ID]string{staked: "4242", pending: "", {4}: ""} {
		tx := &pdata.Tx{ID: id, Type: "AddPermissionlessDelegatorTx", Staker: &pdata.Staker{Delegator: true}}
		var out pChainTransaction
		v.pChainStaker(tx, &out)
		require.Equal(t, want, out.EstimatedReward, "tx %s", id)
	}
}
