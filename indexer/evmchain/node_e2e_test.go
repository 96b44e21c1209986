//go:build e2e

package evmchain_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmchain"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/evmtest"
)

// TestEVMFetchAgainstARealNode starts a local node from `make build`'s
// binaries, makes EVM activity on each of its EVM chains (the C-chain, and
// the subnet-evm chain when its plugin is built) and checks what Fetch
// reads against the node's own eth_getTransactionReceipt and the contracts'
// events.
func TestEVMFetchAgainstARealNode(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	build := filepath.Join(filepath.Dir(file), "..", "..", "build")
	avalanchego, pluginDir := filepath.Join(build, "avalanchego"), filepath.Join(build, "plugins")
	if _, err := os.Stat(avalanchego); err != nil {
		t.Skipf("%s missing (make build): %v", avalanchego, err)
	}
	_, noSubnetEVM := os.Stat(filepath.Join(pluginDir, localnet.SubnetEVMVMID.String()))
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	dir := t.TempDir()
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		DataDir:         filepath.Join(dir, "node"),
		ExtraFlags:      map[string]string{"proposervm-min-block-delay": "0s"},
		SkipSubnetEVM:   noSubnetEVM != nil,
	})
	require.NoError(t, err, "starting the local network")
	t.Cleanup(func() {
		stopCtx, stop := context.WithTimeout(context.Background(), time.Minute)
		defer stop()
		if err := net.Stop(stopCtx); err != nil {
			t.Errorf("stopping the local network: %v", err)
		}
	})
	for _, chain := range net.EVMChains() {
		t.Run(chain.Name, func(t *testing.T) {
			checkChain(t, ctx, net.URI(), chain)
		})
	}
}

// activity is what checkChain sent and what it expects of each tx.
type activity struct {
	ewoq *evmtest.Client
	// addr and deployTx are the test contracts' addresses and creation
	// txs, by contract name.
	addr                   map[string]common.Address
	deployTx               map[string]common.Hash
	recipient, a, b        common.Address
	factoryTx, splitTx     common.Hash
	erc20Tx, batchTx       common.Hash
	revertedTx, tryInnerTx common.Hash
}

func checkChain(t *testing.T, ctx context.Context, nodeURI string, chain localnet.EVMChain) {
	ewoq, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer ewoq.Close()
	act := &activity{ewoq: ewoq, addr: map[string]common.Address{}, deployTx: map[string]common.Hash{}}
	for _, p := range []*common.Address{&act.recipient, &act.a, &act.b} {
		k, err := secp256k1.NewPrivateKey()
		require.NoError(t, err)
		*p = k.EthAddress()
	}
	receipts := append(act.deploy(t, ctx), act.use(t, ctx)...)

	from, to := receipts[0].BlockNumber, receipts[0].BlockNumber
	for _, r := range receipts {
		from, to = min(from, r.BlockNumber), max(to, r.BlockNumber)
	}
	client, err := nodeapi.DialEVM(ctx, nodeURI, chain.BlockchainID.String())
	require.NoError(t, err)
	defer client.Close()
	src := evmchain.NewSource(client, evmchain.DefaultOptions())
	blocks, err := src.Fetch(ctx, from, 1000)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(blocks), int(to-from+1), "the node has every block up to the last receipt's")
	head, err := src.Head(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, head, to)
	// A node with the chain's whole history serves every block from 1,
	// with its receipts: Earliest says so (a state-synced node is
	// tests/e2e/adopt's).
	earliest, err := src.Earliest(ctx)
	require.NoError(t, err)
	require.Equal(t, uint64(1), earliest)
	served, err := client.BlocksServed(ctx, 1, head)
	require.NoError(t, err)
	for i, s := range served {
		require.True(t, s, "block %d", i+1)
	}
	above, err := src.Fetch(ctx, head+1, 10)
	require.NoError(t, err)
	require.Empty(t, above, "nothing above the last accepted block")

	txs := map[common.Hash]*evmdata.Tx{}
	for i, b := range blocks {
		require.Equal(t, from+uint64(i), b.Number)
		for j := range b.Txs {
			txs[b.Txs[j].Hash] = &b.Txs[j]
		}
	}
	for _, r := range receipts {
		requireMatchesReceipt(t, r, blocks[r.BlockNumber-from], txs[r.TxHash])
	}
	act.checkTransfers(t, txs)
	traced := blocks[0].Traced
	t.Logf("%s: blocks %d..%d, traced %v", chain.Name, from, to, traced)
	for _, b := range blocks {
		require.Equal(t, traced, b.Traced, "block %d", b.Number)
	}
	if traced {
		act.checkTraces(t, txs)
	}
}

