//go:build e2e

// The tests of this file start real nodes (make build first): the e2e
// targets of the Makefile run them with -tags e2e; make test-unit leaves
// them out.

package localnet

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/core/types"
	"github.com/ava-labs/libevm/rpc"
)

// TestOperatorSkipSubnetEVM brings a network up without the subnet-evm chain, then
// starts it again without skipping: the existing data dir gets the chain.
func TestOperatorSkipSubnetEVM(t *testing.T) {
	avalanchego, pluginDir := binaries(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := Config{AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: t.TempDir(), Logf: t.Logf, SkipSubnetEVM: true}

	n, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = n.Kill() })
	if chains := n.EVMChains(); len(chains) != 1 || chains[0].EVMChainID != CChainEVMChainID {
		t.Errorf("EVM chains with SkipSubnetEVM: %+v", chains)
	}
	if s, err := readState(n.DataDir()); err != nil || s.SubnetEVM.created() {
		t.Errorf("state with SkipSubnetEVM: %+v, %v", s, err)
	}
	checkEVMChain(t, ctx, n.EVMChains()[0], false)
	if err := n.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	began := time.Now()
	cfg.SkipSubnetEVM = false
	again, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Kill() })
	t.Logf("start adding the subnet-evm chain: %s", time.Since(began))
	if again.ChainID() != n.ChainID() {
		t.Errorf("avadata chain %s, was %s", again.ChainID(), n.ChainID())
	}
	checkUp(t, again)
	checkSubnetEVM(t, ctx, again, false)
	if err := again.Stop(ctx); err != nil {
		t.Fatal(err)
	}
}

// checkSubnetEVM checks that the network has its two EVM chains as the node
// sees them, that EWOQ is funded on both and, with sendTx, that it can send
// a transaction on the subnet-evm chain.
func checkSubnetEVM(t *testing.T, ctx context.Context, n *Network, sendTx bool) {
	t.Helper()
	chains := n.EVMChains()
	if len(chains) != 2 {
		t.Fatalf("EVM chains: %+v", chains)
	}
	cID, err := info.NewClient(n.URI()).GetBlockchainID(ctx, "C")
	if err != nil || chains[0].BlockchainID != cID || chains[0].EVMChainID != CChainEVMChainID {
		t.Errorf("C-chain %+v; node says %s, %v", chains[0], cID, err)
	}
	s := chains[1]
	if s.Name != SubnetEVMChainName || s.EVMChainID != SubnetEVMChainID || s.SubnetID == n.SubnetID() {
		t.Errorf("subnet-evm chain %+v (avadata subnet %s)", s, n.SubnetID())
	}
	var cfg map[string]any
	readJSON(t, filepath.Join(n.DataDir(), "configs", "chains", s.BlockchainID.String(), "config.json"), &cfg)
	if cfg["state-sync-enabled"] != false {
		t.Errorf("subnet-evm chain config: %v", cfg)
	}
	checkEVMChain(t, ctx, chains[0], false)
	checkEVMChain(t, ctx, s, sendTx)
}

// checkEVMChain checks eth_chainId and EWOQ's balance, and with sendTx has
// EWOQ send a transfer and waits for its receipt.
func checkEVMChain(t *testing.T, ctx context.Context, chain EVMChain, sendTx bool) {
	t.Helper()
	client, err := rpc.DialContext(ctx, chain.RPCURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var chainID hexutil.Big
	if err := client.CallContext(ctx, &chainID, "eth_chainId"); err != nil || chainID.ToInt().Uint64() != chain.EVMChainID {
		t.Errorf("%s eth_chainId: %v, %v", chain.Name, chainID.ToInt(), err)
	}
	ewoq := genesis.EWOQKey.EthAddress()
	var balance hexutil.Big
	if err := client.CallContext(ctx, &balance, "eth_getBalance", ewoq, "latest"); err != nil || balance.ToInt().Sign() <= 0 {
		t.Errorf("%s EWOQ balance: %v, %v", chain.Name, balance.ToInt(), err)
	}
	if !sendTx {
		return
	}
	var gasPrice hexutil.Big
	var nonce hexutil.Uint64
	if err := client.CallContext(ctx, &gasPrice, "eth_gasPrice"); err != nil {
		t.Fatal(err)
	}
	if err := client.CallContext(ctx, &nonce, "eth_getTransactionCount", ewoq, "pending"); err != nil {
		t.Fatal(err)
	}
	to := ewoq
	tx := types.NewTx(&types.LegacyTx{Nonce: uint64(nonce), GasPrice: new(big.Int).Mul(gasPrice.ToInt(), big.NewInt(2)),
		Gas: 21000, To: &to, Value: big.NewInt(1)})
	signed, err := types.SignTx(tx, types.LatestSignerForChainID(chainID.ToInt()), genesis.EWOQKey.ToECDSA())
	if err != nil {
		t.Fatal(err)
	}
	raw, err := signed.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.CallContext(ctx, nil, "eth_sendRawTransaction", hexutil.Bytes(raw)); err != nil {
		t.Fatalf("%s eth_sendRawTransaction: %v", chain.Name, err)
	}
	for {
		var receipt map[string]any
		if err := client.CallContext(ctx, &receipt, "eth_getTransactionReceipt", signed.Hash()); err != nil {
			t.Fatal(err)
		}
		if receipt != nil {
			if receipt["status"] != "0x1" {
				t.Errorf("%s receipt: %v", chain.Name, receipt)
			}
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no receipt for %s: %v", chain.Name, signed.Hash(), ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
