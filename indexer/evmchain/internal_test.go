package evmchain

import (
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

func frame(typ string, from, to byte, value int64, calls ...nodeapi.EVMCallFrame) nodeapi.EVMCallFrame {
	toAddr := common.Address{to}
	f := nodeapi.EVMCallFrame{Type: typ, From: common.Address{from}, To: &toAddr, Calls: calls}
	if value >= 0 {
		f.Value = (*hexutil.Big)(big.NewInt(value))
	}
	return f
}

func TestFlattenNumbersDepthFirst(t *testing.T) {
	root := frame("CALL", 1, 2, 0,
		frame("CALL", 2, 3, 0, // 0
			frame("CALL", 3, 4, 0, // 1
				frame("CALL", 4, 5, 0)), // 2
			frame("CALL", 3, 6, 0)), // 3
		frame("CALL", 2, 7, 0)) // 4
	frames := flattenFrames(&root)
	require.Len(t, frames, 5)
	for i, ff := range frames {
		require.Equal(t, uint32(i), ff.index)
	}
	require.Equal(t, []byte{3, 4, 5, 6, 7}, []byte{
		frames[0].frame.To[0], frames[1].frame.To[0], frames[2].frame.To[0], frames[3].frame.To[0], frames[4].frame.To[0],
	})
}

func TestRevertReachesEveryFrameBelow(t *testing.T) {
	failed := frame("CALL", 2, 3, 0, frame("CALL", 3, 4, 0, frame("CALL", 4, 5, 0)))
	failed.Error = "execution reverted"
	root := frame("CALL", 1, 2, 0, failed, frame("CALL", 2, 6, 0))
	var reverted []bool
	for _, ff := range flattenFrames(&root) {
		reverted = append(reverted, ff.reverted)
	}
	require.Equal(t, []bool{true, true, true, false}, reverted)

	root.Error = "out of gas"
	for _, ff := range flattenFrames(&root) {
		require.True(t, ff.reverted, "a failed tx undoes every frame")
	}
}

func TestInternalKeepsWhatMovesValueOrContracts(t *testing.T) {
	root := frame("CALL", 1, 2, 9,
		frame("DELEGATECALL", 2, 3, 9), // 0: the caller's value, not a transfer
		frame("CALLCODE", 2, 4, 5),     // 1: to itself
		frame("STATICCALL", 2, 5, -1),  // 2
		frame("CALL", 2, 6, 0),         // 3
		frame("CALL", 2, 7, 4),         // 4
		frame("SELFDESTRUCT", 2, 8, 0), // 5
		frame("CREATE", 2, 9, -1),      // 6: no value field
	)
	got := internalTxs(flattenFrames(&root))
	require.Len(t, got, 3)
	require.Equal(t, []uint32{4, 5, 6}, []uint32{got[0].Index, got[1].Index, got[2].Index})
	require.Equal(t, evmdata.Call, got[0].Type)
	require.Equal(t, big.NewInt(4), got[0].Value)
	require.Equal(t, evmdata.SelfDestruct, got[1].Type)
	require.Equal(t, evmdata.Create, got[2].Type)
	require.Equal(t, new(big.Int), got[2].Value, "a missing value is zero, never nil")
}

func TestFactoryCreationsSkipUndoneAndFailed(t *testing.T) {
	undone := frame("CALL", 2, 3, 0, frame("CREATE", 3, 4, 0))
	undone.Error = "execution reverted"
	failed := frame("CREATE2", 2, 0, 0)
	failed.To, failed.Error = nil, "contract creation code storage out of gas"
	root := frame("CALL", 1, 2, 0, undone, failed, frame("CREATE2", 2, 5, 0), frame("CALL", 2, 6, 0, frame("CREATE", 6, 7, 0)))
	deployer := common.Address{0xee}
	require.Equal(t, []evmdata.ContractCreation{
		{Address: common.Address{5}, Deployer: deployer, DeployerContract: common.Address{2}},
		{Address: common.Address{7}, Deployer: deployer, DeployerContract: common.Address{6}},
	}, factoryCreations(flattenFrames(&root), deployer))
}