// deploy creates the test contracts and sends a legacy value transfer.
func (act *activity) deploy(t *testing.T, ctx context.Context) []*evmtest.Receipt {
	arts := map[string][]any{
		contracts.NameTestERC20:   {"Test Token", "TT"},
		contracts.NameTestERC721:  {"Test NFT", "TNFT"},
		contracts.NameTestERC1155: {"https://avadata.invalid/{id}.json"},
		contracts.NameFactory:     nil,
		contracts.NameForwarder:   nil,
		contracts.NameReverter:    nil,
	}
	var hashes []common.Hash
	for name, args := range arts {
		sent, err := act.ewoq.SendDeploy(ctx, contracts.MustLoad(name), args...)
		require.NoError(t, err)
		act.addr[name] = sent.Contract
		act.deployTx[name] = sent.Hash
		hashes = append(hashes, sent.Hash)
	}
	legacy, err := act.ewoq.Send(ctx, evmtest.Tx{To: &act.recipient, Value: big.NewInt(1e15), Legacy: true})
	require.NoError(t, err)
	rs, err := act.ewoq.WaitReceipts(ctx, append(hashes, legacy.Hash)...)
	require.NoError(t, err)
	for _, r := range rs {
		require.Equal(t, uint64(1), r.Status, "tx %s", r.TxHash)
	}
	return rs
}

// use sends token transfers, factory creations, value forwarding and
// reverts in one burst (explicit gas: estimation would run before the
// burst's earlier txs).
func (act *activity) use(t *testing.T, ctx context.Context) []*evmtest.Receipt {
	send := func(name string, gas uint64, method string, value *big.Int, args ...any) common.Hash {
		h, err := act.ewoq.SendWithGas(ctx, act.addr[name], gas, contracts.MustLoad(name), method, value, args...)
		require.NoError(t, err, "%s.%s", name, method)
		return h
	}
	me := act.ewoq.Address()
	hashes := []common.Hash{
		send(contracts.NameTestERC20, 200_000, "mint", nil, me, big.NewInt(1000)),
		send(contracts.NameTestERC721, 300_000, "mint", nil, act.recipient),
		send(contracts.NameTestERC1155, 300_000, "mint", nil, act.recipient, big.NewInt(1), big.NewInt(5)),
	}
	act.erc20Tx = send(contracts.NameTestERC20, 200_000, "transfer", nil, act.recipient, big.NewInt(10))
	act.batchTx = send(contracts.NameTestERC1155, 400_000, "mintBatch", nil, act.recipient,
		[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(7), big.NewInt(8)})
	act.factoryTx = send(contracts.NameFactory, 1_500_000, "create", big.NewInt(2), [32]byte{7})
	act.splitTx = send(contracts.NameForwarder, 300_000, "split", big.NewInt(10), act.a, act.b)
	act.tryInnerTx = send(contracts.NameReverter, 300_000, "tryInner", nil)
	act.revertedTx = send(contracts.NameReverter, 300_000, "alwaysRevert", nil)
	hashes = append(hashes, act.erc20Tx, act.batchTx, act.factoryTx, act.splitTx, act.tryInnerTx, act.revertedTx)
	rs, err := act.ewoq.WaitReceipts(ctx, hashes...)
	require.NoError(t, err)
	for _, r := range rs {
		require.Equal(t, r.TxHash != act.revertedTx, r.Status == 1, "status of %s", r.TxHash)
	}
	return rs
}

