package webhooks

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// nodeFacts is what the API tests check webhook replies against, read
// from the node's own APIs: every EVM chain's eth_chainId and blockchain
// ID, the P- and X-chain's blockchain IDs (info.getBlockchainID), the
// node's ID (info.getNodeID) and the EWOQ key's X address on the node's
// network.
type nodeFacts struct {
	evm      []evmChainFact
	pChainID string
	xChainID string
	nodeID   string
	ewoqX    string
}

type evmChainFact struct {
	blockchainID string
	evmChainID   string // eth_chainId, decimal
}

func readNodeFacts(t *testing.T, ctx context.Context) nodeFacts {
	t.Helper()
	net := env.Net(t)
	uri := net.URI()
	var f nodeFacts
	for _, c := range net.EVMChains() {
		client, err := rpc.DialContext(ctx, c.RPCURL)
		require.NoError(t, err)
		var id hexutil.Uint64
		require.NoError(t, client.CallContext(ctx, &id, "eth_chainId"))
		client.Close()
		f.evm = append(f.evm, evmChainFact{blockchainID: c.BlockchainID.String(), evmChainID: strconv.FormatUint(uint64(id), 10)})
	}
	require.Len(t, f.evm, 2, "the shared network has the C-chain and a subnet-evm chain")
	f.pChainID, f.xChainID = blockchainID(t, ctx, uri, "P"), blockchainID(t, ctx, uri, "X")
	var node struct {
		NodeID string `json:"nodeID"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/info", "info.getNodeID", struct{}{}, &node))
	f.nodeID = node.NodeID
	var network struct {
		NetworkID uint32 `json:"networkID,string"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/info", "info.getNetworkID", struct{}{}, &network))
	addr, err := address.Format("X", constants.GetHRP(network.NetworkID), genesis.EWOQKey.Address().Bytes())
	require.NoError(t, err)
	f.ewoqX = addr
	return f
}

// startAPITest is where each API test on the shared node starts: a
// deadline, the node's base URL and facts, and a receiver on loopback for
// the webhooks' URL.
func startAPITest(t *testing.T) (context.Context, string, nodeFacts, *harness.WebhookReceiver) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx, env.Base(t), readNodeFacts(t, ctx), harness.NewWebhookReceiver(t)
}

func blockchainID(t *testing.T, ctx context.Context, uri, alias string) string {
	t.Helper()
	var reply struct {
		BlockchainID string `json:"blockchainID"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/info", "info.getBlockchainID", map[string]string{"alias": alias}, &reply))
	return reply.BlockchainID
}

// The three create requests the tests use, as the SDK's models.
func evmRequest(url, chainID string, addresses ...string) map[string]any {
	return map[string]any{"eventType": "address_activity", "url": url, "chainId": chainID,
		"metadata": map[string]any{"addresses": addresses}}
}

func primaryRequest(url, chainID string, keys ...string) map[string]any {
	return map[string]any{"eventType": "primary_network_address_activity", "url": url, "network": "fuji", "chainId": chainID,
		"metadata": map[string]any{"keyType": "addresses", "keys": keys,
			"subEvents": map[string]any{"addressActivitySubEvents": []string{"balance_change"}}}}
}

func validatorRequest(url, nodeID string) map[string]any {
	return map[string]any{"eventType": "validator_activity", "url": url, "network": "fuji",
		"metadata": map[string]any{"keyType": "nodeId", "keys": []string{nodeID},
			"subEvents": map[string]any{"validatorActivitySubEvents": []string{"validator_stake", "delegator_stake"}}}}
}
