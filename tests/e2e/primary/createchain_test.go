package primary

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryCreateChainTxBlockchainInfo finds the local subnet-evm chain's
// CreateChainTx in the P-chain listing and checks its blockchainInfo
// against platform.getBlockchains and the genesis the chain was created
// with: name, VM ID, and genesisData as an object (an EVM genesis).
func TestPrimaryCreateChainTxBlockchainInfo(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	chain := env.Net(t).EVMChains()[1]
	var vmID, name string
	for _, c := range truth.Blockchains(t, ctx, env.URI(t)) {
		if c.ID == chain.BlockchainID.String() {
			vmID, name = c.VMID, c.Name
		}
	}
	require.NotEmpty(t, vmID, "the node does not list chain %s", chain.BlockchainID)
	harness.WaitIndexed(t, ctx, env.Base(t), map[string]uint64{"P": truth.Height(t, ctx, env.URI(t), "P")})

	list := env.Base(t) + "/v1/networks/" + primaryNetwork + "/blockchains/p-chain/transactions"
	for _, raw := range harness.PageThrough(t, ctx, list, "transactions", 100) {
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