// requireMatchesReceipt compares what Fetch read of a tx with the node's
// eth_getTransactionReceipt.
func requireMatchesReceipt(t *testing.T, r *evmtest.Receipt, b *evmdata.Block, tx *evmdata.Tx) {
	t.Helper()
	require.NotNil(t, tx, "tx %s not fetched", r.TxHash)
	require.Equal(t, r.BlockHash, b.Hash)
	require.Equal(t, uint32(r.TransactionIndex), tx.Index)
	require.Equal(t, r.Type, tx.Type)
	require.Equal(t, r.From, tx.From)
	require.Equal(t, r.To, tx.To)
	require.Equal(t, uint8(r.Status), tx.Status)
	require.Equal(t, r.GasUsed, tx.GasUsed)
	require.Zero(t, r.EffectiveGasPrice.Cmp(tx.EffectiveGasPrice))
	if r.Status == 1 {
		require.Equal(t, r.ContractAddress, tx.ContractAddress)
	}
	if tx.Type >= 2 {
		require.NotNil(t, tx.MaxFeePerGas)
		require.Nil(t, tx.GasPrice)
	} else {
		require.NotNil(t, tx.GasPrice)
	}
}

func (act *activity) checkTransfers(t *testing.T, txs map[common.Hash]*evmdata.Tx) {
	me := act.ewoq.Address()
	require.Equal(t, []evmdata.TokenTransfer{{
		LogIndex: act.logIndex(t, txs[act.erc20Tx]), Token: act.addr[contracts.NameTestERC20], Kind: evmdata.Erc20,
		From: me, To: act.recipient, Value: big.NewInt(10),
	}}, txs[act.erc20Tx].Transfers)
	batch := txs[act.batchTx].Transfers
	require.Len(t, batch, 2)
	for i, tr := range batch {
		require.Equal(t, evmdata.Erc1155, tr.Kind)
		require.Equal(t, uint16(i), tr.BatchIndex)
		require.Equal(t, common.Address{}, tr.From, "a mint")
		require.Equal(t, act.recipient, tr.To)
		require.Equal(t, me, tr.Operator)
		require.Equal(t, int64(2+i), tr.TokenID.Int64())
		require.Equal(t, int64(7+i), tr.Value.Int64())
	}
	require.Empty(t, txs[act.revertedTx].Transfers)
}

// logIndex is the block-global index of the tx's only transfer.
func (act *activity) logIndex(t *testing.T, tx *evmdata.Tx) uint32 {
	require.Len(t, tx.Transfers, 1)
	return tx.Transfers[0].LogIndex
}

func (act *activity) checkTraces(t *testing.T, txs map[common.Hash]*evmdata.Tx) {
	factory := act.addr[contracts.NameFactory]
	created := txs[act.factoryTx].Creations
	require.Len(t, created, 2, "Child by CREATE and by CREATE2")
	for _, c := range created {
		require.Equal(t, factory, c.DeployerContract)
		require.Equal(t, act.ewoq.Address(), c.Deployer)
	}
	internal := txs[act.factoryTx].Internal
	require.Len(t, internal, 2)
	require.Equal(t, evmdata.Create, internal[0].Type)
	require.Equal(t, evmdata.Create2, internal[1].Type)
	require.Equal(t, created[0].Address, internal[0].To)
	require.Equal(t, created[1].Address, internal[1].To)

	split := txs[act.splitTx].Internal
	require.Len(t, split, 2)
	require.Equal(t, []common.Address{act.a, act.b}, []common.Address{split[0].To, split[1].To})
	require.Equal(t, []int64{5, 5}, []int64{split[0].Value.Int64(), split[1].Value.Int64()})

	require.Empty(t, txs[act.tryInnerTx].Internal, "the reverted inner call moves no value")
	top := txs[act.deployTx[contracts.NameFactory]]
	require.Equal(t, []evmdata.ContractCreation{{Address: factory, Deployer: act.ewoq.Address()}}, top.Creations,
		"a top-level creation is counted once")
}
