package evmmeta

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// answeringNode answers name, symbol and decimals of one contract and
// reverts everything else; err fails the whole batch.
type answeringNode struct {
	t     *testing.T
	token common.Address
	err   error
	asked int
}

func (n *answeringNode) CallContracts(_ context.Context, calls []nodeapi.ContractCall) error {
	n.asked += len(calls)
	if n.err != nil {
		return n.err
	}
	for i := range calls {
		c := &calls[i]
		switch {
		case c.To != n.token:
			c.Err = errors.New("execution reverted")
		case bytes.Equal(c.Data, selName):
			c.Result = abiString(n.t, "Sample Token")
		case bytes.Equal(c.Data, selSymbol):
			c.Result = abiString(n.t, "SMPL")
		case bytes.Equal(c.Data, selDecimals):
			c.Result = word(18)
		default:
			c.Result = word(0) // supportsInterface: no
		}
	}
	return nil
}

// Describe reads one contract as the describer's batch would, without
// touching what the index knew beyond the metadata.
func TestDescribeOneContractNow(t *testing.T) {
	token := common.HexToAddress("0x00000000000000000000000000000000000070c0")
	node := &answeringNode{t: t, token: token}
	dep := &evmdata.Deployment{TxHash: common.HexToHash("0x01")}
	c, err := Describe(context.Background(), node, evmdata.Contract{Address: token, Kind: evmdata.Erc20, Deployment: dep})
	require.NoError(t, err)
	require.Equal(t, evmdata.Contract{Address: token, Kind: evmdata.Erc20, Name: "Sample Token", Symbol: "SMPL",
		Decimals: 18, HasDecimal: true, Deployment: dep}, c)
	require.Equal(t, perContract, node.asked)

	node.err = errors.New("node down")
	_, err = Describe(context.Background(), node, evmdata.Contract{Address: token})
	require.ErrorContains(t, err, "node down")
}
