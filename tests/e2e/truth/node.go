package truth

import (
	"context"
	"fmt"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/utils/json"
	avarpc "github.com/ava-labs/avalanchego/utils/rpc"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// Height returns the height of chain ("P", "X" or "C") on the node.
func Height(t *testing.T, ctx context.Context, uri, chain string) uint64 {
	t.Helper()
	if chain == "C" {
		var n hexutil.Uint64
		require.NoError(t, EthClient(t, ctx, uri).CallContext(ctx, &n, "eth_blockNumber"))
		return uint64(n)
	}
	var reply struct {
		Height json.Uint64 `json:"height"`
	}
	method := map[string]string{"P": "platform.getHeight", "X": "avm.getHeight"}[chain]
	require.NoError(t, Call(ctx, uri+"/ext/bc/"+chain, method, struct{}{}, &reply))
	return uint64(reply.Height)
}

// Call makes one avalanchego JSON-RPC call.
func Call(ctx context.Context, endpoint, method string, params, reply any, options ...avarpc.Option) error {
	u, err := url.Parse(endpoint)
	if err != nil {
		return err
	}
	if err := avarpc.SendJSONRequest(ctx, u, method, params, reply, options...); err != nil {
		return fmt.Errorf("%s on %s: %w", method, endpoint, err)
	}
	return nil
}

func EthClient(t *testing.T, ctx context.Context, uri string) *rpc.Client {
	t.Helper()
	c, err := rpc.DialContext(ctx, uri+"/ext/bc/C/rpc")
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

// Blockchain is one chain of platform.getBlockchains.
type Blockchain struct {
	ID       string `json:"id"`
	SubnetID string `json:"subnetID"`
	VMID     string `json:"vmID"`
	Name     string `json:"name"`
}

// Blockchains is platform.getBlockchains: every chain the P-chain knows.
func Blockchains(t *testing.T, ctx context.Context, uri string) []Blockchain {
	t.Helper()
	var reply struct {
		Blockchains []Blockchain `json:"blockchains"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getBlockchains", struct{}{}, &reply))
	return reply.Blockchains
}
