package evm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestEVMTokenTransfers lists the transfers of each token contract and
// compares them with every Transfer, TransferSingle and TransferBatch log
// of that contract on the node (one entry per batch element): newest first,
// across small pages, with their block, tx hash, parties, amounts and token
// ids; startBlock and endBlock cut the list.
func TestEVMTokenTransfers(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		for _, token := range []common.Address{f.erc20, f.erc721, f.erc1155} {
			want := f.truth.TokenTransfers(token)
			require.NotEmpty(t, want, "%s: no transfers of %s on the node", f.name(), token)
			u := f.evmURL("/tokens/"+token.Hex()+"/transfers", url.Values{"pageSize": {"3"}})
			got := harness.ListAll[dataapi.Transfer](t, ctx, u, "transfers", 3)
			require.Len(t, got, len(want), "%s: transfers of %s: %+v", f.name(), token, got)
			for i, w := range want {
				f.checkListedTransfer(t, ctx, w, got[i], fmt.Sprintf("%s transfers of %s [%d]", f.name(), token, i))
			}

			// A range holding only the newest block of the token's
			// transfers, and one ending before it.
			newest := want[0].Tx.Block.Number
			for _, r := range []struct{ from, to uint64 }{{newest, newest + 1}, {0, newest}, {newest + 1, 0}} {
				q := url.Values{"pageSize": {"100"}}
				if r.from > 0 {
					q.Set("startBlock", fmt.Sprint(r.from))
				}
				if r.to > 0 {
					q.Set("endBlock", fmt.Sprint(r.to))
				}
				var in []truth.EVMTokenTransfer
				for _, w := range want {
					if n := w.Tx.Block.Number; n >= r.from && (r.to == 0 || n < r.to) {
						in = append(in, w)
					}
				}
				got := harness.ListAll[dataapi.Transfer](t, ctx, f.evmURL("/tokens/"+token.Hex()+"/transfers", q), "transfers", 100)
				require.Len(t, got, len(in), "%s: transfers of %s with %s", f.name(), token, q.Encode())
				for i, w := range in {
					f.checkListedTransfer(t, ctx, w, got[i], fmt.Sprintf("%s transfers of %s with %s [%d]", f.name(), token, q.Encode(), i))
				}
			}
		}
	})
}

// checkListedTransfer compares an entry of the token transfers list with
// its log, block and transaction.
func (f *evmFixture) checkListedTransfer(t *testing.T, ctx context.Context, w truth.EVMTokenTransfer, g dataapi.Transfer, what string) {
	t.Helper()
	require.NotNil(t, g.TxHash, what+" txHash")
	require.Equal(t, w.Tx.Hash, common.HexToHash(*g.TxHash), what+" txHash")
	require.NotNil(t, g.BlockNumber, what+" blockNumber")
	harness.RequireUintString(t, w.Tx.Block.Number, *g.BlockNumber, what+" blockNumber")
	require.NotNil(t, g.BlockHash, what+" blockHash")
	require.Equal(t, w.Tx.Block.Hash, common.HexToHash(*g.BlockHash), what+" blockHash")
	require.NotNil(t, g.BlockTimestamp, what+" blockTimestamp")
	require.Equal(t, int64(w.Tx.Block.Timestamp), *g.BlockTimestamp, what+" blockTimestamp")
	f.checkTransfer(t, ctx, w.EVMTransfer, g, what)
}

// deploymentOf is the creation of a contract as the node has it: the tx
// and, for a contract made by a contract, the factory.
type deploymentOf struct {
	name     string
	addr     common.Address
	tx       common.Hash
	factory  *common.Address
	deployer common.Address
}

func (f *evmFixture) deploymentsOf() []deploymentOf {
	var out []deploymentOf
	names := map[common.Address]string{
		f.erc20: "ERC-20", f.erc721: "ERC-721", f.erc1155: "ERC-1155",
		f.factory: "Factory", f.forwarder: "Forwarder", f.reverter: "Reverter",
	}
	for addr, h := range f.deployments {
		out = append(out, deploymentOf{name: names[addr], addr: addr, tx: h, deployer: f.ewoq.Address()})
	}
	for _, c := range f.children {
		out = append(out, deploymentOf{name: "child by " + c.typ, addr: c.addr, tx: c.tx, factory: &c.factory, deployer: f.ewoq.Address()})
	}
	return out
}

