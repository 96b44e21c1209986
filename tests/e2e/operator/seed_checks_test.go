package operator

import (
	"context"
	"encoding/hex"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/graft/coreth/precompile/contracts/warp"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// seedCheck compares avadata's answers to the seeder's examples with what
// the node says about the sample.
type seedCheck struct {
	s   *seed.Sample
	c   *evmtest.Client // the seeding key's, for the node's eth API
	ctx context.Context
	// fundingTx is EWOQ's X transfer that funded the seeding key.
	fundingTx ids.ID
	receipts  map[common.Hash]*evmtest.Receipt
}

// readReceipts reads the receipt of every C-chain transaction of the
// sample from the node.
func (sc *seedCheck) readReceipts(t *testing.T) {
	t.Helper()
	sc.receipts = map[common.Hash]*evmtest.Receipt{}
	for _, tx := range sc.s.EVMTxs {
		r, err := sc.c.Receipt(sc.ctx, tx.Hash)
		require.NoError(t, err)
		require.NotNil(t, r, "%s (%s) has no receipt", tx.Label, tx.Hash)
		require.Equal(t, uint64(1), r.Status, "%s (%s)", tx.Label, tx.Hash)
		require.Equal(t, tx.Block, r.BlockNumber, "%s (%s)", tx.Label, tx.Hash)
		sc.receipts[tx.Hash] = r
	}
}

// checks maps each example name to its check of the reply at url.
func (sc *seedCheck) checks() map[string]func(t *testing.T, u string) {
	s := sc.s
	erc20, erc721, erc1155 := contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()
	return map[string]func(*testing.T, string){
		seed.ExampleAddressTxs:      sc.checkAddressTxs,
		seed.ExampleTransaction:     sc.checkTransaction,
		seed.ExampleERC20Transfers:  func(t *testing.T, u string) { sc.checkTransfers(t, u, s.ERC20, erc20, "Transfer") },
		seed.ExampleERC721Transfers: func(t *testing.T, u string) { sc.checkTransfers(t, u, s.ERC721, erc721, "Transfer") },
		seed.ExampleERC1155Xfers:    func(t *testing.T, u string) { sc.checkTransfers(t, u, s.ERC1155, erc1155, "TransferSingle") },
		seed.ExampleContract:        func(t *testing.T, u string) { sc.checkContract(t, u, erc20) },
		seed.ExampleDeployment:      sc.checkDeployment,
		seed.ExampleERC721Balances:  func(t *testing.T, u string) { sc.checkERC721Balances(t, u, erc721) },
		seed.ExampleNFTHolders:      func(t *testing.T, u string) { sc.checkHolders(t, u, erc721) },
		seed.ExampleNativeBalance:   sc.checkNativeBalance,
		seed.ExampleXTxs:            func(t *testing.T, u string) { sc.checkPrimaryTxs(t, u, "X", sc.fundingTx) },
		seed.ExamplePTxs:            func(t *testing.T, u string) { sc.checkPrimaryTxs(t, u, "P") },
		seed.ExampleCAtomicTxs:      sc.checkCAtomicTxs,
		seed.ExamplePBalances:       sc.checkPBalances,
		seed.ExampleXBalances:       sc.checkXBalances,
		seed.ExampleWarpTx:          sc.checkWarpTx,
	}
}

// checkAddressTxs: the sender's list is exactly the sample's C-chain
// transactions (a fresh key did nothing else there), each in its block.
func (sc *seedCheck) checkAddressTxs(t *testing.T, u string) {
	got := harness.ListAll[dataapi.TxDetails](t, sc.ctx, harness.WithQuery(u, "pageSize", "100"), "transactions", 100)
	var want []common.Hash
	for _, tx := range sc.s.EVMTxs {
		want = append(want, tx.Hash)
	}
	require.ElementsMatch(t, want, dataapi.TxHashes(got))
	for _, e := range got {
		r := sc.receipts[common.HexToHash(e.NativeTransaction.TxHash)]
		require.Equal(t, strconv.FormatUint(r.BlockNumber, 10), e.NativeTransaction.BlockNumber, "block of %s", r.TxHash)
	}
}

// checkTransaction: the native transfer as eth_getTransactionByHash has it.
func (sc *seedCheck) checkTransaction(t *testing.T, u string) {
	native, ok := sc.s.NativeTransfer()
	require.True(t, ok)
	var node struct {
		From  common.Address `json:"from"`
		To    common.Address `json:"to"`
		Value hexutil.Big    `json:"value"`
	}
	require.NoError(t, sc.c.RPC().CallContext(sc.ctx, &node, "eth_getTransactionByHash", native.Hash))
	var got dataapi.TxDetails
	harness.GetOK(t, sc.ctx, u, &got)
	n := got.NativeTransaction
	require.Equal(t, native.Hash, common.HexToHash(n.TxHash))
	require.Equal(t, strconv.FormatUint(sc.receipts[native.Hash].BlockNumber, 10), n.BlockNumber)
	require.Equal(t, node.From, common.HexToAddress(n.From.Address))
	require.Equal(t, node.To, common.HexToAddress(n.To.Address))
	require.Equal(t, sc.s.Recipient.EVM, node.To)
	require.Equal(t, node.Value.ToInt().String(), n.Value)
}

// transferKey names one transfer event: its transaction and log index.
type transferKey struct {
	tx  common.Hash
	log uint
}

// checkTransfers: the contract's transfers are exactly its event logs
// called event in the sample's receipts.
func (sc *seedCheck) checkTransfers(t *testing.T, u string, contract common.Address, art *contracts.Artifact, event string) {
	id, err := art.EventID(event)
	require.NoError(t, err)
	var want []transferKey
	for _, r := range sc.receipts {
		for _, l := range r.LogsFrom(contract) {
			if len(l.Topics) > 0 && l.Topics[0] == id {
				want = append(want, transferKey{r.TxHash, l.LogIndex})
			}
		}
	}
	require.NotEmpty(t, want, "the node has no %s logs of %s", event, contract)
	got := harness.ListAll[dataapi.Transfer](t, sc.ctx, harness.WithQuery(u, "pageSize", "100"), "transfers", 100)
	var keys []transferKey
	for _, tr := range got {
		require.NotNil(t, tr.TxHash)
		keys = append(keys, transferKey{common.HexToHash(*tr.TxHash), uint(tr.LogIndex)})
	}
	require.ElementsMatch(t, want, keys)
}

// checkContract: the ERC-20's name, symbol and decimals as eth_call reads
// them, and its deployment.
func (sc *seedCheck) checkContract(t *testing.T, u string, art *contracts.Artifact) {
	var got dataapi.Contract
	harness.GetOK(t, sc.ctx, u, &got)
	require.Equal(t, "ERC-20", got.ErcType)
	require.NotNil(t, got.Name)
	require.Equal(t, sc.call(t, sc.s.ERC20, art, "name"), *got.Name)
	require.NotNil(t, got.Symbol)
	require.Equal(t, sc.call(t, sc.s.ERC20, art, "symbol"), *got.Symbol)
	require.NotNil(t, got.Decimals)
	require.Equal(t, int(sc.call(t, sc.s.ERC20, art, "decimals").(uint8)), *got.Decimals)
	deploy, ok := sc.s.Deployment(sc.s.ERC20)
	require.True(t, ok)
	require.NotNil(t, got.DeploymentDetails)
	require.Equal(t, deploy.Hash, common.HexToHash(got.DeploymentDetails.TxHash))
}

// checkDeployment: the ERC-721's creation, whose receipt names it.
func (sc *seedCheck) checkDeployment(t *testing.T, u string) {
	deploy, ok := sc.s.Deployment(sc.s.ERC721)
	require.True(t, ok)
	r := sc.receipts[deploy.Hash]
	require.NotNil(t, r.ContractAddress)
	require.Equal(t, sc.s.ERC721, *r.ContractAddress)
	var got dataapi.TxDetails
	harness.GetOK(t, sc.ctx, u, &got)
	require.Equal(t, deploy.Hash, common.HexToHash(got.NativeTransaction.TxHash))
	require.Equal(t, strconv.FormatUint(r.BlockNumber, 10), got.NativeTransaction.BlockNumber)
}

// checkERC721Balances: the recipient holds the one token ownerOf says.
func (sc *seedCheck) checkERC721Balances(t *testing.T, u string, art *contracts.Artifact) {
	token := new(big.Int).SetUint64(sc.s.ERC721RecipientToken)
	require.Equal(t, sc.s.Recipient.EVM, sc.call(t, sc.s.ERC721, art, "ownerOf", token))
	got := harness.ListAll[dataapi.Token](t, sc.ctx, u, "erc721TokenBalances", 100)
	require.Len(t, got, 1)
	require.Equal(t, sc.s.ERC721, common.HexToAddress(got[0].Address))
	require.NotNil(t, got[0].TokenID)
	require.Equal(t, token.String(), *got[0].TokenID)
}

// checkHolders: the holders are the owners (ownerOf) of every minted token.
func (sc *seedCheck) checkHolders(t *testing.T, u string, art *contracts.Artifact) {
	transfer, err := art.EventID("Transfer")
	require.NoError(t, err)
	var minted []*big.Int
	for _, tx := range sc.s.EVMTxs {
		if tx.Kind != seed.KindMint || tx.Contract != sc.s.ERC721 {
			continue
		}
		for _, l := range sc.receipts[tx.Hash].LogsFrom(sc.s.ERC721) {
			if l.Topics[0] == transfer {
				minted = append(minted, l.Topics[3].Big())
			}
		}
	}
	require.NotEmpty(t, minted)
	var owners []string
	for _, id := range minted {
		owner := sc.call(t, sc.s.ERC721, art, "ownerOf", id).(common.Address)
		if !slices.Contains(owners, owner.Hex()) {
			owners = append(owners, owner.Hex())
		}
	}
	var got struct {
		Addresses    []dataapi.Holder `json:"addresses"`
		TotalHolders int              `json:"totalHolders"`
		TotalTokens  int              `json:"totalTokens"`
	}
	harness.GetOK(t, sc.ctx, u, &got)
	var holders []string
	for _, h := range got.Addresses {
		holders = append(holders, common.HexToAddress(h.Address).Hex())
	}
	require.ElementsMatch(t, owners, holders)
	require.Equal(t, len(owners), got.TotalHolders)
	require.Equal(t, len(minted), got.TotalTokens)
}

// checkNativeBalance: eth_getBalance of the recipient.
func (sc *seedCheck) checkNativeBalance(t *testing.T, u string) {
	want, err := sc.c.Balance(sc.ctx, sc.s.Recipient.EVM)
	require.NoError(t, err)
	var got struct {
		NativeTokenBalance dataapi.NativeBalance `json:"nativeTokenBalance"`
	}
	harness.GetOK(t, sc.ctx, u, &got)
	require.Equal(t, want.String(), got.NativeTokenBalance.Balance)
}

// checkPrimaryTxs: the sender's transactions on chain are the sample's
// there (plus extra, e.g. the funding), each known to the node.
func (sc *seedCheck) checkPrimaryTxs(t *testing.T, u, chain string, extra ...ids.ID) {
	want := map[ids.ID]string{}
	for _, tx := range sc.s.PrimaryTxsOn(chain) {
		want[tx.ID] = tx.TxType
	}
	for _, id := range extra {
		want[id] = "BaseTx"
	}
	got := harness.ListAll[dataapi.PrimaryTx](t, sc.ctx, harness.WithQuery(u, "pageSize", "100"), "transactions", 100)
	gotTypes := map[ids.ID]string{}
	for _, tx := range got {
		id, err := ids.FromString(tx.TxHash)
		require.NoError(t, err)
		gotTypes[id] = tx.TxType
		truth.GetTx(t, sc.ctx, env.URI(t), chain, id) // fails unless the node has it
	}
	require.Equal(t, want, gotTypes)
}

// checkCAtomicTxs: the import from P, which the node says credits the
// sender's EVM address.
func (sc *seedCheck) checkCAtomicTxs(t *testing.T, u string) {
	imports := sc.s.PrimaryTxsOn("C")
	require.Len(t, imports, 1)
	utx, ok := truth.AtomicTx(t, sc.ctx, env.URI(t), imports[0].ID).UnsignedAtomicTx.(*atomic.UnsignedImportTx)
	require.True(t, ok, "the C-chain tx of the sample is an import")
	require.Len(t, utx.Outs, 1)
	require.Equal(t, sc.s.Sender.EVM, utx.Outs[0].Address)
	got := harness.ListAll[dataapi.PrimaryTx](t, sc.ctx, u, "transactions", 100)
	require.Len(t, got, 1)
	require.Equal(t, imports[0].ID.String(), got[0].TxHash)
	require.Equal(t, "ImportTx", got[0].TxType)
}

// checkPBalances: the sender's P-chain balances as platform.getBalance has
// them (a fresh key: nothing locked or staked).
func (sc *seedCheck) checkPBalances(t *testing.T, u string) {
	node := truth.BalanceOnP(t, sc.ctx, env.URI(t), sc.s.Sender.P)
	var got dataapi.Balances
	harness.GetOK(t, sc.ctx, u, &got)
	require.Equal(t, node.Unlocked, dataapi.Amounts(t, "unlockedUnstaked", got.Balances["unlockedUnstaked"]))
	require.Empty(t, node.LockedStakeable)
	require.Empty(t, node.LockedNotStakeable)
}

// checkXBalances: the recipient's X-chain balances as avm.getAllBalances
// has them.
func (sc *seedCheck) checkXBalances(t *testing.T, u string) {
	avaxID := sc.avaxID(t)
	node := truth.BalancesOnX(t, sc.ctx, env.URI(t), sc.s.Recipient.X, avaxID)
	require.NotZero(t, node[avaxID])
	var got dataapi.Balances
	harness.GetOK(t, sc.ctx, u, &got)
	require.Equal(t, node, dataapi.Amounts(t, "unlocked", got.Balances["unlocked"]))
}

// avaxID is the AVAX asset ID, from the node.
func (sc *seedCheck) avaxID(t *testing.T) ids.ID {
	var reply struct {
		AssetID ids.ID `json:"assetID"`
	}
	require.NoError(t, truth.Call(sc.ctx, env.URI(t)+"/ext/bc/X", "avm.getAssetDescription", map[string]any{"assetID": "AVAX"}, &reply))
	return reply.AssetID
}

// call runs a one-result view method with eth_call.
func (sc *seedCheck) call(t *testing.T, to common.Address, art *contracts.Artifact, method string, args ...any) any {
	out, err := sc.c.Call(sc.ctx, to, art, method, args...)
	require.NoError(t, err, "eth_call %s.%s", art.Name, method)
	require.Len(t, out, 1)
	return out[0]
}

// checkWarpTx: the warp message's transaction, a call of the warp
// precompile by the sender, whose receipt's log holds the sample's message.
func (sc *seedCheck) checkWarpTx(t *testing.T, u string) {
	w := sc.s.Warp
	require.NotNil(t, w)
	r := sc.receipts[w.TxHash]
	require.NotNil(t, r, "the warp tx is one of the sample's C-chain txs")
	harness.RequireSeedWarpMessage(t, sc.s, r)
	var got dataapi.TxDetails
	harness.GetOK(t, sc.ctx, u, &got)
	n := got.NativeTransaction
	require.Equal(t, w.TxHash, common.HexToHash(n.TxHash))
	require.Equal(t, strconv.FormatUint(r.BlockNumber, 10), n.BlockNumber)
	require.Equal(t, sc.s.Sender.EVM, common.HexToAddress(n.From.Address))
	require.Equal(t, warp.ContractAddress, common.HexToAddress(n.To.Address))
}

// checkWarpUnsignable: TestOperatorSeed's network runs without sybil protection,
// so the seeder must have left the aggregation example out, rightly: the
// aggregator answers 404 for the sample's message.
func (sc *seedCheck) checkWarpUnsignable(t *testing.T) {
	require.NotNil(t, sc.s.Warp)
	require.False(t, sc.s.Warp.Signable, "a network without sybil protection has no validators")
	r := harness.Do(t, sc.ctx, http.MethodPost, env.Base(t)+"/v1/signatureAggregator/"+sc.s.Network+"/aggregateSignatures",
		[]byte(`{"message":"`+hex.EncodeToString(sc.s.Warp.Message)+`"}`), map[string]string{"Content-Type": "application/json"})
	harness.RequireErrorBody(t, r, http.StatusNotFound, "no validator sets")
}
