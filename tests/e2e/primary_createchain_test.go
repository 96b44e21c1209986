package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
)

// TestCreateChainTxBlockchainInfo finds the local subnet-evm chain's
// CreateChainTx in the P-chain listing and checks its blockchainInfo
// against platform.getBlockchains and the genesis the chain was created
// with: name, VM ID, and genesisData as an object (an EVM genesis).
func TestCreateChainTxBlockchainInfo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	chain := env.net.EVMChains()[1]
	var chains struct {
		Blockchains []struct {
			ID       string `json:"id"`
			SubnetID string `json:"subnetID"`
			VMID     string `json:"vmID"`
			Name     string `json:"name"`
		} `json:"blockchains"`
	}
	require.NoError(t, callJSON(ctx, env.uri+"/ext/bc/P", "platform.getBlockchains", struct{}{}, &chains))
	var vmID, name string
	for _, c := range chains.Blockchains {
		if c.ID == chain.BlockchainID.String() {
			vmID, name = c.VMID, c.Name
		}
	}
	require.NotEmpty(t, vmID, "the node does not list chain %s", chain.BlockchainID)
	waitIndexed(t, ctx, env.base, map[string]uint64{"P": nodeHeight(t, ctx, env.uri, "P")})

	list := env.base + "/v1/networks/" + primaryNetwork + "/blockchains/p-chain/transactions"
	for _, raw := range pageThrough(t, ctx, list, "transactions", 100) {
		var tx struct {
			TxHash         string `json:"txHash"`
			TxType         string `json:"txType"`
			SubnetID       string `json:"subnetId"`
			BlockchainInfo *struct {
				ChainName   string          `json:"chainName"`
				VMID        string          `json:"vmId"`
				GenesisData json.RawMessage `json:"genesisData"`
			} `json:"blockchainInfo"`
		}
		require.NoError(t, json.Unmarshal(raw, &tx))
		if tx.TxHash != chain.BlockchainID.String() {
			continue
		}
		require.Equal(t, "CreateChainTx", tx.TxType)
		require.Equal(t, chain.SubnetID.String(), tx.SubnetID)
		require.NotNil(t, tx.BlockchainInfo)
		require.Equal(t, name, tx.BlockchainInfo.ChainName)
		require.Equal(t, vmID, tx.BlockchainInfo.VMID)
		require.JSONEq(t, string(localnet.SubnetEVMGenesis()), string(tx.BlockchainInfo.GenesisData),
			"genesisData is the EVM genesis the chain was created with")
		return
	}
	t.Fatalf("the CreateChainTx of %s is not in the P-chain listing", chain.BlockchainID)
}