// TestEVMDeployment gets the deployment transaction of every contract of
// the activity, top-level and factory-made (CREATE and CREATE2), and
// compares it with the node's transaction, receipt and trace; an address
// that is no contract is a 404 with the spec's error body.
func TestEVMDeployment(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		for _, d := range f.deploymentsOf() {
			x, ok := f.truth.Tx(d.tx)
			require.True(t, ok)
			// The node agrees with the fixture on who made the contract.
			if d.factory == nil {
				require.NotNil(t, x.Receipt.ContractAddress, d.name)
				require.Equal(t, d.addr, *x.Receipt.ContractAddress, d.name)
			} else {
				var made bool
				for _, in := range x.Internal {
					made = made || (truth.IsCreation(in.Type) && in.To == d.addr && in.From == *d.factory && !in.Reverted)
				}
				require.True(t, made, "%s: %s is not created in the trace of %s", f.name(), d.name, d.tx)
			}

			var got dataapi.TxDetails
			harness.GetOK(t, ctx, f.evmURL("/contracts/"+d.addr.Hex()+"/transactions:getDeployment", nil), &got)
			what := fmt.Sprintf("%s: deployment of %s (%s)", f.name(), d.name, d.addr)
			require.Equal(t, d.tx, common.HexToHash(got.NativeTransaction.TxHash), what)
			f.checkNativeTx(t, ctx, x, got.NativeTransaction, true)
			f.checkLists(t, ctx, x, got, common.Address{})
			require.NotNil(t, got.NetworkTokenDetails, what+": networkTokenDetails is required")
		}

		notContracts := map[string]common.Address{
			"an EOA with transactions": f.recipients[0],
			"an unused address":        common.HexToAddress("0x00000000000000000000000000000000000a11ce"),
		}
		// A creation a revert undid left no contract behind.
		for _, ft := range f.txs {
			x, _ := f.truth.Tx(ft.hash)
			for _, in := range x.Internal {
				if truth.IsCreation(in.Type) && in.Reverted && in.To != (common.Address{}) {
					notContracts["undone "+in.Type+" of "+ft.label] = in.To
					code, err := f.ewoq.Code(ctx, in.To)
					require.NoError(t, err)
					require.Empty(t, code, "%s: the node has code at %s", f.name(), in.To)
				}
			}
		}
		require.Greater(t, len(notContracts), 2, "%s: the activity has an undone creation", f.name())
		for name, addr := range notContracts {
			r := harness.GetWithRetryAfter(t, ctx, f.evmURL("/contracts/"+addr.Hex()+"/transactions:getDeployment", nil))
			requireAPIError(t, r, http.StatusNotFound, false, "")
			t.Logf("%s: getDeployment of %s: %s", f.name(), name, r.Body)
		}
	})
}

// TestEVMContractMetadata gets the metadata of every contract of the
// activity: the token contracts' ercType, name, symbol and decimals as the
// contracts answer eth_call, the others as no token, and each one's
// deployment (deployer, and the factory for factory-made ones) as the node's
// receipts and traces have it. An EOA is a 404.
func TestEVMContractMetadata(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		tok := f.tokens(t, ctx)
		for _, d := range f.deploymentsOf() {
			what := fmt.Sprintf("%s: metadata of %s (%s)", f.name(), d.name, d.addr)
			var got dataapi.Contract
			harness.GetOK(t, ctx, f.evmURL("/addresses/"+d.addr.Hex(), nil), &got)
			requireAddress(t, d.addr, got.Address, what+" address")
			switch d.addr {
			case f.erc20:
				require.Equal(t, "ERC-20", got.ErcType, what)
				require.NotNil(t, got.Name, what+" name")
				require.Equal(t, tok.erc20Name, *got.Name, what)
				require.NotNil(t, got.Symbol, what+" symbol")
				require.Equal(t, tok.erc20Symbol, *got.Symbol, what)
				require.NotNil(t, got.Decimals, what+": an ERC-20 needs decimals")
				require.Equal(t, tok.erc20Decimals, *got.Decimals, what)
			case f.erc721:
				require.Equal(t, "ERC-721", got.ErcType, what)
				require.NotNil(t, got.Name, what+" name")
				require.Equal(t, tok.erc721Name, *got.Name, what)
				require.NotNil(t, got.Symbol, what+" symbol")
				require.Equal(t, tok.erc721Symbol, *got.Symbol, what)
				require.Nil(t, got.Decimals, what)
			case f.erc1155:
				// TestERC1155 has no name() or symbol().
				require.Equal(t, "ERC-1155", got.ErcType, what)
				require.Nil(t, got.Name, what)
				require.Nil(t, got.Symbol, what)
				require.Nil(t, got.Decimals, what)
			default:
				require.Equal(t, "UNKNOWN", got.ErcType, what)
				require.Nil(t, got.Decimals, what)
			}
			require.NotNil(t, got.DeploymentDetails, what+" deploymentDetails")
			require.Equal(t, d.tx, common.HexToHash(got.DeploymentDetails.TxHash), what+" deploymentDetails.txHash")
			requireAddress(t, d.deployer, got.DeploymentDetails.DeployerAddress, what+" deployerAddress")
			if d.factory == nil {
				require.Nil(t, got.DeploymentDetails.DeployerContractAddress, what+": deployed by an EOA")
			} else {
				require.NotNil(t, got.DeploymentDetails.DeployerContractAddress, what+" deployerContractAddress")
				requireAddress(t, *d.factory, *got.DeploymentDetails.DeployerContractAddress, what+" deployerContractAddress")
			}
		}

		// The blockchain ID names the chain as well.
		var byEVMID, byBlockchainID dataapi.Contract
		harness.GetOK(t, ctx, f.evmURL("/addresses/"+f.erc20.Hex(), nil), &byEVMID)
		harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+f.chain.BlockchainID.String()+"/addresses/"+f.erc20.Hex(), &byBlockchainID)
		require.Equal(t, byEVMID, byBlockchainID)

		r := harness.GetWithRetryAfter(t, ctx, f.evmURL("/addresses/"+f.recipients[0].Hex(), nil))
		requireAPIError(t, r, http.StatusNotFound, false, "")
	})
}
